import CairnSettings
import CairnStream
import CairnSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// An exclusive advisory lock on a partition, so two runs never interleave their state.
///
/// `flock` on `<partition>/lock`: the kernel drops it when the process ends, however it ends,
/// so a crashed run never leaves a stale lock behind.
///
/// A *brief* holder (the watcher, which writes a few rows now and then) first takes
/// `<partition>/lock-brief`. A run that finds the partition locked while that one is held
/// waits for it (up to `briefWait`) instead of failing busy, so a pipeline started at the
/// moment the watcher writes is not turned away; a brief holder itself never waits.
package final class PartitionLock: @unchecked Sendable {
  package let path: String
  private var fd: Int32
  private var briefFD: Int32 = -1
  /// How long a run waits for a brief holder.
  static let briefWait: Double = 10

  /// Takes the lock without waiting (but for a brief holder); a held lock is `busy` (exit 75).
  package init(directory: String, partition: ServerPartition, brief: Bool = false)
    throws(CairnError)
  {
    path = CairnPaths.lock(inPartitionFolder: directory)
    if brief {
      briefFD = open(
        CairnPaths.lockBrief(inPartitionFolder: directory), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      if briefFD >= 0 && flock(briefFD, LOCK_EX | LOCK_NB) != 0 {
        close(briefFD)
        briefFD = -1
        throw CairnError(.busy, "another cairn watcher is writing \(partition)")
      }
    }
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      let message = String(cString: strerror(errno))
      releaseBrief()
      throw CairnError(.stateFailure, message, at: path)
    }
    var locked = flock(fd, LOCK_EX | LOCK_NB) == 0
    if !locked && errno == EWOULDBLOCK && !brief {
      // The brief holder lets go of `lock` before `lock-brief`: seen free there, `lock` is
      // free too (or another run took it), so one more try decides.
      let deadline = Date().addingTimeInterval(Self.briefWait)
      while !locked && Self.briefHolderPresent(directory) && Date() < deadline {
        usleep(10_000)
        locked = flock(fd, LOCK_EX | LOCK_NB) == 0
      }
      if !locked { locked = flock(fd, LOCK_EX | LOCK_NB) == 0 }
    }
    if !locked {
      let busy = errno == EWOULDBLOCK
      let message = String(cString: strerror(errno))
      close(fd)
      fd = -1
      releaseBrief()
      if busy {
        throw CairnError(
          .busy,
          "another cairn run is using \(partition); try again when it has finished")
      }
      throw CairnError(.stateFailure, "cannot lock: \(message)", at: path)
    }
  }

  /// True while a brief holder has announced itself.
  static func briefHolderPresent(_ directory: String) -> Bool {
    let announce = open(CairnPaths.lockBrief(inPartitionFolder: directory), O_RDONLY | O_CLOEXEC)
    guard announce >= 0 else { return false }
    defer { close(announce) }
    if flock(announce, LOCK_SH | LOCK_NB) == 0 { return false }
    return errno == EWOULDBLOCK
  }

  private func releaseBrief() {
    guard briefFD >= 0 else { return }
    flock(briefFD, LOCK_UN)
    close(briefFD)
    briefFD = -1
  }

  /// Releases the lock (also released when the process exits).
  package func release() {
    if fd >= 0 {
      flock(fd, LOCK_UN)
      close(fd)
      fd = -1
    }
    releaseBrief()
  }

  deinit { release() }
}

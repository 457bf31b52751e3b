import CairnCore
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
public final class PartitionLock: @unchecked Sendable {
  public let path: String
  private var fd: Int32

  /// Takes the lock without waiting; a held lock is `busy` (exit 75).
  public init(directory: String, partition: ServerPartition) throws(CairnError) {
    path = directory + "/lock"
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw CairnError(.stateFailure, String(cString: strerror(errno)), at: path)
    }
    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let busy = errno == EWOULDBLOCK
      let message = String(cString: strerror(errno))
      close(fd)
      fd = -1
      if busy {
        throw CairnError(
          .busy,
          "another cairn run is using \(partition); try again when it has finished")
      }
      throw CairnError(.stateFailure, "cannot lock: \(message)", at: path)
    }
  }

  /// Releases the lock (also released when the process exits).
  public func release() {
    guard fd >= 0 else { return }
    flock(fd, LOCK_UN)
    close(fd)
    fd = -1
  }

  deinit { release() }
}

import CairnJSON
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import CairnWatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The watcher of a partition, as other processes see it: `<partition>/watch.pid`, holding its
/// process id and locked (`flock`) for as long as it runs, so the kernel says whether it still
/// does however it ended; and `<partition>/watch-status.json`, what it last reported.
enum WatchPresence {
  static func pidPath(_ paths: CairnPaths, _ partition: ServerPartition) -> String {
    paths.watchPID(partition)
  }

  static func statusPath(_ paths: CairnPaths, _ partition: ServerPartition) -> String {
    paths.watchStatus(partition)
  }

  /// Claims the partition for this watcher (the descriptor stays open until it exits); a
  /// second watcher of the same partition is `busy`: both would record the same deletions.
  static func claim(_ paths: CairnPaths, _ partition: ServerPartition) throws(CairnError) {
    let path = pidPath(paths, partition)
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw CairnError(.stateFailure, String(cString: strerror(errno)), at: path)
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      close(fd)
      let other = holder(paths, partition).map { " (pid \($0))" } ?? ""
      throw CairnError(.busy, "another cairn-observe watch\(other) is watching \(partition)")
    }
    let text = "\(getpid())\n"
    _ = ftruncate(fd, 0)
    _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
  }

  /// The process id of the running watcher; nil when none runs.
  static func holder(_ paths: CairnPaths, _ partition: ServerPartition) -> Int? {
    let path = pidPath(paths, partition)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    if flock(fd, LOCK_SH | LOCK_NB) == 0 { return nil }
    guard errno == EWOULDBLOCK, let text = try? String(contentsOfFile: path, encoding: .utf8)
    else { return nil }
    return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Writes what the watcher reports, whole or not at all (a reader never sees half).
  static func write(_ activity: WatchActivity, _ paths: CairnPaths, _ partition: ServerPartition) {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(activity) else { return }
    let path = statusPath(paths, partition)
    let temporary = path + ".tmp"
    guard
      FileManager.default.createFile(
        atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
    else { return }
    rename(temporary, path)
  }

  /// What the watcher last reported; nil when it never did.
  static func read(_ paths: CairnPaths, _ partition: ServerPartition) -> WatchActivity? {
    guard let data = FileManager.default.contents(atPath: statusPath(paths, partition)) else {
      return nil
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try? decoder.decode(WatchActivity.self, from: data)
  }
}

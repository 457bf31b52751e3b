import CairnSettings
import Foundation
import GRDB

/// One checksum at a time from the hash cache, without loading it (`HashCache` loads the whole
/// table, as a scan needs; a watcher asking about one deleted file now and then does not).
///
/// A file that is gone cannot be hashed or stat'ed: the caller says which inode it was and
/// when it last changed, and the cache answers only for that exact version.
package final class HashCacheLookup {
  private let path: String
  private var queue: DatabaseQueue?

  package init(path: String) { self.path = path }

  /// The checksum (base64) the cache holds for (device, inode) as it was at `changeNanoseconds`;
  /// nil when it holds none, holds another version, or cannot be read.
  package func checksum(device: UInt64, inode: UInt64, changeNanoseconds: Int64) -> String? {
    guard let queue = open() else { return nil }
    do {
      return try queue.read { db -> String? in
        guard
          let row = try Row.fetchOne(
            db, sql: "SELECT ctime_ns, sha1 FROM hashes WHERE dev = ? AND ino = ?",
            arguments: [Int64(bitPattern: device), Int64(bitPattern: inode)]),
          (row[0] as Int64) == changeNanoseconds,
          let digest = ContentDigest((row[1] as Data))
        else { return nil }
        return digest.base64
      }
    } catch {
      // Busy or damaged: only this answer is lost; a later question opens it afresh.
      self.queue = nil
      return nil
    }
  }

  private func open() -> DatabaseQueue? {
    if let queue { return queue }
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(5)
    configuration.label = "cairn-hash-cache-lookup"
    queue = try? DatabaseQueue(path: path, configuration: configuration)
    return queue
  }
}

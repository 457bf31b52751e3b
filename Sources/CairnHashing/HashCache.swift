import CairnSQLite
import CairnSettings
import CairnStream
import CairnSupport
import Foundation
import GRDB

#if canImport(GRDBSQLite)
  import GRDBSQLite
#else
  import SQLite3
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The global, persistent memory of checksums already computed, so an unchanged file is never
/// read twice.
///
/// An entry is keyed by (device, inode) and trusted only while size, mtime and ctime (all in
/// nanoseconds) are unchanged; `touch -d` can restore an mtime, but any write moves the ctime.
/// The whole table is loaded in one query when the cache opens (a scan looks up every file, and
/// a query per file would cost more than the stat), and new checksums are written back in
/// batched transactions. SQLite in WAL mode with a busy timeout lets two runs share the file;
/// a damaged file is set aside and rebuilt, with a warning, since it is only a cache.
package final class HashCache {
  typealias Key = HashCacheTable.Key
  typealias Entry = HashCacheTable.Entry

  /// Bumped when the table's layout changes; an older cache is discarded, not migrated.
  static let layoutVersion = 1
  /// How many new checksums are written per transaction.
  static let batchSize = 4096

  private var entries = HashCacheTable()
  private var pending: [(Key, Entry)] = []
  private var database: DatabaseQueue?
  private var loading = true
  package let path: String?
  /// How many entries the cache held when it was opened.
  package private(set) var loadedCount = 0

  /// A cache that remembers nothing (`--no-cache`).
  package init() {
    path = nil
  }

  /// Opens (or creates) the cache at `path`. Never fails: a cache that can't be opened is
  /// rebuilt, and one that can't be rebuilt is replaced by an in-memory one, with a warning.
  /// `loading` false only writes (the watcher, which stores what it hashed and looks nothing
  /// up here, need not hold a library's entries in memory).
  package init(path: String, loading: Bool = true) {
    self.path = path
    self.loading = loading
    do {
      try openWaitingForOtherRuns(path)
    } catch let error as DatabaseError
      where error.resultCode != .SQLITE_CORRUPT && error.resultCode != .SQLITE_NOTADB
    {
      // Busy, locked, read-only, full: the file may be fine and in use by another run, so it
      // is left alone.
      Diagnostics.warning(
        "hash cache unavailable (\(Self.describe(error))); hashing without it", at: path)
      database = nil
      entries = HashCacheTable()
    } catch {
      // Damaged (or not a database at all): it's only a cache, so start a new one.
      Diagnostics.warning("hash cache unusable (\(Self.describe(error))); rebuilding it", at: path)
      database = nil
      entries = HashCacheTable()
      for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
      do {
        try open(path)
      } catch {
        Diagnostics.warning(
          "hash cache still unusable (\(Self.describe(error))); hashing without it", at: path)
        database = nil
        entries = HashCacheTable()
      }
    }
    loadedCount = entries.count
  }

  /// Opens the cache, trying again for a while when another run holds it: SQLite's busy
  /// timeout covers waiting for a lock, but not every moment of two runs creating, switching
  /// to WAL or recovering the same file, where it answers "locked" at once.
  private func openWaitingForOtherRuns(_ path: String) throws {
    var attempt = 0
    while true {
      do {
        return try open(path)
      } catch let error as DatabaseError
        where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED)
        && attempt < 20
      {
        attempt += 1
        database = nil
        usleep(UInt32(10_000 * attempt))  // 2.1 s in all
      }
    }
  }

  private func open(_ path: String) throws {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    if !folder.isEmpty { try CairnPaths.makePrivateDirectory(folder) }
    // Create the file 0600 ourselves: SQLite would use the umask, and its -wal and -shm
    // companions copy the main file's mode.
    let fd = Glibc_open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if fd >= 0 { close(fd) }
    var configuration = Configuration()
    configuration.journalMode = .wal
    configuration.busyMode = .timeout(30)
    configuration.label = "cairn-hash-cache"
    configuration.prepareDatabase { db in
      // A cache may lose its last batch in a power cut (WAL keeps it consistent), so it need
      // not wait for the disk on every commit.
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
      // Closing would otherwise copy the whole log into the database and wait for the disk
      // twice, after the scan, on its critical path (a fifth of a cold scan of small files).
      // The log stays valid on disk and a later run's automatic checkpoint folds it in.
      _ = cairn_sqlite_skip_checkpoint_on_close(db.sqliteConnection)
    }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    // Immediate: two runs creating the cache at once take turns (the busy timeout) instead of
    // one failing to upgrade its read to a write.
    try queue.writeWithoutTransaction { db in
      try db.inTransaction(.immediate) {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard version != Self.layoutVersion else { return .commit }
        try db.execute(sql: "DROP TABLE IF EXISTS hashes")
        try db.execute(
          sql: """
            CREATE TABLE hashes (
              dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL,
              mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, sha1 BLOB NOT NULL,
              PRIMARY KEY (dev, ino)) WITHOUT ROWID
            """)
        try db.execute(sql: "PRAGMA user_version = \(Self.layoutVersion)")
        return .commit
      }
    }
    var loaded = HashCacheTable()
    if loading {
      try load(queue, into: &loaded)
      loaded.finishLoading()
    }
    database = queue
    entries = loaded
  }

  private func load(_ queue: DatabaseQueue, into loaded: inout HashCacheTable) throws {
    try queue.read { db in
      // Mapped rather than read page by page: a warm scan reads the whole table at once.
      try db.execute(sql: "PRAGMA mmap_size = 1073741824")
      // Straight through the SQLite API: GRDB's row decoding would cost more than the rest of
      // a warm scan of a big library. (Cached, so the database keeps the statement alive for
      // as long as its raw handle is used below.)
      let statement = try db.cachedStatement(
        sql: "SELECT dev, ino, size, mtime_ns, ctime_ns, sha1 FROM hashes")
      let raw = statement.sqliteStatement
      try db.forEachRow(raw) {
        let blob = UnsafeRawBufferPointer(
          start: sqlite3_column_blob(raw, 5), count: Int(sqlite3_column_bytes(raw, 5)))
        guard let digest = ContentDigest(blob) else { return }
        let key = Key(
          device: UInt64(bitPattern: sqlite3_column_int64(raw, 0)),
          inode: UInt64(bitPattern: sqlite3_column_int64(raw, 1)))
        loaded.append(
          key,
          Entry(
            size: sqlite3_column_int64(raw, 2), mtimeNanoseconds: sqlite3_column_int64(raw, 3),
            ctimeNanoseconds: sqlite3_column_int64(raw, 4), digest: digest))
      }
    }
  }

  /// The checksum remembered for this exact version of the file, if any.
  package func lookup(_ status: FileStatus) -> ContentDigest? {
    // A first scan finds nothing: don't hash a key per file to learn it.
    guard !entries.isEmpty,
      let entry = entries.entry(for: Key(device: status.device, inode: status.inode)),
      entry.size == status.size, entry.mtimeNanoseconds == status.mtimeNanoseconds,
      entry.ctimeNanoseconds == status.ctimeNanoseconds
    else { return nil }
    return entry.digest
  }

  /// Remembers a checksum computed at `hashedAt` (nanoseconds since 1970), for later runs: a
  /// scan meets a file once, so this run's lookups don't need it.
  ///
  /// A file changed within the last moments may be changed again within the same tick of the
  /// file system's clock, leaving its timestamps as they were: such "racy" files are not
  /// remembered, as git does with its index.
  package func store(_ status: FileStatus, _ digest: ContentDigest, hashedAt: Int64) {
    let margin = status.timestampMargin
    guard hashedAt - max(status.ctimeNanoseconds, status.mtimeNanoseconds) >= margin else { return }
    let key = Key(device: status.device, inode: status.inode)
    let entry = Entry(
      size: status.size, mtimeNanoseconds: status.mtimeNanoseconds,
      ctimeNanoseconds: status.ctimeNanoseconds, digest: digest)
    guard database != nil else { return }
    pending.append((key, entry))
    if pending.count >= Self.batchSize { flush() }
  }

  /// Hands the checksums not yet on disk to the writing thread, so the scan goes on while
  /// SQLite works. A failure costs only future re-hashing: it is reported once.
  package func flush() {
    guard let database, !pending.isEmpty else { return }
    let batch = pending
    pending.removeAll(keepingCapacity: true)
    let failed = writeFailed
    let path = path
    writes.async {
      guard !failed.current else { return }
      do {
        try Self.write(batch, to: database)
      } catch {
        failed.withLock { $0 = true }
        Diagnostics.warning("cannot update the hash cache: \(Self.describe(error))", at: path)
      }
    }
  }

  /// Flushes and waits until every checksum handed over is written.
  package func finishWriting() {
    flush()
    writes.sync {}
  }

  private let writes = DispatchQueue(label: "cairn-hash-cache-writes")
  private let writeFailed = Locked(false)

  private static func write(_ batch: [(Key, Entry)], to database: DatabaseQueue) throws {
    try database.write { db in
      let statement = try db.cachedStatement(
        sql: """
          INSERT OR REPLACE INTO hashes (dev, ino, size, mtime_ns, ctime_ns, sha1)
          VALUES (?, ?, ?, ?, ?, ?)
          """)
      // Bound through the SQLite API: GRDB's argument arrays would allocate per row.
      let raw = statement.sqliteStatement
      var blob = [UInt8](repeating: 0, count: 20)
      for (key, entry) in batch {
        sqlite3_bind_int64(raw, 1, Int64(bitPattern: key.device))
        sqlite3_bind_int64(raw, 2, Int64(bitPattern: key.inode))
        sqlite3_bind_int64(raw, 3, entry.size)
        sqlite3_bind_int64(raw, 4, entry.mtimeNanoseconds)
        sqlite3_bind_int64(raw, 5, entry.ctimeNanoseconds)
        entry.digest.copyBytes(into: &blob)
        // Copied by SQLite: the array's storage need not outlive the bind.
        _ = blob.withUnsafeBytes { cairn_sqlite_bind_blob_copy(raw, 6, $0.baseAddress, 20) }
        try db.stepBound(raw)
      }
    }
  }

  static func describe(_ error: Error) -> String {
    if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
    if let error = error as? CairnError { return error.message }
    return "\(error)"
  }
}

@inline(__always)
private func Glibc_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}

import CairnCore
import Foundation
import GRDB

/// The state of one (server, user) partition: `<state>/servers/<partition>/state.sqlite`.
///
/// Opening takes the partition's lock (a second concurrent run gets `busy`, exit 75), creates
/// the folder (0700) and database (0600), and migrates it. A database written by a newer cairn
/// or one SQLite cannot read is refused with `stateFailure` (exit 74), never reset.
///
/// The typed stores share one connection pool:
/// - `observed`: checksums ever seen, their roots, paths, first and last seen
/// - `signals`: first-missing times and positive deletion signals (first write wins)
/// - `anchors`: the first checksum of each file identity (edit semantics)
/// - `exclusions`: checksums never to trash (survive `observed.reset()`)
/// - `approvals`: pending items a person approved for a plan
/// - `runs`: one row per run of a stage that acts (`cairn-gate`, `cairn-trash`)
/// - `fates`: what the server showed of the assets runs trashed, beyond the journal
/// - `meta`: small named values (`lastMatchedCount`, `firstDryRunReviewedAt`, ...)
package final class PartitionStore: Sendable {
  package let partition: ServerPartition
  /// The partition folder.
  package let directory: String
  /// The database file.
  package let path: String
  let database: StateDatabase
  /// The last recorded scan's snapshot (see `ScanSnapshotStore`).
  let snapshots: ScanSnapshotStore
  private let lock: PartitionLock?

  package let observed: ObservedStore
  package let signals: DeletionSignalStore
  package let anchors: EditAnchorStore
  package let exclusions: ExclusionStore
  package let approvals: ApprovalStore
  package let runs: RunStore
  package let fates: FateStore
  package let meta: MetaStore

  /// Opens (creating if needed) the partition's state.
  ///
  /// - Parameter locking: false only for read-only inspection that may run beside a run.
  /// - Parameter checkpointing: false leaves the write-ahead log to `checkpoint()` (or to the
  ///   close of the last connection) rather than to the commit that fills it.
  /// - Parameter brief: the caller writes for a moment and closes (see `PartitionLock`).
  package static func open(
    _ partition: ServerPartition, paths: CairnPaths, locking: Bool = true,
    checkpointing: Bool = true, brief: Bool = false
  ) throws(CairnError) -> PartitionStore {
    try open(
      partition, paths: paths, locking: locking, checkpointing: checkpointing, brief: brief,
      snapshots: ScanSnapshotStore.Options())
  }

  /// Opens the partition's state with its snapshot store's `options` (tests vary them).
  static func open(
    _ partition: ServerPartition, paths: CairnPaths, locking: Bool = true,
    checkpointing: Bool = true, brief: Bool = false, snapshots options: ScanSnapshotStore.Options
  ) throws(CairnError) -> PartitionStore {
    let directory = paths.partitionDirectory(partition)
    try CairnPaths.makePrivateDirectory(directory)
    let lock =
      locking
      ? try PartitionLock(directory: directory, partition: partition, brief: brief) : nil
    return try PartitionStore(
      partition: partition, directory: directory, lock: lock, checkpointing: checkpointing,
      snapshots: options)
  }

  private init(
    partition: ServerPartition, directory: String, lock: PartitionLock?, checkpointing: Bool,
    snapshots options: ScanSnapshotStore.Options
  ) throws(CairnError) {
    self.partition = partition
    self.directory = directory
    self.path = directory + "/state.sqlite"
    self.lock = lock
    database = try StateDatabase(path: path, checkpointing: checkpointing)
    snapshots = ScanSnapshotStore(database, options: options)
    observed = ObservedStore(database, snapshots: snapshots)
    signals = DeletionSignalStore(database)
    anchors = EditAnchorStore(database)
    exclusions = ExclusionStore(database)
    fates = FateStore(database)
    approvals = ApprovalStore(database)
    runs = RunStore(database)
    meta = MetaStore(database)
  }

  /// Releases the lock before the process ends (it is released at exit anyway).
  package func close() {
    lock?.release()
  }
}

/// The connection pool and the translation of SQLite errors into `CairnError`.
final class StateDatabase: Sendable {
  let pool: DatabasePool
  let path: String

  init(path: String, checkpointing: Bool = true) throws(CairnError) {
    self.path = path
    // Create the file 0600 before SQLite does (SQLite would honour the umask).
    let fd = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if fd >= 0 { Foundation.close(fd) }
    var configuration = GRDB.Configuration()
    configuration.foreignKeysEnabled = true
    configuration.busyMode = .timeout(10)
    configuration.label = "cairn-state"
    configuration.prepareDatabase { db in
      // In WAL mode NORMAL survives a crash of the process; a power cut may lose the last
      // recorded scan, which the next scan records again. FULL would fsync every commit.
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
      // A bigger page cache (64 MB) keeps a million-row upsert from spilling mid-transaction.
      try db.execute(sql: "PRAGMA cache_size = -65536")
      // The scan's temporary tables (see `ScanTable`) and the sorts over them stay in memory: in a
      // temporary file with the default 2 MB cache, a million-file scan spent seconds in
      // reads and writes of its own scratch space.
      try db.execute(sql: "PRAGMA temp_store = MEMORY")
      if !checkpointing { try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
      // Pages read from the file mapped (up to SQLite's usual ceiling, 2 GB), not copied out
      // of it one `pread` at a time: a scan that changed thousands of rows reads thousands of
      // scattered pages, and on a virtual machine each system call costs more than the page.
      // Only cairn writes the partition folder, and never truncates a database under a run.
      try db.execute(sql: "PRAGMA mmap_size = 2147418112")
    }
    do {
      pool = try DatabasePool(path: path, configuration: configuration)
    } catch {
      throw Self.refusal(error, path: path)
    }
    let migrator = StateMigrations.migrator
    do {
      let newer = try pool.read { db in try migrator.hasBeenSuperseded(db) }
      if newer {
        throw CairnError(
          .stateFailure,
          "this state database was written by a newer cairn; upgrade cairn (nothing was changed)",
          at: path)
      }
      try migrator.migrate(pool)
    } catch let error as CairnError {
      throw error
    } catch {
      throw Self.refusal(error, path: path)
    }
  }

  /// Runs `body` in a write transaction.
  func write<T>(_ body: (Database) throws -> T) throws(CairnError) -> T {
    do {
      return try pool.write(body)
    } catch let error as CairnError {
      throw error
    } catch {
      throw Self.refusal(error, path: path)
    }
  }

  /// Runs `body` on the writing connection outside a transaction (to ask it about itself).
  func withWriter<T>(_ body: (Database) throws -> T) throws(CairnError) -> T {
    do {
      return try pool.writeWithoutTransaction(body)
    } catch let error as CairnError {
      throw error
    } catch {
      throw Self.refusal(error, path: path)
    }
  }

  /// Runs `body` on a consistent snapshot.
  func read<T>(_ body: (Database) throws -> T) throws(CairnError) -> T {
    do {
      return try pool.read(body)
    } catch let error as CairnError {
      throw error
    } catch {
      throw Self.refusal(error, path: path)
    }
  }

  static func refusal(_ error: any Error, path: String) -> CairnError {
    if let error = error as? DatabaseError {
      switch error.resultCode {
      case .SQLITE_NOTADB, .SQLITE_CORRUPT:
        return CairnError(
          .stateFailure,
          "the state database is damaged (\(error.message ?? "\(error.resultCode)")); move it "
            + "aside to start this partition afresh", at: path)
      case .SQLITE_BUSY, .SQLITE_LOCKED:
        return CairnError(.busy, "the state database is busy; try again", at: path)
      default:
        return CairnError(.stateFailure, error.message ?? "\(error.resultCode)", at: path)
      }
    }
    return CairnError(.stateFailure, "\(error)", at: path)
  }
}

extension Date {
  /// Seconds since 1970, as the database stores dates.
  var stateValue: Double { timeIntervalSince1970 }
  init(stateValue: Double) { self.init(timeIntervalSince1970: stateValue) }
}

import CairnSettings
import CairnStream
import Foundation
import GRDB

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

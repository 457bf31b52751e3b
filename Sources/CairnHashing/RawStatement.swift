import GRDB

#if canImport(GRDBSQLite)
  import GRDBSQLite
#else
  import SQLite3
#endif

/// Statements stepped straight through the SQLite API, for the loops over a million rows
/// where GRDB's argument arrays and row decoding would cost more than the rest of the work
/// (the hash cache, the state's scan tables). The statement is one of `db`'s cached ones, so
/// the database keeps it alive while its raw handle is used.
extension Database {
  /// Runs the statement whose values are bound on `handle` (an insert) and resets it for the
  /// next row.
  package func stepBound(_ handle: OpaquePointer?) throws {
    let code = sqlite3_step(handle)
    sqlite3_reset(handle)
    guard code == SQLITE_DONE else { throw rawFailure(code) }
  }

  /// Calls `body` on each row of the query on `handle`, then resets it.
  package func forEachRow(_ handle: OpaquePointer?, _ body: () throws -> Void) throws {
    defer { sqlite3_reset(handle) }
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw rawFailure(code) }
      try body()
    }
  }

  /// What SQLite said of the failed step, as GRDB reports its own failures.
  private func rawFailure(_ code: Int32) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code),
      message: String(cString: sqlite3_errmsg(sqliteConnection)))
  }
}

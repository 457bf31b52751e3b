import CairnEngine
import CairnSealedFiles
import CairnStream
import Foundation
import GRDB

/// The two deletion signals: when a checksum was first found missing (negative) and when a
/// trash recorded its deletion (positive). Both are first write wins, so re-confirming never
/// restarts a quarantine clock and a flapping file still ages out predictably.
package struct DeletionSignalStore: Sendable {
  let database: StateDatabase
  init(_ database: StateDatabase) { self.database = database }

  /// First-missing times by checksum.
  package func missing() throws(CairnError) -> [String: Date] {
    try database.read { db in
      var result: [String: Date] = [:]
      let rows = try Row.fetchCursor(db, sql: "SELECT checksum, since FROM missing")
      while let row = try rows.next() { result[row[0]] = Date(stateValue: row[1]) }
      return result
    }
  }

  /// Records `checksums` as missing since `now`, keeping earlier times. Returns how many were new.
  @discardableResult
  package func recordMissing<S: Sequence>(_ checksums: S, at now: Date) throws(CairnError) -> Int
  where S.Element == String {
    let list = ByteKey.sorted(Array(checksums))
    guard !list.isEmpty else { return 0 }
    return try database.write { db in
      // One statement for thousands of checksums, in key order.
      try db.execute(
        sql: """
          INSERT INTO missing SELECT value, ? FROM json_each(?) WHERE true
          ON CONFLICT(checksum) DO NOTHING
          """, arguments: [now.stateValue, JSONText.array(list)])
      return db.changesCount
    }
  }

  /// Positive signals by checksum. An edited file that was deleted is deleted in every
  /// version: the signal of its last bytes (the trash holds those) is its original's too,
  /// unless the original has a later one of its own (the later date waits longer).
  package func confirmations() throws(CairnError) -> [String: DeletionConfirmation] {
    try database.read { db in
      var result: [String: DeletionConfirmation] = [:]
      let rows = try Row.fetchCursor(
        db, sql: "SELECT checksum, confirmedAt, source, originalPath FROM confirmation")
      while let row = try rows.next() {
        let checksum: String = row[0]
        result[checksum] = DeletionConfirmation(
          checksum: checksum, confirmedAt: Date(stateValue: row[1]), source: row[2],
          originalPath: row[3])
      }
      let versions = try Row.fetchAll(
        db,
        sql: """
          SELECT originalChecksum, lastChecksum FROM deletedVersion
          WHERE lastChecksum IN (SELECT checksum FROM confirmation)
          """)
      for row in versions {
        let original: String = row[0]
        guard let signal = result[row[1] as String] else { continue }
        if let own = result[original], own.confirmedAt >= signal.confirmedAt { continue }
        result[original] = DeletionConfirmation(
          checksum: original, confirmedAt: signal.confirmedAt, source: signal.source,
          originalPath: signal.originalPath)
      }
      return result
    }
  }

  /// Adds positive signals; a checksum already confirmed keeps its first date (the seeds'
  /// `ConfirmedDeletedStore.union`). Returns how many were new.
  @discardableResult
  package func union(_ confirmations: [DeletionConfirmation]) throws(CairnError) -> Int {
    try database.write { db in
      let statement = try db.cachedStatement(
        sql: "INSERT INTO confirmation VALUES (?, ?, ?, ?) ON CONFLICT(checksum) DO NOTHING")
      var added = 0
      for item in confirmations {
        try statement.execute(arguments: [
          item.checksum, item.confirmedAt.stateValue, item.source, item.originalPath,
        ])
        added += db.changesCount
      }
      return added
    }
  }
}

import CairnRuns
import CairnSettings
import CairnStream
import Foundation
import GRDB

/// What cairn learned from the server about the assets its runs trashed (`FateLedger`): kept
/// here, beside the journal, so that a restore done in Immich's web app is known for good even
/// after the asset is trashed again.
package struct FateStore: Sendable {
  let database: StateDatabase
  init(_ database: StateDatabase) { self.database = database }

  /// Everything learned so far.
  package func ledger() throws(CairnError) -> FateLedger {
    try database.read { db in
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT runId, assetId, lastSeen, since, restoredElsewhereAt, fileSeenAgainAt
          FROM runAssetFate
          """)
      var learned: [LearnedFate] = []
      while let row = try rows.next() {
        learned.append(
          LearnedFate(
            runID: row[0], assetID: row[1],
            lastSeen: ServerSighting(rawValue: row[2]) ?? .trashed,
            since: Date(stateValue: row[3]),
            restoredElsewhereAt: (row[4] as Double?).map(Date.init(stateValue:)),
            fileSeenAgainAt: (row[5] as Double?).map(Date.init(stateValue:))))
      }
      return FateLedger(learned)
    }
  }

  /// Saves what `ledger` learned since it was loaded.
  package func save(_ ledger: FateLedger) throws(CairnError) {
    guard !ledger.changed.isEmpty else { return }
    try database.write { db in
      let statement = try db.cachedStatement(
        sql: "INSERT OR REPLACE INTO runAssetFate VALUES (?, ?, ?, ?, ?, ?)")
      for entry in ledger.changed {
        try statement.execute(arguments: [
          entry.runID, entry.assetID, entry.lastSeen.rawValue, entry.since.stateValue,
          entry.restoredElsewhereAt?.stateValue, entry.fileSeenAgainAt?.stateValue,
        ])
      }
    }
  }
}

extension FateStore {
  /// What was learned in the partition folder `directory`, read beside any run (no lock, as
  /// `cairn-restore show` does); empty when the partition has no state yet.
  package static func ledger(inPartitionFolder directory: String) throws(CairnError)
    -> FateLedger
  {
    let path = CairnPaths.stateDatabase(inPartitionFolder: directory)
    guard FileManager.default.fileExists(atPath: path) else { return FateLedger() }
    return try FateStore(StateDatabase(path: path)).ledger()
  }
}

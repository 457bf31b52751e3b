import CairnCore
import Foundation
import GRDB

/// A deletion `cairn-observe watch` saw happen: the kernel reported the unlink (or the move out
/// of every root) of a file whose checksum the hash cache knew.
package struct WatchedDeletionSignal: Sendable, Equatable {
  package var checksum: String
  package var at: Date
  package var path: String

  package init(checksum: String, at: Date, path: String) {
    self.checksum = checksum
    self.at = at
    self.path = path
  }
}

/// A span in which the watcher's record of a root has a hole.
package struct WatchGapRecord: Sendable, Equatable {
  package var at: Date
  package var reason: String
  package var root: String

  package init(at: Date, reason: String, root: String) {
    self.at = at
    self.reason = reason
    self.root = root
  }
}

extension PartitionStore {
  /// Records the watcher's deletions as positive signals (source `watcher`, dated when they
  /// happened, first write wins, as a trash's) and its gaps, in one transaction. Checksums the
  /// observed store never saw are skipped: nothing on the server can be matched to them.
  /// Returns how many signals were new.
  @discardableResult
  package func recordWatcher(_ deletions: [WatchedDeletionSignal], gaps: [WatchGapRecord])
    throws(CairnError) -> Int
  {
    var confirmations: [DeletionConfirmation] = []
    for deletion in deletions where try observed.contains(deletion.checksum) {
      confirmations.append(
        DeletionConfirmation(
          checksum: deletion.checksum, confirmedAt: deletion.at,
          source: DeletionConfirmation.watcherSource, originalPath: deletion.path))
    }
    let added = try signals.union(confirmations)
    if !gaps.isEmpty {
      try database.write { db in
        for gap in gaps {
          try db.execute(
            sql: "INSERT INTO watchGap VALUES (?, ?, ?)",
            arguments: [gap.at.stateValue, gap.reason, gap.root])
        }
      }
    }
    return added
  }

  /// The watcher's gaps, oldest first.
  package func watchGaps() throws(CairnError) -> [WatchGapRecord] {
    try database.read { db in
      try Row.fetchAll(db, sql: "SELECT at, reason, root FROM watchGap ORDER BY at").map {
        WatchGapRecord(at: Date(stateValue: $0[0]), reason: $0[1], root: $0[2])
      }
    }
  }
}

import CairnStream
import Foundation
import GRDB

/// The plans a person shaped: a review page shows plan D (`cairn-gate --plan D`), and the
/// exclusions its command stores take candidates out of every later stream, because
/// `cairn-reconcile` no longer proposes an excluded checksum. This remembers, for D, the digest
/// of what D became once those exclusions were applied (`PlanBinding.shapedDigest`), so that the
/// same command, run again on a stream reconciled since, is still recognised as bound to D.
///
/// Only `cairn-gate` writes it, only when a `--plan` it checked matched, and it never lets
/// anything through by itself: the rails and `cairn-trash`'s checks run as for any plan.
package struct PlanShapeStore: Sendable {
  let database: StateDatabase
  init(_ database: StateDatabase) { self.database = database }

  /// Review pages older than the newest this many are forgotten (their commands then refuse,
  /// as for any plan that changed).
  static let kept = 32

  /// Records that plan `reviewed` is `shaped` after the decisions a person stored for it.
  package func record(reviewed: String, shaped: String, at date: Date = Date()) throws(CairnError) {
    try database.write { db in
      try db.execute(
        sql: """
          INSERT INTO planShape VALUES (?, ?, ?)
          ON CONFLICT(reviewed) DO UPDATE SET shaped = excluded.shaped, at = excluded.at
          """, arguments: [reviewed, shaped, date.stateValue])
      try db.execute(
        sql: """
          DELETE FROM planShape WHERE reviewed NOT IN
            (SELECT reviewed FROM planShape ORDER BY at DESC LIMIT ?)
          """, arguments: [Self.kept])
    }
  }

  /// What plan `reviewed` became after the decisions stored for it, if any were.
  package func shaped(_ reviewed: String) throws(CairnError) -> String? {
    try database.read { db in
      try String.fetchOne(
        db, sql: "SELECT shaped FROM planShape WHERE reviewed = ?", arguments: [reviewed])
    }
  }
}

extension PartitionStore {
  /// The plans shaped on review pages (see `PlanShapeStore`).
  package var planShapes: PlanShapeStore { PlanShapeStore(database) }
}

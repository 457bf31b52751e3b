import CairnStream
import Foundation
import GRDB

/// A pending item a person approved, valid only for the plan they saw.
package struct Approval: Sendable, Equatable {
  package var assetId: String
  package var checksum: String
  /// The digest of the plan the approval was given for (`cairn-gate`'s plan digest).
  package var plan: String
  package var approvedAt: Date

  package init(assetId: String, checksum: String, plan: String, approvedAt: Date) {
    self.assetId = assetId
    self.checksum = checksum
    self.plan = plan
    self.approvedAt = approvedAt
  }
}

/// Approvals of pending candidates. An approval names a plan digest, so it never carries over to
/// a plan the person did not see.
package struct ApprovalStore: Sendable {
  let database: StateDatabase
  init(_ database: StateDatabase) { self.database = database }

  /// Records approvals (re-approving the same asset for the same plan keeps the first time).
  package func add(_ approvals: [Approval]) throws(CairnError) {
    try database.write { db in
      let statement = try db.cachedStatement(
        sql: "INSERT INTO approval VALUES (?, ?, ?, ?) ON CONFLICT(plan, assetId) DO NOTHING")
      for item in approvals {
        try statement.execute(arguments: [
          item.assetId.lowercased(), item.checksum, item.plan, item.approvedAt.stateValue,
        ])
      }
    }
  }

  /// The approvals given for `plan`.
  package func forPlan(_ plan: String) throws(CairnError) -> [Approval] {
    try database.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT assetId, checksum, plan, approvedAt FROM approval WHERE plan = ?
          ORDER BY assetId
          """, arguments: [plan]
      ).map(Self.approval)
    }
  }

  /// Every approval, newest first.
  package func all() throws(CairnError) -> [Approval] {
    try database.read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT assetId, checksum, plan, approvedAt FROM approval ORDER BY approvedAt DESC"
      ).map(Self.approval)
    }
  }

  /// True when `assetId` was approved for `plan`.
  package func isApproved(assetId: String, plan: String) throws(CairnError) -> Bool {
    try database.read { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM approval WHERE plan = ? AND assetId = ?)",
        arguments: [plan, assetId.lowercased()]) ?? false
    }
  }

  /// Forgets approvals of plans other than `keeping` (after a run consumed them, say).
  @discardableResult
  package func removeAll(except keeping: String? = nil) throws(CairnError) -> Int {
    try database.write { db in
      try db.execute(
        sql: "DELETE FROM approval WHERE plan IS NOT ?", arguments: [keeping])
      return db.changesCount
    }
  }

  private static func approval(_ row: Row) -> Approval {
    Approval(
      assetId: row[0], checksum: row[1], plan: row[2], approvedAt: Date(stateValue: row[3]))
  }
}

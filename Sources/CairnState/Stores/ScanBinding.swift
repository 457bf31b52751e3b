import CairnEngine
import CairnJSON
import CairnRecords
import CairnSafety
import CairnStream
import Foundation
import GRDB

/// What ties a plan to the state it was computed from: the latest recorded scan, what
/// `cairn-reconcile` proposed from it, and the plan `cairn-gate` passed.
///
/// A stream on a pipe can be saved, replayed, filtered or written by hand; the state can only be
/// written by cairn's own stages. So every fact a stage that acts relies on is read here, not
/// from its input:
/// - `scan`: an identifier of the latest recorded scan, made new by every recording (by
///   `cairn-observe` or `cairn-reconcile`, in the transaction that records it). A plan names
///   the scan it was computed from (`HeaderRecord.scan`) and is refused once another scan is
///   recorded.
/// - the proposals: the candidates `cairn-reconcile` computed from that scan (asset id,
///   checksum, bucket, Live Photo video), with the numbers the rails compare (matched and
///   listed server assets). A candidate that is not one of them, or claims another bucket or
///   checksum, was not computed by cairn.
/// - the gate's pass: the digest of the plan `cairn-gate` let through for that scan, and the
///   threshold override a person named for it, and the threshold and floor a person gave
///   cairn-gate for that run, so that `cairn-trash` re-runs the threshold rail as the gate
///   ran it and never with an override or a limit a stream claims.
package struct ScanBinding: Sendable {
  let database: StateDatabase
  let snapshots: ScanSnapshotStore
  init(_ database: StateDatabase, snapshots: ScanSnapshotStore) {
    self.database = database
    self.snapshots = snapshots
  }

  /// The meta keys (kept here rather than in `MetaStore.Key`: they are written together).
  enum Key {
    static let scan = "scan"
    static let scanSnapshot = "scanSnapshot"
    static let reconciledScan = "reconciledScan"
    static let matched = "reconciledMatched"
    static let serverAssets = "reconciledServerAssets"
    static let gateScan = "gatePassScan"
    static let gatePlan = "gatePassPlan"
    static let gateOverride = "gatePassOverride"
    static let gateThreshold = "gatePassThresholdPercent"
    static let gateFloor = "gatePassFloor"
  }

  /// What `cairn-reconcile` recorded about the latest scan.
  package struct Reconciled: Sendable, Equatable {
    package var scan: String
    package var matched: Int
    package var serverAssets: Int
  }

  /// One candidate as `cairn-reconcile` proposed it.
  package struct Proposal: Sendable, Equatable {
    package var assetId: String
    package var checksum: String
    package var bucket: String
    package var livePhotoVideoId: String?
    /// Matched to a file the watcher saw but never hashed (`seen-unhashed`): it goes only
    /// with a person's approval, whatever its bucket.
    package var sighted = false
  }

  /// The plan `cairn-gate` passed.
  package struct GatePass: Sendable, Equatable {
    package var scan: String
    package var plan: String
    /// The digest named with `--override-threshold`, when it was this plan's.
    package var overrideDigest: String?
    /// The threshold and floor given to cairn-gate with `--threshold`/`--floor`; nil when the
    /// gate ran with the configuration's.
    package var rails: SafetyRails.Settings?

    package init(
      scan: String, plan: String, overrideDigest: String?, rails: SafetyRails.Settings? = nil
    ) {
      self.scan = scan
      self.plan = plan
      self.overrideDigest = overrideDigest
      self.rails = rails
    }
  }

  /// The identifier of the latest recorded scan; nil before the first scan is recorded with
  /// this version of cairn.
  package func latestScan() throws(CairnError) -> String? {
    try database.read { db in try Self.value(db, Key.scan) }
  }

  /// What `cairn-reconcile` recorded, when it was for the latest scan.
  package func reconciled() throws(CairnError) -> Reconciled? {
    try database.read { db in
      guard let scan = try Self.value(db, Key.scan), try Self.value(db, Key.reconciledScan) == scan,
        let matched = try Self.value(db, Key.matched).flatMap({ Int($0) }),
        let listed = try Self.value(db, Key.serverAssets).flatMap({ Int($0) })
      else { return nil }
      return Reconciled(scan: scan, matched: matched, serverAssets: listed)
    }
  }

  /// Records what `cairn-reconcile` computed from scan `scan`, replacing any earlier proposals.
  /// Refused when `scan` is no longer the latest (another scan was recorded meanwhile).
  package func recordReconciliation(
    scan: String, matched: Int, serverAssets: Int, candidates: [CandidateRecord],
    sighted: Set<String> = []
  ) throws(CairnError) {
    try database.write { db in
      guard try Self.value(db, Key.scan) == scan else {
        throw CairnError(.busy, "another scan was recorded during this run; rerun the pipeline")
      }
      try db.execute(sql: "DELETE FROM proposal")
      let insert = try db.cachedStatement(
        sql: """
          INSERT OR REPLACE INTO proposal
          (assetId, checksum, bucket, livePhotoVideoId, sighted) VALUES (?, ?, ?, ?, ?)
          """)
      for candidate in candidates {
        let id = candidate.assetId.lowercased()
        try insert.execute(arguments: [
          id, candidate.checksum, candidate.bucket.rawValue,
          candidate.livePhotoVideoId?.lowercased(), sighted.contains(id),
        ])
      }
      try Self.set(db, Key.reconciledScan, scan)
      try Self.set(db, Key.matched, String(matched))
      try Self.set(db, Key.serverAssets, String(serverAssets))
    }
  }

  /// The proposals of the latest reconciliation, by lower-case asset id (empty when it was not
  /// for the latest scan).
  package func proposals() throws(CairnError) -> [String: Proposal] {
    try database.read { db in
      guard let scan = try Self.value(db, Key.scan), try Self.value(db, Key.reconciledScan) == scan
      else { return [:] }
      var found: [String: Proposal] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT assetId, checksum, bucket, livePhotoVideoId, sighted FROM proposal")
      {
        let proposal = Proposal(
          assetId: row[0], checksum: row[1], bucket: row[2], livePhotoVideoId: row[3],
          sighted: row[4])
        found[proposal.assetId] = proposal
      }
      return found
    }
  }

  /// The Live Photos among `proposals`: both halves proposed.
  package static func livePhotos(among proposals: [String: Proposal]) -> LivePhotoHalves {
    LivePhotoHalves(proposals.values.map { ($0.assetId, $0.checksum, $0.livePhotoVideoId) })
  }

  /// Records that `cairn-gate` passed `plan` for `scan` (with the override a person named),
  /// and the plan's items (`members`: what it trashes and restores), replacing the last pass.
  package func recordGatePass(_ pass: GatePass, members: [CandidateRecord] = [])
    throws(CairnError)
  {
    try database.write { db in
      try Self.set(db, Key.gateScan, pass.scan)
      try Self.set(db, Key.gatePlan, pass.plan)
      try Self.set(db, Key.gateOverride, pass.overrideDigest)
      try Self.set(db, Key.gateThreshold, pass.rails.map { String($0.thresholdPercent) })
      try Self.set(db, Key.gateFloor, pass.rails.map { String($0.floor) })
      try db.execute(sql: "DELETE FROM passedPlan")
      let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO passedPlan VALUES (?, ?, ?)")
      for member in members {
        try insert.execute(arguments: [
          member.assetId.lowercased(), member.checksum, member.bucket.rawValue,
        ])
      }
    }
  }

  /// The items of the plan `cairn-gate` last passed, by lower-case asset id, when that pass
  /// was for the latest scan (empty otherwise).
  package func passedPlan() throws(CairnError) -> [String: Proposal] {
    try database.read { db in
      guard let scan = try Self.value(db, Key.scan), try Self.value(db, Key.gateScan) == scan
      else { return [:] }
      var found: [String: Proposal] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT assetId, checksum, bucket FROM passedPlan") {
        let member = Proposal(assetId: row[0], checksum: row[1], bucket: row[2])
        found[member.assetId] = member
      }
      return found
    }
  }

  /// The plan `cairn-gate` last passed, when it was for the latest scan.
  package func gatePass() throws(CairnError) -> GatePass? {
    try database.read { db in
      guard let scan = try Self.value(db, Key.scan), try Self.value(db, Key.gateScan) == scan,
        let plan = try Self.value(db, Key.gatePlan)
      else { return nil }
      return GatePass(
        scan: scan, plan: plan, overrideDigest: try Self.value(db, Key.gateOverride),
        rails: try Self.gateRails(db))
    }
  }

  /// The latest recorded scan's snapshot: nil when that scan left none (a root was incomplete,
  /// the disk was full) or the file is missing or damaged.
  func latestSnapshot() throws(CairnError) -> ScanSnapshot? {
    let named = try database.read { db -> (String?, ScanSnapshotStore.Row?) in
      (try Self.value(db, Key.scanSnapshot), try ScanSnapshotStore.row(db))
    }
    guard let key = named.0, let record = named.1, key == Self.text(record) else { return nil }
    return snapshots.load(record)
  }

  /// Gives the scan being recorded a new identifier, in the transaction that records it, and
  /// notes which snapshot file it left (`written`; nil when none). Every earlier plan is void.
  static func recordScan(_ db: Database, written: ScanSnapshotStore.FileKey?) throws {
    let bytes = (0..<8).map { _ in UInt8.random(in: 0...255) }
    let id =
      Date().iso8601 + "-" + bytes.map { String(format: "%02x", $0) }.joined()
    try set(db, Key.scan, id)
    let record = written == nil ? nil : try ScanSnapshotStore.row(db)
    try set(db, Key.scanSnapshot, record.map(text))
  }

  private static func text(_ record: ScanSnapshotStore.Row) -> String {
    "\(record.length):\(record.digest):\(record.scannedAt)"
  }

  /// The threshold and floor recorded with the gate's pass, when both were.
  private static func gateRails(_ db: Database) throws -> SafetyRails.Settings? {
    guard let threshold = try value(db, Key.gateThreshold).flatMap({ Double($0) }),
      let floor = try value(db, Key.gateFloor).flatMap({ Int($0) })
    else { return nil }
    return SafetyRails.Settings(thresholdPercent: threshold, floor: floor)
  }

  private static func value(_ db: Database, _ key: String) throws -> String? {
    try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
  }

  private static func set(_ db: Database, _ key: String, _ value: String?) throws {
    if let value {
      try db.execute(
        sql: "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        arguments: [key, value])
    } else {
      try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
    }
  }
}

extension PartitionStore {
  /// The scan binding of this partition (see `ScanBinding`).
  package var binding: ScanBinding { ScanBinding(database, snapshots: snapshots) }
}

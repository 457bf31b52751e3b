import CairnEngine
import CairnJSON
import CairnRecords
import CairnSafety
import CairnSettings
import CairnStream
import CairnTestSupport
import Foundation
import Testing

/// The age window (`CAIRN_MAX_AGE_DAYS`): a gone photo taken more than N days ago is kept
/// (bucket `kept`, reason `age-window`), whatever else the rules said; exactly N days old
/// still goes. The gate keeps it out of the trash and out of review unless a person approves
/// it by id or checksum.
@Suite struct AgeWindowTests {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)
  static let days = 30

  /// Reconciles one gone photo taken `age` seconds before `now`, with the window set.
  static func candidate(
    age: TimeInterval?, favorite: Bool = false, window: Int? = days
  ) throws -> CandidateRecord? {
    let observed = ObservedEntry(
      checksum: "P", roots: ["/lib"], paths: ["/lib/p.jpg"], firstSeen: now, lastSeen: now)
    let asset = AssetRecord(
      id: "p", checksum: "P", originalFileName: "p.jpg", assetType: "IMAGE",
      visibility: "timeline", ownerId: "u",
      fileCreatedAt: age.map { now.addingTimeInterval(-$0) }, isFavorite: favorite)
    var settings = ReconciliationSettings()
    settings.maxAgeDays = window
    let input = ReconciliationInput(
      scan: PlainScan([]), roots: [RootStatus(path: "/lib", complete: true, files: 0)],
      observed: ["P": observed], assets: PlainListing([asset]), settings: settings, now: now)
    let output = try ReconciliationEngine.reconcile(input)
    #expect(output.summary.kept == output.candidates.filter { $0.bucket == .kept }.count)
    return output.candidates.first
  }

  @Test func exactlyTheWindowStillGoes() throws {
    let c = try #require(try Self.candidate(age: TimeInterval(Self.days) * 86_400))
    #expect(c.bucket == .delete)
    #expect(c.reason == "gone")
  }

  @Test func aSecondPastTheWindowIsKept() throws {
    let c = try #require(try Self.candidate(age: TimeInterval(Self.days) * 86_400 + 1))
    #expect(c.bucket == .kept)
    #expect(c.reason == "age-window")
    #expect(c.detail?.contains("more than 30 days ago") == true)
  }

  @Test func theWindowOutranksAFavourite() throws {
    let c = try #require(try Self.candidate(age: 400 * 86_400, favorite: true))
    #expect(c.bucket == .kept)
  }

  @Test func withoutAWindowOrATakenDateAgeDecidesNothing() throws {
    #expect(try Self.candidate(age: 4_000 * 86_400, window: nil)?.bucket == .delete)
    #expect(try Self.candidate(age: nil)?.bucket == .delete)
  }

  @Test func theGateKeepsItUnlessApprovedByIdOrChecksum() throws {
    let kept = try #require(try Self.candidate(age: 400 * 86_400))
    let plain = GatePlan(candidates: [kept], exclusions: [], approvals: [])
    #expect(plain.toTrash.isEmpty && plain.pending.isEmpty && plain.held.isEmpty)
    #expect(plain.kept.map(\.assetId) == ["p"])
    #expect(plain.counts["kept"] == 1)
    let preview = GatePreview.lines(plain, now: Self.now)
    #expect(preview[0].contains("1 kept by the age window"))
    // `all-pending` names the pending bucket only: the window's photos are not waiting.
    #expect(GateDecisions(approve: ["all-pending"]).resolve([kept]).approvals.isEmpty)
    #expect(GateDecisions(approve: ["p"]).resolve([kept]).approvals == ["P"])
    let approved = GatePlan(candidates: [kept], exclusions: [], approvals: ["p"])
    #expect(approved.toTrash.map(\.assetId) == ["p"])
    #expect(approved.kept.isEmpty)
  }

  @Test func theBucketRoundTripsThroughItsRecord() throws {
    let kept = try #require(try Self.candidate(age: 400 * 86_400))
    #expect(try CandidateRecord(JSONObject(parsing: kept.jsonBytes())) == kept)
  }

  @Test func theSettingIsOffUnsetAndRangeChecked() throws {
    let folder = TemporaryDirectory()
    var env = folder.isolatedEnvironment()
    #expect(
      try ReconciliationSettings(
        Configuration.load(environment: env, workingDirectory: folder.path)
      ).maxAgeDays == nil)
    env["CAIRN_MAX_AGE_DAYS"] = "365"
    #expect(
      try ReconciliationSettings(
        Configuration.load(environment: env, workingDirectory: folder.path)
      ).maxAgeDays == 365)
    for bad in ["29", "3651", "a year"] {
      env["CAIRN_MAX_AGE_DAYS"] = bad
      let config = try Configuration.load(environment: env, workingDirectory: folder.path)
      let error = #expect(throws: CairnError.self) { try ReconciliationSettings(config) }
      #expect(error?.status == .configuration)
    }
  }
}

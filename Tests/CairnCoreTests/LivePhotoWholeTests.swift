import CairnEngine
import CairnRecords
import CairnRuns
import CairnSafety
import CairnSettings
import Foundation
import Testing

/// A Live Photo is decided whole: whatever makes one half wait makes the other wait
/// with it, a motion video whose still stays waits for a person, an approval of one half
/// approves both, and a motion video never goes to the trash without its still.
///
/// The library: a still `S` (`s`, linked to `v`) and its hidden motion video `V`, both observed
/// under `/lib` and gone unless a row scans them.
@Suite struct LivePhotoWholeTests {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var scanned: [String] = []
    var inAlbum = false
    var favourite = false
    /// Days since each half was taken (nil: no taken date).
    var stillAge: Int? = 1
    var videoAge: Int? = 1
    var window: Int? = nil
    /// Checksums whose deletion a trash recorded just now (so in quarantine).
    var confirmed: [String] = []
    var exclusions: Set<String> = []
    /// asset id → bucket and reason.
    var expected: [String: Expected]

    var testDescription: String { name }
  }

  struct Expected: Equatable, Sendable, CustomStringConvertible {
    var bucket: Bucket
    var reason: String
    var description: String { "\(bucket.rawValue)/\(reason)" }
  }

  static let rows: [Row] = [
    Row(
      name: "deleted whole and protected by nothing, both go",
      expected: [
        "s": .init(bucket: .delete, reason: "gone"), "v": .init(bucket: .delete, reason: "gone"),
      ]),
    Row(
      name: "a still in an album keeps its motion video waiting",
      inAlbum: true,
      expected: [
        "s": .init(bucket: .pending, reason: "in-album"),
        "v": .init(bucket: .pending, reason: "in-album"),
      ]),
    Row(
      name: "a favourite still keeps its motion video waiting",
      favourite: true,
      expected: [
        "s": .init(bucket: .pending, reason: "favorite"),
        "v": .init(bucket: .pending, reason: "favorite"),
      ]),
    Row(
      name: "the age window keeps the video of a still it keeps",
      stillAge: 400, videoAge: nil, window: 30,
      expected: [
        "s": .init(bucket: .kept, reason: "age-window"),
        "v": .init(bucket: .kept, reason: "age-window"),
      ]),
    Row(
      name: "a still in quarantine holds its motion video",
      confirmed: ["S"],
      expected: [
        "s": .init(bucket: .held, reason: "quarantine"),
        "v": .init(bucket: .held, reason: "quarantine"),
      ]),
    Row(
      name: "a motion video in quarantine holds its still",
      confirmed: ["V"],
      expected: [
        "s": .init(bucket: .held, reason: "quarantine"),
        "v": .init(bucket: .held, reason: "quarantine"),
      ]),
    Row(
      name: "a quarantine outranks an album, for both halves",
      inAlbum: true, confirmed: ["V"],
      expected: [
        "s": .init(bucket: .held, reason: "quarantine"),
        "v": .init(bucket: .held, reason: "quarantine"),
      ]),
    Row(
      name: "a motion video whose still is in the library waits for a person",
      scanned: ["S"],
      expected: ["v": .init(bucket: .pending, reason: "live-still-kept")]),
    Row(
      name: "a motion video whose still is excluded waits for a person",
      exclusions: ["S"],
      expected: ["v": .init(bucket: .pending, reason: "live-still-kept")]),
  ]

  @Test(arguments: rows)
  func row(_ row: Row) throws {
    let output = try ReconciliationEngine.reconcile(Self.input(row))
    var found: [String: Expected] = [:]
    for c in output.candidates { found[c.assetId] = Expected(bucket: c.bucket, reason: c.reason) }
    #expect(found == row.expected)
  }

  @Test func aHeldPairWaitsUntilBothQuarantinesEnd() throws {
    var row = Self.rows[0]
    row.confirmed = ["S"]
    var input = Self.input(row)
    input.confirmations["V"] = DeletionConfirmation(
      checksum: "V", confirmedAt: Self.now.addingTimeInterval(86_400), source: "freedesktop")
    let candidates = try ReconciliationEngine.reconcile(input).candidates
    let eligible = Set(candidates.compactMap(\.eligibleAt))
    #expect(eligible.count == 1)
    #expect(eligible.first == Self.now.addingTimeInterval(15 * 86_400))
  }

  @Test func theWaitingMotionHalfSaysWhy() throws {
    var row = Self.rows[1]
    row.name = "album"
    let candidates = try ReconciliationEngine.reconcile(Self.input(row)).candidates
    let video = try #require(candidates.first { $0.assetId == "v" })
    #expect(video.detail?.contains("it waits with its still s.jpg (in-album)") == true)
    let lone = try ReconciliationEngine.reconcile(Self.input(Self.rows[7])).candidates
    #expect(
      lone.first?.detail?.contains("motion video of s.jpg, which stays on the server") == true)
  }

  // MARK: The gate and the trash plan

  static func pair(_ bucket: Bucket, reason: String = "in-album") -> [CandidateRecord] {
    [
      CandidateRecord(
        assetId: "s", checksum: "S", bucket: bucket, reason: reason, originalFileName: "s.jpg",
        assetType: "IMAGE", visibility: "timeline", ownerId: "u", livePhotoVideoId: "v",
        livePhotoVideoChecksum: "V"),
      CandidateRecord(
        assetId: "v", checksum: "V", bucket: bucket, reason: reason, originalFileName: "v.mov",
        assetType: "VIDEO", visibility: "hidden", ownerId: "u"),
    ]
  }

  @Test(arguments: [Bucket.pending, .held, .kept])
  func anApprovalOfEitherHalfApprovesBoth(_ bucket: Bucket) {
    for approval in ["s", "S", "v", "V"] {
      let plan = GatePlan(candidates: Self.pair(bucket), exclusions: [], approvals: [approval])
      #expect(Set(plan.toTrash.map(\.assetId)) == ["s", "v"], "\(approval)")
      #expect(plan.pending.isEmpty && plan.held.isEmpty && plan.kept.isEmpty)
    }
    let none = GatePlan(candidates: Self.pair(bucket), exclusions: [], approvals: [])
    #expect(none.toTrash.isEmpty)
  }

  @Test func aStillExcludedSinceTheStreamKeepsItsVideoWaiting() {
    let waiting = GatePlan(candidates: Self.pair(.pending), exclusions: ["S"], approvals: ["S"])
    #expect(waiting.excluded.map(\.assetId) == ["s"])
    #expect(waiting.toTrash.isEmpty)
    #expect(waiting.pending.map(\.assetId) == ["v"])
    let deleting = GatePlan(candidates: Self.pair(.delete), exclusions: ["S"], approvals: [])
    #expect(deleting.toTrash.isEmpty)
    #expect(deleting.pending.map(\.reason) == ["live-still-kept"])
  }

  @Test func keepingEitherHalfKeepsTheLivePhotoWhole() {
    let still = GateDecisions(exclude: ["s"]).resolve(Self.pair(.pending))
    #expect(Set(still.exclusions) == ["S", "V"])
    let video = GateDecisions(exclude: ["V"]).resolve(Self.pair(.pending))
    #expect(Set(video.exclusions) == ["S", "V"])
    let approval = GateDecisions(approve: ["s"]).resolve(Self.pair(.pending))
    #expect(approval.approvals == ["S"])
  }

  @Test func aMotionVideoGoesInItsStillsUnitOrNotAtAll() {
    let both = TrashPlan(
      candidates: Array(Self.pair(.delete).reversed()), userID: "u", inTrash: [:],
      stillOf: ["v": "s"])
    #expect(both.units.map(\.ids) == [["s", "v"]])
    #expect(both.assetCount == 2 && both.skipped.isEmpty)

    let videoOnly = [Self.pair(.delete)[1]]
    let alone = TrashPlan(candidates: videoOnly, userID: "u", inTrash: [:], stillOf: ["v": "s"])
    #expect(alone.units.isEmpty)
    #expect(alone.skipped.first?.reason.contains("a Live Photo goes whole") == true)

    let stillTrashed = TrashPlan(
      candidates: videoOnly, userID: "u", inTrash: ["s": "RUN-1"], stillOf: ["v": "s"])
    #expect(stillTrashed.units.map(\.ids) == [["v"]])
  }

  // MARK: Helpers

  static func input(_ row: Row) -> ReconciliationInput {
    func taken(_ days: Int?) -> Date? {
      days.map { now.addingTimeInterval(-TimeInterval($0) * 86_400) }
    }
    var still = AssetRecord(
      id: "s", checksum: "S", originalFileName: "s.jpg", assetType: "IMAGE",
      visibility: "timeline", livePhotoVideoId: "v", ownerId: "u",
      fileCreatedAt: taken(row.stillAge), isFavorite: row.favourite)
    still.inAlbum = row.inAlbum
    let video = AssetRecord(
      id: "v", checksum: "V", originalFileName: "v.mov", assetType: "VIDEO",
      visibility: "hidden", ownerId: "u", fileCreatedAt: taken(row.videoAge))
    let files = row.scanned.map { checksum in
      ScannedFile(
        root: "/lib", path: "/lib/\(checksum)", checksum: checksum,
        identity: FileIdentity(key: "1:\(checksum)"))
    }
    var observed: [String: ObservedEntry] = [:]
    for checksum in ["S", "V"] {
      observed[checksum] = ObservedEntry(
        checksum: checksum, roots: ["/lib"], paths: ["/lib/\(checksum)"], firstSeen: now,
        lastSeen: now)
    }
    var confirmations: [String: DeletionConfirmation] = [:]
    for checksum in row.confirmed {
      confirmations[checksum] = DeletionConfirmation(
        checksum: checksum, confirmedAt: now, source: "freedesktop")
    }
    var settings = ReconciliationSettings()
    settings.maxAgeDays = row.window
    return ReconciliationInput(
      scan: PlainScan(files),
      roots: [RootStatus(path: "/lib", complete: true, files: files.count)],
      observed: observed, confirmations: confirmations, exclusions: row.exclusions,
      assets: PlainListing([still, video]), settings: settings, now: now)
  }
}

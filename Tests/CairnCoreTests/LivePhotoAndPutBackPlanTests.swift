import CairnRecords
import CairnRuns
import CairnSafety
import Foundation
import Testing

/// The acting stages' own rules: which motion video a trash plan sends, what the gate does with
/// a video excluded after the stream was made and with restores, and what a put-back restores.
@Suite struct LivePhotoAndPutBackPlanTests {
  func still(
    _ bucket: Bucket = .delete, videoChecksum: String? = "V", kept: Bool? = nil,
    owner: String = "me"
  ) -> CandidateRecord {
    CandidateRecord(
      assetId: "s", checksum: "S", bucket: bucket, reason: "gone", ownerId: owner,
      livePhotoVideoId: "v", livePhotoVideoChecksum: videoChecksum, livePhotoVideoKept: kept)
  }

  struct VideoCase: Sendable, CustomTestStringConvertible {
    var name: String
    var candidate: CandidateRecord
    var excluded: Set<String> = []
    var inLibrary: Set<String> = []
    var sent: Bool
    var testDescription: String { name }
  }

  static let videoCases: [VideoCase] = {
    let base = LivePhotoAndPutBackPlanTests()
    return [
      VideoCase(name: "a gone video goes", candidate: base.still(), sent: true),
      VideoCase(
        name: "a video marked kept stays", candidate: base.still(kept: true), sent: false),
      VideoCase(
        name: "a video whose checksum is unknown stays",
        candidate: base.still(videoChecksum: nil), sent: false),
      VideoCase(
        name: "an excluded video stays", candidate: base.still(), excluded: ["V"], sent: false),
      VideoCase(
        name: "a video in the library stays, whatever the stream says",
        candidate: base.still(), inLibrary: ["V"], sent: false),
    ]
  }()

  @Test(arguments: videoCases)
  func theTrashPlanSendsAVideoOnlyWhenItMayGo(_ c: VideoCase) {
    let plan = TrashPlan(
      candidates: [c.candidate], userID: "me", inTrash: [:], excluded: c.excluded,
      inLibrary: { c.inLibrary.contains($0) })
    #expect(plan.units.map(\.assetID) == ["s"])
    #expect(plan.units.first?.videoID == (c.sent ? "v" : nil))
    #expect(plan.journalAssets.map(\.id) == (c.sent ? ["s", "v"] : ["s"]))
  }

  @Test func restoresAreNeverTrashed() {
    let plan = TrashPlan(candidates: [still(.restore)], userID: "me", inTrash: [:])
    #expect(plan.units.isEmpty && plan.skipped.isEmpty)
  }

  @Test func theGateKeepsAVideoExcludedSinceAndPassesRestoresUncounted() {
    let restore = CandidateRecord(
      assetId: "r", checksum: "R", bucket: .restore, reason: "put-back", ownerId: "me")
    let plan = GatePlan(
      candidates: [still(), restore], exclusions: ["V", "R"], approvals: [])
    #expect(plan.toTrash.isEmpty)
    #expect(plan.pending.map(\.reason) == ["live-video-kept"])
    #expect(plan.pending.first?.livePhotoVideoKept == true)
    #expect(plan.toRestore.map(\.assetId) == ["r"])
    #expect(plan.counts["candidates"] == 0 && plan.counts["restore"] == 1)
    #expect(plan.digest == PlanDigest.of([restore]))
    let approved = GatePlan(candidates: [still()], exclusions: ["V"], approvals: ["S"])
    #expect(approved.toTrash.map(\.livePhotoVideoKept) == [true])
  }

  @Test func aPutBackRestoresOnlyWhatACairnRunTrashedAndTheLibraryHolds() {
    func restore(_ id: String, _ checksum: String, owner: String = "me", video: String? = nil)
      -> CandidateRecord
    {
      CandidateRecord(
        assetId: id, checksum: checksum, bucket: .restore, reason: "put-back", ownerId: owner,
        livePhotoVideoId: video)
    }
    let plan = PutBackPlan(
      candidates: [
        restore("s", "S", video: "v"), restore("p", "P"), restore("q", "Q"),
        restore("o", "O", owner: "partner"), restore("n", "N"),
        still(),  // not a restore: not the put-back's
      ],
      userID: "me", inTrash: ["s": "R1", "v": "R1", "p": "R2", "o": "R1", "n": "R3"],
      inLibrary: { ["S", "P", "O"].contains($0) })
    #expect(
      plan.targets
        == [
          RestoreRun.Target(id: "s", runID: "R1", checksum: "S"),
          RestoreRun.Target(id: "v", runID: "R1", livePhotoVideo: true),
          RestoreRun.Target(id: "p", runID: "R2", checksum: "P"),
        ])
    #expect(plan.skipped.map(\.candidate.assetId) == ["q", "o", "n"])
  }
}

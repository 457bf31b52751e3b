import CairnRecords
import CairnSafety
import Foundation
import Testing

struct GatePlanTests {
  func c(_ id: String, _ bucket: Bucket, confirmed: Date? = nil, eligible: Date? = nil)
    -> CandidateRecord
  {
    CandidateRecord(
      assetId: id, checksum: "sum-\(id)", bucket: bucket, reason: "gone",
      originalFileName: "\(id).jpg", confirmedAt: confirmed, eligibleAt: eligible)
  }

  @Test func deleteBucketPlusApprovedPendingIsThePlan() {
    let plan = GatePlan(
      candidates: [c("a", .delete), c("b", .pending), c("c", .pending), c("d", .held)],
      exclusions: [], approvals: ["sum-b"])
    #expect(plan.toTrash.map(\.assetId) == ["a", "b"])
    #expect(plan.pending.map(\.assetId) == ["c"])
    #expect(plan.held.map(\.assetId) == ["d"])
    #expect(plan.digest == PlanDigest.of([c("a", .delete), c("b", .pending)]))
  }

  @Test func theShapedDigestIsTheDigestOfTheStreamReconciledAfterTheExclusions() {
    var still = c("S", .delete)
    still.livePhotoVideoId = "V"
    still.livePhotoVideoChecksum = "sum-V"
    let video = c("V", .delete)
    let other = c("O", .delete)
    let before = [still, video, other, c("P", .pending)]
    // What cairn-reconcile proposes once the motion video is excluded: no video, and the still
    // kept for review because its video stays.
    var kept = still
    kept.bucket = .pending
    kept.reason = "live-video-kept"
    kept.livePhotoVideoKept = true
    let after = [kept, other, c("P", .pending)]
    let shaped = GatePlan.shapedDigest(before, exclusions: ["sum-V"])
    #expect(shaped == GatePlan.shapedDigest(after, exclusions: ["sum-V"]))
    #expect(shaped == PlanDigest.of(after))
    #expect(shaped != PlanDigest.of(before))
    // Approvals do not shape it; another exclusion does.
    #expect(shaped != GatePlan.shapedDigest(before, exclusions: ["sum-V", "sum-O"]))
  }

  @Test func exclusionsWinOverEverything() {
    let plan = GatePlan(
      candidates: [c("a", .delete), c("b", .pending)], exclusions: ["sum-a", "sum-b"],
      approvals: ["sum-b"])
    #expect(plan.toTrash.isEmpty)
    #expect(plan.excluded.count == 2)
  }

  @Test func decisionsResolveIdsChecksumsAndKeywords() {
    let candidates = [c("A", .pending), c("b", .pending), c("h", .held), c("d", .delete)]
    let resolved = GateDecisions(approve: ["all-pending", "a", "nonsense"], exclude: ["sum-d"])
      .resolve(candidates)
    #expect(Set(resolved.approvals) == ["sum-A", "sum-b"])
    #expect(resolved.exclusions == ["sum-d"])
    #expect(resolved.unmatched == ["nonsense"])
  }

  @Test func fiftyConfirmedAtOnceAreABurstWithOneCommandToExcludeThem() throws {
    let t = Date(timeIntervalSince1970: 1_800_000_000)
    var candidates = (0..<50).map {
      c("b\($0)", .held, confirmed: t.addingTimeInterval(Double($0)))
    }
    candidates.append(c("lone", .held, confirmed: t.addingTimeInterval(86_400)))
    let plan = GatePlan(candidates: candidates, exclusions: [], approvals: [])
    #expect(plan.burst.count == 50)
    let preview = GatePreview.lines(plan, now: t)
    #expect(preview.contains { $0.contains("cairn-gate --exclude burst") })
    let resolved = GateDecisions(exclude: ["burst"]).resolve(candidates)
    #expect(resolved.exclusions.count == 50)
    #expect(!resolved.exclusions.contains("sum-lone"))
  }

  @Test func fortyNineIsNoBurst() {
    let t = Date(timeIntervalSince1970: 1_800_000_000)
    let candidates = (0..<49).map { c("b\($0)", .held, confirmed: t) }
    #expect(GatePlan(candidates: candidates, exclusions: [], approvals: []).burst.isEmpty)
  }

  @Test func previewShowsNamesDatesAndEligibility() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var held = c("h", .held, eligible: now.addingTimeInterval(3 * 86_400 - 60))
    held.fileCreatedAt = Date(timeIntervalSince1970: 1_700_000_000)
    let plan = GatePlan(candidates: [c("a", .delete), held], exclusions: [], approvals: [])
    let text = GatePreview.lines(plan, now: now).joined(separator: "\n")
    #expect(text.contains("1 to trash"))
    #expect(text.contains("a.jpg"))
    #expect(text.contains("h.jpg  2023-11-14"))
    #expect(text.contains("eligible in 3 days"))
  }
}

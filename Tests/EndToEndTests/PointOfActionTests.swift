import CairnRecords
import CairnSafety
import CairnState
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Plans that lie, replayed plans and plans from an older scan, fed to the real binaries: the
/// stage that acts checks every item against the partition's state and re-runs the gate's
/// rails, and a refusal sends nothing that changes the server.
@Suite(.serialized)
struct PointOfActionTests {
  /// A cairn-gate-shaped stream, its digest computed the way `PlanDigest` computes it.
  func gateStream(_ f: ActFixture, _ candidates: [CandidateRecord], scan: String?) -> String {
    var lines = [
      HeaderRecord(
        tool: "cairn-gate", pipeline: ["cairn-hash", "cairn-reconcile", "cairn-gate"],
        roots: ["/photos"], server: ServerIdentity(url: f.apiBase, userId: f.me.id), scan: scan
      ).jsonString()
    ]
    lines += candidates.map { $0.jsonString() }
    lines.append(
      EndRecord(
        tool: "cairn-gate", complete: true, errors: 0,
        counts: ["candidates": candidates.count, "matched": 1000, "serverAssets": 1000],
        roots: [RootStatus(path: "/photos", complete: true, files: 900)],
        plan: PlanDigest.of(candidates)
      ).jsonString())
    return StreamText.counted(lines.joined(separator: "\n") + "\n")
  }

  /// The first run on a partition is a dry run whatever the flags: get it out of the way.
  func reviewFirstRun(_ f: ActFixture) async throws {
    let dry = try await f.gateAndTrash(try f.reconcileStream([f.candidate(f.photos[3])]))
    #expect(dry.status == 0, "\(dry.stderr)")
  }

  func expectRefusedUntouched(_ f: ActFixture, _ result: ToolResult, _ words: String) {
    #expect(result.status == 25, "\(result.stderr)")
    #expect(result.stderr.contains(words), "\(result.stderr)")
    #expect(f.mutations.isEmpty, "\(f.mutations.map(\.path))")
    #expect(f.server.state.trashedAssetIDs.isEmpty)
  }

  @Test func aHandMadePlanForNeverLocalAssetsIsRefused() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    let before = try f.journal().entries.count
    // Straight to cairn-trash: no gate passed this plan.
    let scan = try f.latestScan()
    let direct = try await f.shell(
      "setsid cairn-trash --yes",
      stdin: gateStream(f, [f.candidate(f.neverLocal)], scan: scan))
    expectRefusedUntouched(f, direct, "refused by the gate-pass rail")
    // Through cairn-gate, beside a real candidate of the latest scan: the gate passes it (it
    // has only the stream to go on), cairn-trash checks it against the state.
    _ = try f.reconcileStream([f.candidate(f.photos[1])])
    let forged = try f.reconcileStream(
      [f.candidate(f.photos[1]), f.candidate(f.neverLocal)], reconciled: false)
    let result = try await f.gateAndTrash(forged)
    expectRefusedUntouched(f, result, "refused by the point-of-action rail")
    #expect(result.stderr.contains("NEVER_LOCAL.JPG: not a candidate cairn-reconcile computed"))
    #expect(result.stderr.contains("rerun the whole pipeline"))
    // A never-local asset passed off under a gone photo's checksum: the asset id gives it away.
    var disguised = f.candidate(f.neverLocal)
    disguised.checksum = f.photos[1].checksum
    let swapped = try await f.gateAndTrash(try f.reconcileStream([disguised], reconciled: false))
    expectRefusedUntouched(f, swapped, "refused by the point-of-action rail")
    #expect(try f.journal().entries.count == before, "a refusal journals nothing")
  }

  @Test func aMotionVideoNamedByTheStreamIsNotTheOneSent() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    _ = try f.reconcileStream([f.candidate(f.photos[1])])
    // The plan digest does not cover the video: a stream can name any asset as one.
    var smuggler = f.candidate(f.photos[1])
    smuggler.livePhotoVideoId = f.neverLocal.id
    let result = try await f.gateAndTrash(try f.reconcileStream([smuggler], reconciled: false))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(f.isTrashed(f.photos[1]))
    #expect(!f.isTrashed(f.neverLocal))
    #expect(f.tagValues(f.neverLocal).isEmpty)
  }

  @Test func aPendingCandidatePassedOffAsADeletionIsRefused() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    _ = try f.reconcileStream([f.candidate(f.photos[1], .pending)])
    let claimed = try f.reconcileStream([f.candidate(f.photos[1], .delete)], reconciled: false)
    let result = try await f.gateAndTrash(claimed)
    expectRefusedUntouched(f, result, "put it in the pending bucket and nobody approved it")
  }

  @Test func aPlanReplayedAfterTheLibraryChangedIsRefused() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    let saved = try f.reconcileStream([f.candidate(f.photos[1])])
    let planPath = f.dir.path + "/plan.ndjson"
    let input = try f.write("saved.ndjson", saved)
    let gate = try await f.shell("cairn-gate -q < '\(input)' > '\(planPath)'")
    #expect(gate.status == 0, "\(gate.stderr)")
    // The photo is put back and the library scanned again.
    try f.recordScan(without: [])
    let replayed = try await f.shell("cairn-gate -q < '\(input)'")
    expectRefusedUntouched(f, replayed, "refused by the scan rail: the plan was made from an older")
    // Nothing but the abort record that carries the refusal down the pipe.
    #expect(try replayed.records().map { $0["type"] as? String } == ["abort"])
    let trash = try await f.shell("setsid cairn-trash --yes < '\(planPath)'")
    expectRefusedUntouched(f, trash, "refused by the scan rail: the plan was made from an older")
  }

  @Test func aPlanOlderThanTheLastScanIsRefusedEvenWhenNothingChanged() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    let saved = try f.reconcileStream([f.candidate(f.photos[1])])
    let planPath = f.dir.path + "/plan.ndjson"
    let gate = try await f.shell(
      "cairn-gate -q < '\(try f.write("saved.ndjson", saved))' > '\(planPath)'")
    #expect(gate.status == 0, "\(gate.stderr)")
    try f.recordScan(without: [f.photos[1].checksum])  // the same library, scanned again
    let trash = try await f.shell("setsid cairn-trash --yes < '\(planPath)'")
    expectRefusedUntouched(f, trash, "older scan")
    // A plan that names no scan at all (an older cairn's, or one written by hand).
    let unbound = try await f.shell(
      "setsid cairn-trash --yes", stdin: gateStream(f, [f.candidate(f.photos[1])], scan: nil))
    expectRefusedUntouched(f, unbound, "names no scan")
  }

  @Test func aChecksumPresentInTheLatestScanIsNeverTrashed() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    // A proposal for a photo the latest scan holds (as a faulty reconciliation would leave).
    let scan = try #require(try f.recordScan(without: []))
    try f.withState { store in
      try store.binding.recordReconciliation(
        scan: scan, matched: 1000, serverAssets: 1000, candidates: [f.candidate(f.photos[1])])
    }
    let stream = try f.write(
      "present.ndjson",
      try f.reconcileStream([f.candidate(f.photos[1])], reconciled: false))
    let result = try await f.shell("cairn-gate -q < '\(stream)' | setsid cairn-trash --yes")
    expectRefusedUntouched(f, result, "it is present in the latest scan")
  }

  @Test func theThresholdIsRerunWithTheOverrideTheGateAccepted() async throws {
    let f = try await ActFixture(photoCount: 8)
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    let six = f.photos.prefix(6).map { f.candidate($0) }
    let input = try f.write("six.ndjson", try f.reconcileStream(six, matched: 100))
    // A gate told the threshold is 100% lets six of 100 through; the trash stage, with the
    // partition's own threshold (1%), does not.
    let loose = try await f.shell(
      "CAIRN_THRESHOLD_PERCENT=100 cairn-gate -q < '\(input)' | setsid cairn-trash --yes")
    expectRefusedUntouched(f, loose, "refused by the threshold rail")
    // The override a person gave the gate reaches cairn-trash through the state.
    let digest = PlanDigest.of(six)
    let approved = try await f.shell(
      "cairn-gate -q --override-threshold \(digest) < '\(input)' | setsid cairn-trash --yes")
    #expect(approved.status == 0, "\(approved.stderr)")
    #expect(f.server.state.trashedAssetIDs.count == 6)
  }

  @Test func theEmptyServerRailIsRerunFromTheStateAtTheMomentOfAction() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    let planPath = f.dir.path + "/plan.ndjson"
    let input = try f.write("one.ndjson", try f.reconcileStream([f.candidate(f.photos[1])]))
    let gate = try await f.shell("cairn-gate -q < '\(input)' > '\(planPath)'")
    #expect(gate.status == 0, "\(gate.stderr)")
    // Between the gate and the trash stage, the state learns that the listing was empty.
    try f.withState { store in
      let scan = try #require(try store.binding.latestScan())
      try store.binding.recordReconciliation(
        scan: scan, matched: 0, serverAssets: 0, candidates: [f.candidate(f.photos[1])])
    }
    let trash = try await f.shell("setsid cairn-trash --yes < '\(planPath)'")
    expectRefusedUntouched(f, trash, "refused by the empty-server rail")
  }

  @Test func restoreFromAStreamItCannotVerifyChangesNothing() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewFirstRun(f)
    let real = try await f.gateAndTrash(try f.reconcileStream([f.candidate(f.photos[1])]))
    #expect(real.status == 0, "\(real.stderr)")
    let before = f.mutations.count
    let result = ResultRecord(assetId: f.photos[1].id, action: "trashed")
    let header = HeaderRecord(tool: "cairn-trash").jsonString()
    let cut = [header, result.jsonString()].joined(separator: "\n") + "\n"
    let truncated = try await f.shell("cairn-restore", stdin: cut)
    #expect(truncated.status == 65, "\(truncated.stderr)")
    let incomplete =
      cut + EndRecord(tool: "cairn-trash", complete: false, errors: 1).jsonString() + "\n"
    let refused = try await f.shell("cairn-restore", stdin: StreamText.counted(incomplete))
    #expect(refused.status == 25, "\(refused.stderr)")
    #expect(f.mutations.count == before)
    #expect(f.isTrashed(f.photos[1]))
  }
}

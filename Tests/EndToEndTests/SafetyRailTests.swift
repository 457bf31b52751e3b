import CairnRecords
import CairnSafety
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Every rail tripped once through the real binaries: the refusal names the rail, exits 25, and
/// the server sees no mutating request.
@Suite(.serialized)
struct SafetyRailTests {
  /// Runs the first (dry) run so the next one would really trash, then clears the log.
  func reviewed(_ f: ActFixture) async throws {
    _ = try await f.gateAndTrash(f.reconcileStream([f.candidate(f.photos[3])]))
    f.server.log.clear()
  }

  func expectRefused(_ result: ToolResult, _ rail: String, _ f: ActFixture) {
    #expect(result.status == 25, "\(result.stderr)")
    #expect(result.stderr.contains("refused by the \(rail) rail"), "\(result.stderr)")
    #expect(f.mutations.isEmpty)
    #expect(f.server.state.trashedAssetIDs.isEmpty)
  }

  @Test func aStreamWithoutItsEndRecord() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewed(f)
    let input = try f.write(
      "reconcile-cut.ndjson", f.reconcileStream([f.candidate(f.photos[0])], end: false))
    let gate = try await f.shell("cairn-gate < '\(input)'")
    expectRefused(gate, "incomplete-stream", f)
    #expect(gate.onlyAbort?["tool"] as? String == "cairn-gate")
    // Even a pipeline that ignores the gate's status can't trash: cairn-trash gets no plan.
    let piped = try await f.gateAndTrash(f.reconcileStream([f.candidate(f.photos[0])], end: false))
    #expect(piped.status != 0)
    #expect(f.mutations.isEmpty)
  }

  @Test func aStreamCarryingErrors() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewed(f)
    let stream = try f.reconcileStream(
      [f.candidate(f.photos[0])],
      errors: [ErrorRecord(tool: "cairn-hash", message: "Permission denied", path: "/photos/x.jpg")]
    )
    let input = try f.write("reconcile-err.ndjson", stream)
    expectRefused(try await f.shell("cairn-gate < '\(input)'"), "error-records", f)
  }

  @Test(arguments: [
    RootStatus(path: "/photos", complete: true, files: 0, problem: "empty"),
    RootStatus(path: "/photos", complete: false, files: 0, problem: "No such file or directory"),
  ])
  func anEmptyOrVanishedRoot(_ root: RootStatus) async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewed(f)
    let input = try f.write(
      "reconcile-root.ndjson", f.reconcileStream([f.candidate(f.photos[0])], roots: [root]))
    expectRefused(try await f.shell("cairn-gate < '\(input)'"), "root", f)
  }

  @Test func overTheThresholdAndOnlyTheNamedPlanOverrides() async throws {
    let f = try await ActFixture(photoCount: 8)
    defer { Task { await f.stop() } }
    try await reviewed(f)
    // 6 candidates of 100 matched: 6% > 1%, and 6 >= the floor of 5.
    let stream = try f.reconcileStream(f.photos.prefix(6).map { f.candidate($0) }, matched: 100)
    let input = try f.write("reconcile-many.ndjson", stream)
    let refused = try await f.shell("cairn-gate < '\(input)'")
    expectRefused(refused, "threshold", f)
    let digest = try #require(
      refused.stderr.split(separator: " ").last.map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
      })
    #expect(PlanDigest.isWellFormed(digest))

    let wrong = String(repeating: "0", count: 64)
    expectRefused(
      try await f.shell("cairn-gate --override-threshold \(wrong) < '\(input)'"), "threshold", f)

    let passed = try await f.shell(
      "cairn-gate -q --override-threshold \(digest) < '\(input)' | setsid cairn-trash --yes")
    #expect(passed.status == 0, "\(passed.stderr)")
    #expect(f.server.state.trashedAssetIDs == Set(f.photos.prefix(6).map(\.id)))
  }

  /// `--threshold` and `--floor` set the threshold rail for one cairn-gate run, either way,
  /// and cairn-trash re-runs the rail as the gate ran it (not with the configuration's).
  @Test func theGatesThresholdFlagsOverrideTheConfigurationForOneRun() async throws {
    let f = try await ActFixture(photoCount: 8)
    defer { Task { await f.stop() } }
    try await reviewed(f)
    // 6 candidates of 100 matched: 6% is over the configured 1%, within a given 10%.
    let many = try f.write(
      "reconcile-many.ndjson",
      try f.reconcileStream(f.photos.prefix(6).map { f.candidate($0) }, matched: 100))
    expectRefused(try await f.shell("cairn-gate < '\(many)'"), "threshold", f)
    let looser = try await f.shell(
      "cairn-gate -q --threshold 10 < '\(many)' | setsid cairn-trash --yes")
    #expect(looser.status == 0, "\(looser.stderr)")
    #expect(f.server.state.trashedAssetIDs == Set(f.photos.prefix(6).map(\.id)))
  }

  @Test func aStricterThresholdFlagRefusesWhatTheConfigurationPasses() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewed(f)
    // One candidate of 1000 matched is under the configured floor of 5; with no floor and a
    // threshold of 0.05% (half an asset) it is too many.
    let one = try f.write("reconcile-one.ndjson", f.reconcileStream([f.candidate(f.photos[0])]))
    expectRefused(
      try await f.shell("cairn-gate --floor 0 --threshold 0.05 < '\(one)'"), "threshold", f)
    // A flag's value is checked with the setting's own rule, before any decision is stored.
    let invalid = try await f.shell("cairn-gate --threshold 150% --exclude all-pending < '\(one)'")
    #expect(invalid.status == 78, "\(invalid.stderr)")
    #expect(invalid.stderr.contains("--threshold 150% is not a percentage from 0 to 100"))
    let passed = try await f.shell("cairn-gate -q < '\(one)' | setsid cairn-trash --yes")
    #expect(passed.status == 0, "\(passed.stderr)")
    #expect(f.server.state.trashedAssetIDs == [f.photos[0].id])
  }

  @Test func anEmptyServerAfterAFullOne() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let full = try f.write(
      "reconcile-full.ndjson", f.reconcileStream([], matched: 900, serverAssets: 950))
    #expect(try await f.shell("cairn-gate -q < '\(full)'").status == 0)
    let empty = try f.write(
      "reconcile-empty.ndjson", f.reconcileStream([], matched: 0, serverAssets: 0))
    expectRefused(try await f.shell("cairn-gate < '\(empty)'"), "empty-server", f)
  }

  @Test func trashDisabledOnTheServer() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewed(f)
    f.server.state.setTrash(enabled: false)
    let result = try await f.gateAndTrash(f.reconcileStream([f.candidate(f.photos[0])]))
    expectRefused(result, "trash-disabled", f)
  }

  @Test func anEditedPlanDoesNotMatchItsDigest() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewed(f)
    let input = try f.write("reconcile-one.ndjson", f.reconcileStream([f.candidate(f.photos[0])]))
    let gate = try await f.shell("cairn-gate -q < '\(input)'")
    #expect(gate.status == 0)
    // Someone slips another asset into the approved plan: the end record's count tells.
    var lines = gate.lines
    lines.insert(f.candidate(f.photos[1]).jsonString(), at: 1)
    let slipped = try f.write("plan-slipped.ndjson", lines.joined(separator: "\n") + "\n")
    let miscounted = try await f.shell("setsid cairn-trash --yes < '\(slipped)'")
    #expect(miscounted.status == 65, "\(miscounted.stderr)")
    #expect(f.mutations.isEmpty)
    // And one who mends the count too meets the plan's digest.
    let last = lines.count - 1
    lines[last] = lines[last].replacingOccurrences(
      of: #""candidate":1"#, with: #""candidate":2"#)
    let edited = try f.write("plan-edited.ndjson", lines.joined(separator: "\n") + "\n")
    expectRefused(try await f.shell("setsid cairn-trash --yes < '\(edited)'"), "plan-digest", f)
  }

  @Test func partnerAndLockedCandidatesAreNeverSent() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    try await reviewed(f)
    let result = try await f.gateAndTrash(
      try f.reconcileStream([f.candidate(f.partnerPhoto), f.candidate(f.photos[0])]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!f.isTrashed(f.partnerPhoto))
    #expect(f.isTrashed(f.photos[0]))
    let skipped = try result.records(ofType: "result").filter {
      $0["action"] as? String == "skipped"
    }
    #expect(skipped.compactMap { $0["assetId"] as? String } == [f.partnerPhoto.id])
  }
}

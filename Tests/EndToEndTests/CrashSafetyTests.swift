import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A kill while the server still holds a slow DELETE, an immediate rerun (and one whose own
/// tagging then fails), and answers that say 2xx but changed nothing: nothing is sent twice,
/// nothing ends in the trash without its run tag and a journal entry, and nothing is journalled
/// as moved that the server did not move.
@Suite(.serialized)
struct CrashSafetyTests {
  /// The plan of `assets` through cairn-gate, saved; the first (dry) run already made.
  func savedPlan(_ f: ActFixture, _ assets: [Scenario.Asset]) async throws -> String {
    let stream = try f.reconcileStream(assets.map { f.candidate($0) }, matched: 10_000)
    let dry = try await f.gateAndTrash(stream)
    #expect(dry.status == 0, "\(dry.stderr)")
    let planPath = f.dir.path + "/plan.ndjson"
    let gate = try await f.shell(
      "cairn-gate -q < '\(try f.write("reconcile.ndjson", stream))' > '\(planPath)'")
    #expect(gate.status == 0, "\(gate.stderr)")
    return planPath
  }

  /// How many DELETE /api/assets requests named `id`, whatever their answer.
  func deletes(_ f: ActFixture, _ id: String) -> Int {
    f.server.log.requests(method: "DELETE", path: "/api/assets").filter { $0.body.contains(id) }
      .count
  }

  /// Waits until the server has answered the DELETE it held (the request log records a
  /// request once answered): only then has every DELETE that will ever arrive arrived.
  func awaitHeldDelete(_ f: ActFixture) async throws {
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline,
      !f.server.log.requests(method: "DELETE", path: "/api/assets").contains(where: {
        $0.fault == "delay"
      })
    {
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  func runTags(_ f: ActFixture, _ asset: Scenario.Asset) -> Set<String> {
    f.tagValues(asset).filter { $0.hasPrefix("cairn/v1/run/") }
  }

  /// Starts cairn-trash on `plan`, waits until its journal says a DELETE is being sent, then
  /// SIGKILLs it: the request is still in the server's hands.
  func killWhileDeleting(_ f: ActFixture, plan: String, batchSize: Int) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/cairn-trash")
    process.arguments = ["--yes", "--batch-size", String(batchSize), "-q"]
    process.environment = f.environment
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: plan))
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline,
      (try? f.journal().entries.contains { $0.event == .sending }) != true
    {
      Thread.sleep(forTimeInterval: 0.02)
    }
    Thread.sleep(forTimeInterval: 0.2)
    #expect(process.isRunning, "cairn-trash ended before it could be killed mid-DELETE")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  @Test func aKillDuringASlowDeleteAndAnImmediateRerunSendNoSecondDelete() async throws {
    let f = try await ActFixture(photoCount: 3)
    defer { Task { await f.stop() } }
    let assets = [f.live.still] + f.photos
    let intended = assets + [f.live.video]
    let plan = try await savedPlan(f, assets)
    f.server.faults.inject(
      Fault(method: "DELETE", path: "/api/assets", count: 1, action: .delay(seconds: 8)))
    try await ActFixture.offPool { try self.killWhileDeleting(f, plan: plan, batchSize: 1000) }
    // The DELETE is held longer than a loaded machine takes to start the rerun, and the rerun
    // waits longer than that for its outcome.
    let rerun = try await f.shell("CAIRN_SETTLE_WAIT=30 setsid cairn-trash --yes < '\(plan)'")
    #expect(rerun.status == 0, "\(rerun.stderr)")
    #expect(rerun.stderr.contains("may still be in the server's hands"), "\(rerun.stderr)")
    try await awaitHeldDelete(f)
    for asset in intended {
      #expect(f.isTrashed(asset), "\(asset.originalFileName) not in the trash")
      #expect(deletes(f, asset.id) == 1, "\(asset.originalFileName): \(deletes(f, asset.id))")
      #expect(runTags(f, asset).count == 1, "\(asset.originalFileName) lost its run tag")
    }
    let runs = try f.journal().runs.filter { !$0.reviewedOnly }
    #expect(runs.allSatisfy { !$0.isUnfinished })
    #expect(
      runs.reduce(into: Set<String>()) { $0.formUnion($1.inTrash) } == Set(intended.map(\.id)))
  }

  @Test func aRerunWhoseTaggingFailsLeavesNothingTrashedUntaggedOrUnjournalled() async throws {
    let f = try await ActFixture(photoCount: 2)
    defer { Task { await f.stop() } }
    let assets = [f.live.still] + f.photos
    let intended = assets + [f.live.video]
    let plan = try await savedPlan(f, assets)
    // The first batch (the Live Photo's two halves) is held by a slow DELETE when the run dies.
    f.server.faults.inject(
      Fault(method: "DELETE", path: "/api/assets", count: 1, action: .delay(seconds: 3)))
    try await ActFixture.offPool { try self.killWhileDeleting(f, plan: plan, batchSize: 2) }
    f.server.faults.inject(
      Fault(
        method: "PUT", path: "/api/tags/assets", count: 1,
        action: .status(500, body: #"{"message":"boom"}"#)))
    let failed = try await f.shell("setsid cairn-trash --yes --batch-size 2 < '\(plan)'")
    #expect(failed.status == 69, "\(failed.stderr)")
    try await awaitHeldDelete(f)
    let journalled = try f.journal().runs.reduce(into: Set<String>()) { $0.formUnion($1.inTrash) }
    for id in f.server.state.trashedAssetIDs {
      let asset = try #require(intended.first { $0.id == id })
      #expect(runTags(f, asset).count == 1, "\(asset.originalFileName) is trashed untagged")
      #expect(journalled.contains(id), "\(asset.originalFileName) is trashed unjournalled")
    }
    #expect(f.isTrashed(f.live.still) && f.isTrashed(f.live.video))
    // The next run finishes the plan; still nothing is sent twice.
    let last = try await f.shell("setsid cairn-trash --yes --batch-size 2 < '\(plan)'")
    #expect(last.status == 0, "\(last.stderr)")
    for asset in intended {
      #expect(f.isTrashed(asset))
      #expect(deletes(f, asset.id) == 1, "\(asset.originalFileName): \(deletes(f, asset.id))")
      #expect(runTags(f, asset).count == 1)
    }
  }

  @Test func aDeleteAnsweredButNotAppliedIsNotJournalledAsTrashed() async throws {
    let f = try await ActFixture(photoCount: 2)
    defer { Task { await f.stop() } }
    let plan = try await savedPlan(f, f.photos)
    // Immich #30237: 204, and nothing moved.
    f.server.faults.inject(
      Fault(method: "DELETE", path: "/api/assets", count: 1, action: .status(204, body: "")))
    let first = try await f.shell("setsid cairn-trash --yes < '\(plan)'")
    #expect(first.status == 1, "\(first.stderr)")
    #expect(first.stdout.contains("Immich #30237"))
    #expect(f.server.state.trashedAssetIDs.isEmpty)
    let runs = try f.journal().runs.filter { !$0.reviewedOnly }
    #expect(runs.allSatisfy { $0.inTrash.isEmpty })
    for photo in f.photos { #expect(runTags(f, photo).isEmpty, "tagged but active") }
    // Not skipped for ever: the next run trashes them.
    let rerun = try await f.shell("setsid cairn-trash --yes < '\(plan)'")
    #expect(rerun.status == 0, "\(rerun.stderr)")
    for photo in f.photos { #expect(f.isTrashed(photo)) }
  }

  @Test func aRestoreAnsweredButNotAppliedIsNotJournalledAsRestored() async throws {
    let f = try await ActFixture(photoCount: 1)
    defer { Task { await f.stop() } }
    let plan = try await savedPlan(f, f.photos)
    let trashed = try await f.shell("setsid cairn-trash --yes < '\(plan)'")
    #expect(trashed.status == 0, "\(trashed.stderr)")
    f.server.faults.inject(
      Fault(
        method: "POST", path: "/api/trash/restore/assets", count: 1,
        action: .status(200, body: #"{"count":1}"#)))
    let restore = try await f.shell("cairn-restore --asset-id \(f.photos[0].id)")
    #expect(restore.status == 1, "\(restore.stderr)")
    #expect(f.isTrashed(f.photos[0]))
    #expect(try f.journal().runs.allSatisfy { $0.restored.isEmpty })
  }
}

import CairnRecords
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A person's decisions at the gate, and interrupting a run.
@Suite(.serialized)
struct GateDecisionTests {
  @Test func pendingItemsPassOnlyOnceApprovedAndExclusionsHoldForGood() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let pending = [f.candidate(f.photos[0], .pending), f.candidate(f.photos[1], .pending)]
    let stream = try f.reconcileStream(pending + [f.candidate(f.photos[2])])
    let input = try f.write("reconcile-pending.ndjson", stream)

    let plain = try await f.shell("cairn-gate < '\(input)'")
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(
      try plain.records(ofType: "candidate").compactMap { $0["assetId"] as? String } == [
        f.photos[2].id
      ])
    #expect(plain.stderr.contains("pending review"))
    #expect(plain.stderr.contains(f.photos[0].originalFileName))

    let approved = try await f.shell(
      "cairn-gate -q --approve all-pending --exclude \(f.photos[1].id) < '\(input)'")
    #expect(approved.status == 0, "\(approved.stderr)")
    #expect(
      Set(try approved.records(ofType: "candidate").compactMap { $0["assetId"] as? String })
        == [f.photos[0].id, f.photos[2].id])

    // Both decisions were stored: a plain run now gives the same plan.
    let later = try await f.shell("cairn-gate -q < '\(input)'")
    let end = try #require(try later.records(ofType: "end").first)
    #expect(
      end["plan"] as? String == (try approved.records(ofType: "end").first?["plan"] as? String))
    #expect((end["counts"] as? [String: Int])?["excluded"] == 1)
    #expect(f.mutations.isEmpty)
  }

  @Test func aBurstOfConfirmedDeletionsIsCalledOutWithOneCommandToKeepThemAll() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let confirmed = Date()
    let burst = (0..<60).map { i in
      CandidateRecord(
        assetId: UUID().uuidString.lowercased(), checksum: "burst-\(i)", bucket: .held,
        reason: "quarantine", originalFileName: "OFFLOAD_\(i).JPG", ownerId: f.me.id,
        confirmedAt: confirmed, eligibleAt: confirmed.addingTimeInterval(14 * 86_400))
    }
    let input = try f.write("reconcile-burst.ndjson", f.reconcileStream(burst, matched: 100_000))
    let gate = try await f.shell("cairn-gate < '\(input)'")
    #expect(gate.status == 0)
    #expect(gate.stderr.contains("60 deletions were confirmed at once"))
    #expect(gate.stderr.contains("cairn-gate --exclude burst"))
    #expect(gate.stderr.contains("eligible in 14 days"))
    let excluded = try await f.shell("cairn-gate -q --exclude burst < '\(input)'")
    let counts = try #require(
      try excluded.records(ofType: "end").first?["counts"] as? [String: Int])
    #expect(counts["excluded"] == 60 && counts["held"] == 0)
  }

  @Test func sigintStopsAfterTheBatchInFlightJournalsAndExits130() async throws {
    let f = try await ActFixture(photoCount: 10)
    defer { Task { await f.stop() } }
    let stream = try f.reconcileStream(f.photos.map { f.candidate($0) }, matched: 10_000)
    _ = try await f.gateAndTrash(stream)  // first run: dry
    let input = try f.write("reconcile-int.ndjson", stream)
    let planPath = f.dir.path + "/plan.ndjson"
    _ = try await f.shell("cairn-gate -q < '\(input)' > '\(planPath)'")
    f.server.faults.inject(Fault(path: "/api/**", count: 10_000, action: .delay(seconds: 0.15)))
    let environment = f.environment
    let server = f.server
    let status = try await ActFixture.offPool { () -> Int32 in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/cairn-trash")
      process.arguments = ["--yes", "--batch-size", "2", "-q"]
      process.environment = environment
      process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: planPath))
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      // Interrupt mid-run, not before the tool is up: wait for its first trash request (a
      // fixed sleep raced process start-up on a loaded machine).
      let deadline = Date().addingTimeInterval(60)
      while server.log.requests(method: "DELETE", path: "/api/assets").isEmpty, Date() < deadline {
        Thread.sleep(forTimeInterval: 0.05)
      }
      process.interrupt()
      process.waitUntilExit()
      return process.terminationStatus
    }
    f.server.faults.clear()
    #expect(status == 130)
    let run = try #require(try f.journal().runs.first { !$0.reviewedOnly })
    #expect(run.completed && run.interrupted)
    let trashed = f.server.state.trashedAssetIDs
    #expect(!trashed.isEmpty && trashed.count < f.photos.count)
    #expect(run.trashed == trashed)
    // Nothing was left tagged but not trashed.
    let tagged = Set(f.photos.map(\.id).filter { !f.server.state.tagIDs(onAsset: $0).isEmpty })
    #expect(tagged == trashed)
  }
}

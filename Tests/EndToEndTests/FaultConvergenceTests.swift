import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Failures in the middle of a run: a 500 or a dropped connection on each mutating request, and
/// the process killed at random moments. Rerunning must converge on: everything intended
/// trashed exactly once, tagged and journalled; nothing else touched.
@Suite(.serialized)
struct FaultConvergenceTests {
  static let faultyPaths = [
    ("PUT", "/api/tags"), ("PUT", "/api/tags/assets"), ("DELETE", "/api/assets"),
  ]

  struct Case: Sendable, CustomTestStringConvertible {
    var method: String
    var path: String
    var reset: Bool
    var testDescription: String { "\(method) \(path) \(reset ? "reset" : "500")" }
  }

  static let cases: [Case] = faultyPaths.flatMap { method, path in
    [Case(method: method, path: path, reset: false), Case(method: method, path: path, reset: true)]
  }

  /// The stills and photos the plan trashes, and every asset id that must end in the trash.
  func plan(_ f: ActFixture) throws -> (stream: String, intended: Set<String>) {
    let assets = [f.live.still] + f.photos
    let stream = try f.reconcileStream(assets.map { f.candidate($0) }, matched: 10_000)
    return (stream, Set(assets.map(\.id) + [f.live.video.id]))
  }

  func expectConverged(_ f: ActFixture, _ intended: Set<String>) throws {
    #expect(f.server.state.trashedAssetIDs == intended)
    for id in intended {
      let runTags = f.server.state.tagIDs(onAsset: id).compactMap { tag in
        f.server.state.tags.first { $0.id == tag && $0.value.hasPrefix("cairn/v1/run/") }
      }
      #expect(runTags.count == 1, "\(id) carries \(runTags.count) run tags")
    }
    // Each id was in exactly one DELETE the server answered with success.
    var deletes: [String: Int] = [:]
    for request in f.server.log.requests(method: "DELETE", path: "/api/assets")
    where request.status == 204 {
      for id in intended where request.body.contains(id) { deletes[id, default: 0] += 1 }
    }
    #expect(deletes.values.allSatisfy { $0 == 1 } && deletes.count == intended.count, "\(deletes)")
    let runs = try f.journal().runs.filter { !$0.reviewedOnly }
    #expect(runs.allSatisfy { !$0.isUnfinished })
    #expect(runs.reduce(into: Set<String>()) { $0.formUnion($1.inTrash) } == intended)
  }

  @Test(arguments: cases, ImmichVersion.allCases)
  func aFailedRequestConvergesOnRerun(_ c: Case, _ version: ImmichVersion) async throws {
    let f = try await ActFixture(version: version, photoCount: 5)
    defer { Task { await f.stop() } }
    let (stream, intended) = try plan(f)
    _ = try await f.gateAndTrash(stream)  // first run: dry
    let action: Fault.Action = c.reset ? .reset : .status(500, body: #"{"message":"boom"}"#)
    f.server.faults.inject(Fault(method: c.method, path: c.path, count: 1, action: action))
    let failed = try await f.gateAndTrash(stream, trash: "--yes --batch-size 3")
    #expect(failed.status == 69, "\(failed.stderr)")
    // Nothing in the trash without its tag, whatever the fault hit.
    for id in f.server.state.trashedAssetIDs {
      #expect(!f.server.state.tagIDs(onAsset: id).isEmpty)
    }
    let rerun = try await f.gateAndTrash(stream, trash: "--yes --batch-size 3")
    #expect(rerun.status == 0, "\(rerun.stderr)")
    try expectConverged(f, intended)
    #expect(!f.isTrashed(f.neverLocal) && !f.isTrashed(f.partnerPhoto))
  }

  @Test func killedAtRandomMomentsRerunsConverge() async throws {
    var generator = SystemRandomNumberGenerator()
    let deadline = Date().addingTimeInterval(90)
    var trials = 0
    var killedRunning = 0
    while trials < 12 && Date() < deadline {
      trials += 1
      let f = try await ActFixture(photoCount: 12)
      let (stream, intended) = try plan(f)
      _ = try await f.gateAndTrash(stream)  // first run: dry
      let input = try f.write("reconcile-kill.ndjson", stream)
      let planPath = f.dir.path + "/plan.ndjson"
      let gate = try await f.shell("cairn-gate -q < '\(input)' > '\(planPath)'")
      #expect(gate.status == 0, "\(gate.stderr)")
      // Slow every request a little so kills land between and inside steps.
      f.server.faults.inject(Fault(path: "/api/**", count: 10_000, action: .delay(seconds: 0.01)))
      let delay = Double(Int.random(in: 0...400, using: &generator)) / 1000
      if try await ActFixture.offPool({ try self.killTrash(f, plan: planPath, after: delay) }) {
        killedRunning += 1
      }
      f.server.faults.clear()
      var attempts = 0
      var last: ToolResult?
      repeat {
        attempts += 1
        last = try await f.shell("setsid cairn-trash --yes --batch-size 2 < '\(planPath)'")
      } while last?.status != 0 && attempts < 3
      #expect(last?.status == 0, "trial \(trials): \(last?.stderr ?? "")")
      try expectConverged(f, intended)
      await f.stop()
    }
    #expect(trials >= 3)
    // Most kills land while cairn-trash runs (not before it starts or after it ends).
    #expect(killedRunning >= 1)
  }

  /// Starts cairn-trash on `plan` and SIGKILLs it after `delay` seconds; true when it was still
  /// running then.
  func killTrash(_ f: ActFixture, plan: String, after delay: Double) throws -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/cairn-trash")
    process.arguments = ["--yes", "--batch-size", "2", "-q"]
    process.environment = f.environment
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: plan))
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    Thread.sleep(forTimeInterval: delay)
    let running = process.isRunning
    if running { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return running && process.terminationReason == .uncaughtSignal
  }
}

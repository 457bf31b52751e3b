import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// `cairn-gate --threshold` through the whole pipeline and real files: it lets through a plan
/// the configured threshold refuses, for that run only, and `cairn-trash` acts on it.
@Suite(.serialized)
struct GateThresholdPipelineTests {
  @Test func aHigherThresholdOnTheGateLetsThroughWhatTheConfigurationRefuses() async throws {
    let dir = TemporaryDirectory("cairn-gate-threshold")
    let library = dir.path + "/Photos"
    func bytes(_ name: String) -> [UInt8] { Array("cairn threshold bytes of \(name)\n".utf8) }
    let names = (1...6).map { "p\($0).jpg" }
    var scenario = Scenario()
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    var byName: [String: Scenario.Asset] = [:]
    for name in names {
      try dir.file("Photos/\(name)", contents: bytes(name))
      byName[name] = scenario.addAsset(
        owner: me, fileName: name, checksum: Scenario.checksum(of: bytes(name)))
    }
    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    defer { Task { await server.stop() } }
    let env = dir.isolatedEnvironment([
      "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
    ])
    func pipeline(gate: String = "") async throws -> ToolResult {
      try await ActFixture.offPool {
        try ToolRunner.shell(
          "cairn-hash '\(library)' | cairn-reconcile | cairn-gate \(gate) | setsid cairn-trash --yes",
          environment: env, workingDirectory: dir.path)
      }
    }
    #expect(try await pipeline().status == 0)

    // Five of six gone: 83% of the matched assets, over the configured 1% and at the floor.
    let gone = names.prefix(5)
    for name in gone { try FileManager.default.removeItem(atPath: library + "/" + name) }
    let refused = try await pipeline()
    #expect(refused.status == 25, "\(refused.stderr)")
    #expect(refused.stderr.contains("refused by the threshold rail"), "\(refused.stderr)")
    #expect(server.log.mutating.isEmpty)

    // The gate's own flag, for this run: the first run with candidates is a dry run, the next
    // trashes, and cairn-trash re-runs the rail with the threshold the gate was given.
    let dry = try await pipeline(gate: "--threshold 90")
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(server.log.mutating.isEmpty)
    let real = try await pipeline(gate: "--threshold 90")
    #expect(real.status == 0, "\(real.stderr)")
    #expect(server.state.trashedAssetIDs == Set(gone.compactMap { byName[$0]?.id }))
  }
}

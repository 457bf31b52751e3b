import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A replayed plan, with real files and every real stage: a saved `cairn-reconcile` output
/// (and the gate's plan from it), fed on after the photo was put back and scanned again.
@Suite(.serialized)
struct ReplayedPlanTests {
  @Test func aSavedPlanFedOnAfterThePhotoCameBackTrashesNothing() async throws {
    let dir = TemporaryDirectory("cairn-replay")
    let library = dir.path + "/Photos"
    func bytes(_ name: String) -> [UInt8] { Array("cairn replay bytes of \(name)\n".utf8) }
    let names = ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg"]
    for name in names { try dir.file("Photos/\(name)", contents: bytes(name)) }
    var scenario = Scenario(version: .v3_1)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    for name in names {
      scenario.addAsset(
        owner: me, fileName: name, checksum: Scenario.checksum(of: bytes(name)))
    }
    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    defer { Task { await server.stop() } }
    let env = dir.isolatedEnvironment([
      "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
    ])
    func shell(_ script: String) async throws -> ToolResult {
      try await ActFixture.offPool {
        try ToolRunner.shell(script, environment: env, workingDirectory: dir.path)
      }
    }

    let seed = try await shell(
      "cairn-hash '\(library)' | cairn-reconcile | cairn-gate -q | setsid cairn-trash --yes")
    #expect(seed.status == 0, "\(seed.stderr)")
    // b.jpg is deleted; the reconciliation and the gate's plan are saved, and the first run
    // with a candidate (a dry run) is made from them.
    try FileManager.default.removeItem(atPath: library + "/b.jpg")
    let saved = try await shell(
      "cairn-hash '\(library)' | cairn-reconcile > saved.ndjson && cairn-gate -q < saved.ndjson "
        + "> plan.ndjson && setsid cairn-trash --yes < plan.ndjson")
    #expect(saved.status == 0, "\(saved.stderr)")
    #expect(saved.stderr.contains("dry run"), "\(saved.stderr)")
    // The photo is put back and the library scanned again.
    try dir.file("Photos/b.jpg", contents: bytes("b.jpg"))
    let rescan = try await shell("cairn-hash '\(library)' | cairn-observe --no-trash > /dev/null")
    #expect(rescan.status == 0, "\(rescan.stderr)")
    server.log.clear()

    let replayed = try await shell("cairn-gate -q < saved.ndjson")
    #expect(replayed.status == 25, "\(replayed.stderr)")
    #expect(replayed.stderr.contains("made from an older scan"), "\(replayed.stderr)")
    let plan = try await shell("setsid cairn-trash --yes < plan.ndjson")
    #expect(plan.status == 25, "\(plan.stderr)")
    #expect(plan.stderr.contains("refused by the scan rail"), "\(plan.stderr)")
    #expect(server.log.mutating.isEmpty)
    #expect(server.state.trashedAssetIDs.isEmpty)
    // The pipeline run afresh finds nothing gone.
    let fresh = try await shell(
      "cairn-hash '\(library)' | cairn-reconcile | cairn-gate -q | setsid cairn-trash --yes")
    #expect(fresh.status == 0, "\(fresh.stderr)")
    #expect(server.state.trashedAssetIDs.isEmpty)
  }
}

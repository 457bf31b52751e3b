import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The whole story through every tool and real files:
/// `cairn-hash LIB | cairn-reconcile | cairn-gate | cairn-trash`, then cairn-restore.
@Suite(.serialized)
struct FullPipelineTests {
  @Test(arguments: ImmichVersion.allCases)
  func deletedFilesAreTrashedOnTheSecondRunWithCandidatesAndRestoredByRun(_ version: ImmichVersion)
    async throws
  {
    let dir = TemporaryDirectory("cairn-full")
    let library = dir.path + "/Photos"
    func bytes(_ name: String) -> [UInt8] { Array("cairn test bytes of \(name)\n".utf8) }
    let names = ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "IMG_1.HEIC", "IMG_1.MOV"]
    for name in names { try dir.file("Photos/\(name)", contents: bytes(name)) }

    var scenario = Scenario(version: version)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    let (partner, _) = scenario.addUser(email: "partner@example.com")
    scenario.addPartner(sharing: partner, with: me)
    var byName: [String: Scenario.Asset] = [:]
    let video = Scenario.Asset(
      ownerId: me.id, checksum: Scenario.checksum(of: bytes("IMG_1.MOV")),
      originalFileName: "IMG_1.MOV", type: .video, visibility: .hidden, durationMs: 2000)
    let still = Scenario.Asset(
      ownerId: me.id, checksum: Scenario.checksum(of: bytes("IMG_1.HEIC")),
      originalFileName: "IMG_1.HEIC", livePhotoVideoId: video.id)
    scenario.assets += [video, still]
    byName["IMG_1.MOV"] = video
    byName["IMG_1.HEIC"] = still
    for name in names where byName[name] == nil {
      byName[name] = scenario.addAsset(
        owner: me, fileName: name, checksum: Scenario.checksum(of: bytes(name)))
    }
    let neverLocal = scenario.addAsset(owner: me, fileName: "server-only.jpg")
    let partnerCopy = scenario.addAsset(
      owner: partner, fileName: "b.jpg", checksum: Scenario.checksum(of: bytes("b.jpg")))
    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    defer { Task { await server.stop() } }
    let env = dir.isolatedEnvironment([
      "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
    ])
    func pipeline() async throws -> ToolResult {
      try await ActFixture.offPool {
        try ToolRunner.shell(
          "cairn-hash '\(library)' | cairn-reconcile | cairn-gate | setsid cairn-trash --yes",
          environment: env, workingDirectory: dir.path)
      }
    }

    // 1. The first run seeds the observed store and trashes nothing.
    let seed = try await pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    #expect(server.log.mutating.isEmpty)

    // 2. Files deleted locally: the first run with candidates is a dry run.
    for name in ["b.jpg", "IMG_1.HEIC", "IMG_1.MOV"] {
      try FileManager.default.removeItem(atPath: library + "/" + name)
    }
    let dry = try await pipeline()
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("dry run"))
    #expect(server.log.mutating.isEmpty)

    // 3. The next run trashes exactly those assets, tagged and journalled.
    let real = try await pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    let gone: Set<String> = [try #require(byName["b.jpg"]).id, still.id, video.id]
    #expect(server.state.trashedAssetIDs == gone)
    for id in gone {
      #expect(server.state.tagIDs(onAsset: id).count == 1)
    }
    #expect(server.state.asset(neverLocal.id)?.isTrashed == false)
    #expect(server.state.asset(partnerCopy.id)?.isTrashed == false)
    let runID = try #require(try real.records(ofType: "end").first?["runId"] as? String)

    // 4. Restore by run brings them back; the next run leaves them alone.
    let restore = try await ActFixture.offPool {
      try ToolRunner.run("cairn-restore", ["--run-id", runID], environment: env)
    }
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(server.state.trashedAssetIDs.isEmpty, "\(restore.stdout)\n\(restore.stderr)")
    server.log.clear()
    let after = try await pipeline()
    #expect(after.status == 0, "\(after.stderr)")
    #expect(server.log.mutating.isEmpty)
  }
}

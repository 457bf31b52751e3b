import Foundation
import ImmichTestServer
import Testing

/// The example in docs/TESTSERVER.md, kept compiling and true.
@Suite struct DocumentationExampleTests {
  @Test func readmeExampleWorks() async throws {
    var scenario = Scenario(version: .v3_1)
    let (alice, key) = scenario.addUser(
      email: "alice@example.com", permissions: Permission.cairnNeeds)
    let bob = scenario.addUser(email: "bob@example.com").user
    scenario.addPartner(sharing: bob, with: alice)
    let photo = scenario.addAsset(owner: alice, fileName: "IMG_0001.JPG")
    let (still, video) = scenario.addLivePhoto(owner: alice, baseName: "IMG_0002")

    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    // stop() must run on every path: on failure too.
    do {
      let client = TestClient(base: url)
      let reply = try await client.delete(
        "/api/assets", ["ids": [.string(photo.id), .string(still.id)]], as: .key(key.secret))
      #expect(reply.status == 204)
      #expect(server.state.trashedAssetIDs == [photo.id, still.id])
      #expect(server.state.asset(video.id)?.isTrashed == false)
      #expect(server.log.mutating.map(\.path) == ["/api/assets"])

      server.faults.inject(Fault(method: "DELETE", path: "/api/assets", action: .status(503)))
      let failed = try await client.delete("/api/assets", ["ids": []], as: .key(key.secret))
      #expect(failed.status == 503)

      let session = server.state.createSession(userID: alice.id)
      let stream = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(session.token))
      #expect(stream.lines.count == 4)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
    await server.stop()
    #expect(server.baseURL == nil)
  }

  @Test func knownChecksumHeaderShortCutsTheUpload() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let reply = try await client.send(
        .POST, "/api/assets", as: .key(w.aliceKey),
        headers: [("x-immich-checksum", w.newest.checksum)],
        raw: (Array("--x--\r\n".utf8), "multipart/form-data; boundary=x"))
      #expect(reply.status == 200)
      #expect(reply.json == ["id": .string(w.newest.id), "status": "duplicate"])
      #expect(server.state.assetCount == 10)
    }
  }

  /// The second example: external-library assets and the purge job.
  @Test func libraryAndPurgeExampleWorks() async throws {
    var scenario = Scenario(version: .v3_1)
    let (alice, key) = scenario.addUser(email: "alice@example.com")
    let libraryID = "0c6a3e1f-8b2d-4e7a-9f10-2b3c4d5e6f70"
    let (still, video) = scenario.addLivePhoto(owner: alice, baseName: "IMG_0002")
    let shelf = scenario.addAsset(owner: alice, fileName: "IMG_0003.JPG", libraryId: libraryID)
    let gone = scenario.addAsset(
      owner: alice, fileName: "IMG_0004.JPG", libraryId: libraryID, isOffline: true)
    #expect(shelf.checksum == Scenario.pathChecksum(of: "/mnt/library/IMG_0003.JPG"))
    try await ImmichTestServer.withRunning(scenario) { server, url in
      #expect(server.state.asset(gone.id)?.status == .active)
      #expect(server.state.asset(gone.id)?.isTrashed == true)
      let reply = try await TestClient(base: url).delete(
        "/api/assets", ["ids": [.string(still.id)], "force": true], as: .key(key.secret))
      #expect(reply.status == 204)
      #expect(server.state.pendingPurgeIDs == [still.id])
      server.state.runQueuedJobs()
      #expect(server.state.asset(still.id) == nil)
      #expect(server.state.asset(video.id) == nil)
    }
  }
}

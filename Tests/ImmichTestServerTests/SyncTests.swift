import Foundation
import ImmichTestServer
import Testing

@Suite struct SyncTests {
  func stream(
    _ client: TestClient, _ token: String, _ types: ImmichJSON = ["AssetsV2"], reset: Bool? = nil
  )
    async throws -> HTTPReply
  {
    var body: [(String, ImmichJSON)] = [("types", types)]
    if let reset { body.append(("reset", .bool(reset))) }
    return try await client.post("/api/sync/stream", .object(body), as: .bearer(token))
  }

  func ackAll(_ client: TestClient, _ token: String, _ lines: [ImmichJSON]) async throws {
    let acks = lines.compactMap { $0["ack"] }
    let reply = try await client.post("/api/sync/ack", ["acks": .array(acks)], as: .bearer(token))
    #expect(reply.status == 204)
  }

  @Test(arguments: ImmichVersion.allCases)
  func apiKeysAreRefusedAfterThePermissionCheck(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let types: ImmichJSON = version != .v2_7 ? ["AssetsV2"] : ["AssetsV1"]
      let refused = try await client.post(
        "/api/sync/stream", ["types": types], as: .key(w.aliceKey))
      #expect(refused.status == 403)
      #expect(refused.json?["message"] == "Sync endpoints cannot be used with API keys")
      let acks = try await client.get("/api/sync/ack", as: .key(w.aliceKey))
      #expect(acks.status == 403)
      #expect(acks.json?["message"] == "Sync endpoints cannot be used with API keys")
      let bare = try await client.post("/api/sync/stream", ["types": types], as: .key(w.bareKey))
      #expect(bare.json?["message"] == "Missing required permission: sync.stream")
    }
  }

  /// Every own asset (trashed, hidden, locked too), nobody else's, in updateId order, then
  /// SyncCompleteV1; after acking, only SyncCompleteV1.
  @Test func firstSyncSendsOwnAssetsThenComplete() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let reply = try await stream(client, token)
      #expect(reply.status == 200)
      #expect(reply.header("content-type") == "application/jsonlines+json")
      let lines = reply.lines
      let assets = lines.dropLast()
      #expect(assets.allSatisfy { $0["type"] == "AssetV2" })
      let own = [w.oldest, w.trashed, w.locked, w.liveVideo, w.liveStill, w.archived, w.newest]
      #expect(Set(assets.compactMap { $0["data"]?["id"]?.stringValue }) == Set(own.map(\.id)))
      let acks = assets.compactMap { $0["ack"]?.stringValue }
      #expect(acks == acks.sorted())
      #expect(acks.allSatisfy { $0.hasPrefix("AssetV2|") })
      let last = try #require(lines.last)
      #expect(last["type"] == "SyncCompleteV1")
      #expect(last["data"] == [:])
      #expect(last["ack"]?.stringValue?.hasPrefix("SyncCompleteV1|") == true)
      let trashed = try #require(assets.first { $0["data"]?["id"]?.stringValue == w.trashed.id })
      #expect(trashed["data"]?["deletedAt"]?.stringValue != nil)
      #expect(trashed["data"]?["checksum"]?.stringValue == w.trashed.checksum)
      #expect(trashed["data"]?["createdAt"] != nil)

      try await ackAll(client, token, lines)
      let next = try await stream(client, token).lines
      #expect(next.map { $0["type"] } == ["SyncCompleteV1"])
    }
  }

  /// Deletes come first, as AssetDeleteV1; trash and restore are upserts with `deletedAt`.
  @Test func changesArriveAsDeletesThenUpserts() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      try await ackAll(client, token, try await stream(client, token).lines)
      _ = try await client.delete(
        "/api/assets", ["ids": [.string(w.newest.id)]], as: .key(w.aliceKey))
      server.state.hardDelete([w.oldest.id])
      _ = try await client.post(
        "/api/trash/restore/assets", ["ids": [.string(w.trashed.id)]], as: .key(w.aliceKey))
      let lines = try await stream(client, token).lines
      #expect(
        lines.map { $0["type"]?.stringValue ?? "" } == [
          "AssetDeleteV1", "AssetV2", "AssetV2", "SyncCompleteV1",
        ])
      #expect(lines[0]["data"] == ["assetId": .string(w.oldest.id)])
      #expect(lines[1]["data"]?["id"]?.stringValue == w.newest.id)
      #expect(lines[1]["data"]?["deletedAt"]?.stringValue != nil)
      #expect(lines[2]["data"]?["id"]?.stringValue == w.trashed.id)
      #expect(lines[2]["data"]?["deletedAt"] == .null)
    }
  }

  @Test func v3RejectsAssetsV1WithTheDeprecationMessage() async throws {
    try await withWorld(.v3_1) { _, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let reply = try await stream(client, token, ["AssetsV1"])
      #expect(reply.status == 400)
      #expect(
        reply.json == [
          "message": "SyncRequestType.AssetsV1 is deprecated, use SyncRequestType.AssetsV2 instead"
        ])
    }
  }

  /// v2.7 speaks AssetsV1 → AssetV1: text duration, no createdAt; AssetsV2 does not exist yet.
  @Test func v2StreamsAssetV1() async throws {
    try await withWorld(.v2_7) { w, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let lines = try await stream(client, token, ["AssetsV1"]).lines
      let video = try #require(lines.first { $0["data"]?["id"]?.stringValue == w.liveVideo.id })
      #expect(video["type"] == "AssetV1")
      #expect(video["data"]?["duration"] == "0:00:02.50000")
      #expect(video["data"]?["createdAt"] == nil)
      #expect(lines.last?["type"] == "SyncCompleteV1")
      #expect(try await stream(client, token, ["AssetsV2"]).status == 400)
    }
  }

  @Test(arguments: ["pending", "stale"])
  func resetIsTheOnlyLineUntilCleared(cause: String) async throws {
    try await withWorld(.v3_1) { _, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let session = try #require(server.state.sessions.first?.id)
      try await ackAll(client, token, try await stream(client, token).lines)
      if cause == "pending" {
        server.state.setPendingSyncReset(sessionID: session)
      } else {
        server.state.advanceClock(by: 29 * 86_400)
        #expect(try await stream(client, token).lines.map { $0["type"] } == ["SyncCompleteV1"])
        server.state.advanceClock(by: 2 * 86_400)
      }
      let reset = try await stream(client, token).lines
      #expect(reset == [["type": "SyncResetV1", "data": [:], "ack": "SyncResetV1|reset"]])
      #expect(try await stream(client, token).lines.count == 1)
      let fresh = try await stream(client, token, reset: true).lines
      #expect(fresh.count == 8)
      #expect(server.state.sessions.first?.isPendingSyncReset == false)
    }
  }

  @Test func ackingTheResetClearsCheckpointsAndTheFlag() async throws {
    try await withWorld(.v3_1) { _, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      try await ackAll(client, token, try await stream(client, token).lines)
      let session = try #require(server.state.sessions.first?.id)
      server.state.setPendingSyncReset(sessionID: session)
      let reply = try await client.post(
        "/api/sync/ack", ["acks": ["SyncResetV1|reset"]], as: .bearer(token))
      #expect(reply.status == 204)
      #expect(server.state.sessions.first?.checkpoints == [:])
      #expect(server.state.sessions.first?.isPendingSyncReset == false)
      #expect(try await stream(client, token).lines.count == 8)
    }
  }

  @Test func acksArePerSessionLastWinsAndValidated() async throws {
    try await withWorld(.v3_1) { _, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let other = try await client.login("alice@example.com", "alice-pw")
      let set = try await client.post(
        "/api/sync/ack", ["acks": ["AssetV2|b", "AssetV2|a", "AssetDeleteV1|c"]], as: .bearer(token)
      )
      #expect(set.status == 204)
      let acks = try await client.get("/api/sync/ack", as: .bearer(token)).json
      #expect(
        acks == [
          ["type": "AssetDeleteV1", "ack": "AssetDeleteV1|c"],
          ["type": "AssetV2", "ack": "AssetV2|a"],
        ])
      #expect(try await client.get("/api/sync/ack", as: .bearer(other)).json == [])
      let bad = try await client.post("/api/sync/ack", ["acks": ["Nonsense|1"]], as: .bearer(token))
      #expect(bad.status == 400)
      #expect(bad.json == ["message": "Invalid ack type: Nonsense"])
      let deleted = try await client.delete(
        "/api/sync/ack", ["types": ["AssetV2"]], as: .bearer(token))
      #expect(deleted.status == 204)
      #expect(
        try await client.get("/api/sync/ack", as: .bearer(token)).json == [
          ["type": "AssetDeleteV1", "ack": "AssetDeleteV1|c"]
        ])
      _ = try await client.delete("/api/sync/ack", [:], as: .bearer(token))
      #expect(try await client.get("/api/sync/ack", as: .bearer(token)).json == [])
    }
  }

  /// docs/IMMICH-API.md §7.3: kysely cannot insert an empty list; the error interceptor names the handler.
  @Test(arguments: ImmichVersion.allCases)
  func anEmptyAckListIsA500(version: ImmichVersion) async throws {
    try await withWorld(version) { _, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let reply = try await client.post("/api/sync/ack", ["acks": []], as: .bearer(token))
      #expect(reply.status == 500)
      #expect(reply.json?["message"] == "Failed to send sync ack")
    }
  }

  /// `AuthUsersV1` sends the caller's own user first, once until acked.
  @Test func authUsersSendsTheCallersOwnUser() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let first = try await stream(client, token, ["AssetsV2", "AuthUsersV1"]).lines
      let user = try #require(first.first)
      #expect(user["type"] == "AuthUserV1")
      #expect(user["data"]?["id"]?.stringValue == w.alice.id)
      #expect(user["data"]?["email"] == "alice@example.com")
      #expect(first.filter { $0["type"] == "AuthUserV1" }.count == 1)
      try await ackAll(client, token, first)
      let next = try await stream(client, token, ["AuthUsersV1"]).lines
      #expect(next.map { $0["type"] } == ["SyncCompleteV1"])
    }
  }
}

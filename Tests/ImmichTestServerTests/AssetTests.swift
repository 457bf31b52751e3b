import Foundation
import ImmichTestServer
import Testing

@Suite struct AssetTests {
  @Test(arguments: ImmichVersion.allCases)
  func getAssetShowsTheDTOWithVersionedDuration(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let video = try #require(
        try await client.get("/api/assets/\(w.liveVideo.id)", as: .key(w.aliceKey)).json)
      if version != .v2_7 {
        #expect(video["duration"] == 2500)
      } else {
        #expect(video["duration"] == "0:00:02.50000")
      }
      let still = try #require(
        try await client.get("/api/assets/\(w.liveStill.id)", as: .key(w.aliceKey)).json)
      #expect(still["livePhotoVideoId"]?.stringValue == w.liveVideo.id)
      #expect(still["isTrashed"] == false)
      #expect(still["checksum"]?.stringValue == w.liveStill.checksum)
      #expect(still["tags"] == [])
      #expect(still["deletedAt"] == nil)
      let trashed = try await client.get("/api/assets/\(w.trashed.id)", as: .key(w.aliceKey)).json
      #expect(trashed?["isTrashed"] == true)
      // A partner's asset is readable; a stranger's is "not found".
      #expect(try await client.get("/api/assets/\(w.bobs.id)", as: .key(w.aliceKey)).status == 200)
      let foreign = try await client.get("/api/assets/\(w.daves.id)", as: .key(w.aliceKey))
      #expect(foreign.status == 400)
      #expect(foreign.json?["message"] == "Not found or no asset.read access")
    }
  }

  struct Refusal: Sendable, CustomStringConvertible {
    var description: String
    var ids: @Sendable (World) -> [String]
  }

  static let refusals: [Refusal] = [
    Refusal(description: "upper-case id") { [$0.newest.id, $0.oldest.id.uppercased()] },
    Refusal(description: "partner asset") { [$0.newest.id, $0.bobs.id] },
    Refusal(description: "locked asset") { [$0.newest.id, $0.locked.id] },
    Refusal(description: "unknown id") { [$0.newest.id, "0b3e7f4e-2b7d-4c1a-9a51-0e2f3d4c5b6a"] },
  ]

  /// One bad id fails the whole request with 400 and changes nothing.
  @Test(arguments: refusals, [false, true])
  func deleteIsAllOrNothing(refusal: Refusal, force: Bool) async throws {
    try await withWorld(.v3_1) { w, server, client in
      let before = server.state.assets
      let reply = try await client.delete(
        "/api/assets",
        ["ids": .array(refusal.ids(w).map(ImmichJSON.string)), "force": .bool(force)],
        as: .key(w.aliceKey))
      #expect(reply.status == 400)
      #expect(reply.json == ["message": "Not found or no asset.delete access"])
      #expect(server.state.assets == before)
      let restore = try await client.post(
        "/api/trash/restore/assets", ["ids": .array(refusal.ids(w).map(ImmichJSON.string))],
        as: .key(w.aliceKey))
      #expect(restore.status == 400)
      #expect(server.state.assets == before)
    }
  }

  /// Trashing a Live Photo's still leaves its video alone.
  @Test func trashMovesExactlyTheListedIds() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let reply = try await client.delete(
        "/api/assets", ["ids": [.string(w.liveStill.id), .string(w.trashed.id)]],
        as: .key(w.aliceKey))
      #expect(reply.status == 204)
      #expect(reply.body.isEmpty)
      #expect(server.state.trashedAssetIDs == [w.liveStill.id, w.trashed.id])
      #expect(server.state.asset(w.liveVideo.id)?.status == .active)
      let still = try await client.get("/api/assets/\(w.liveStill.id)", as: .key(w.aliceKey)).json
      #expect(still?["isTrashed"] == true)
      #expect(server.state.deletedAssetIDs.isEmpty)
    }
  }

  /// docs/IMMICH-API.md §13: `force` marks the row `deleted`; only the purge job removes it, and the
  /// Live Photo video with it.
  @Test(arguments: ImmichVersion.allCases)
  func forceDeleteWaitsForThePurgeJobWhichCascadesToTheMotionVideo(version: ImmichVersion)
    async throws
  {
    try await withWorld(version) { w, server, client in
      let reply = try await client.delete(
        "/api/assets", ["ids": [.string(w.liveStill.id)], "force": true], as: .key(w.aliceKey))
      #expect(reply.status == 204)
      #expect(server.state.asset(w.liveStill.id)?.status == .deleted)
      #expect(server.state.pendingPurgeIDs == [w.liveStill.id])
      #expect(server.state.deletedAssetIDs.isEmpty)
      // Until the job runs the asset still answers, as trashed.
      let pending = try await client.get("/api/assets/\(w.liveStill.id)", as: .key(w.aliceKey))
      #expect(pending.status == 200)
      #expect(pending.json?["isTrashed"] == true)
      #expect(server.state.asset(w.liveVideo.id)?.status == .active)

      let purged = server.state.runQueuedJobs()
      #expect(purged == [w.liveStill.id, w.liveVideo.id])
      #expect(server.state.asset(w.liveStill.id) == nil)
      #expect(server.state.asset(w.liveVideo.id) == nil)
      #expect(server.state.deletedAssetIDs == [w.liveStill.id, w.liveVideo.id])
      let gone = try await client.get("/api/assets/\(w.liveStill.id)", as: .key(w.aliceKey))
      #expect(gone.status == 400)
    }
  }

  /// While the purge waits, search, restore and sync still see the row (docs/IMMICH-API.md §13).
  @Test func aRowAwaitingThePurgeIsListedAsTrashedAndCannotBeRestored() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      _ = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token))
      _ = try await client.delete(
        "/api/assets", ["ids": [.string(w.newest.id)], "force": true], as: .key(w.aliceKey))

      #expect(
        try await client.searchIds(["id": .string(w.newest.id)], as: .key(w.aliceKey)).isEmpty)
      let listed = try await client.post(
        "/api/search/metadata", ["id": .string(w.newest.id), "withDeleted": true],
        as: .key(w.aliceKey))
      let row = try #require(listed.json?["assets"]?["items"]?.arrayValue?.first)
      #expect(row["isTrashed"] == true)

      let restore = try await client.post(
        "/api/trash/restore/assets", ["ids": [.string(w.newest.id)]], as: .key(w.aliceKey))
      #expect(restore.json == ["count": 1])
      #expect(server.state.asset(w.newest.id)?.status == .deleted)

      let stream = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token))
      let upsert = try #require(
        stream.lines.first { $0["data"]?["id"]?.stringValue == w.newest.id })
      #expect(upsert["type"] == "AssetV2")
      #expect(upsert["data"]?["deletedAt"] != .null)
      #expect(!stream.lines.contains { $0["type"] == "AssetDeleteV1" })

      server.state.runQueuedJobs()
      let after = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token))
      #expect(after.lines.contains { $0["type"] == "AssetDeleteV1" })
    }
  }

  /// `count` is ids.length, but only trashed rows change.
  @Test func restoreAssetsCountsTheRequestAndRestoresOnlyTrashed() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let untouched = try #require(server.state.asset(w.newest.id))
      let reply = try await client.post(
        "/api/trash/restore/assets", ["ids": [.string(w.trashed.id), .string(w.newest.id)]],
        as: .key(w.aliceKey))
      #expect(reply.json == ["count": 2])
      #expect(server.state.trashedAssetIDs.isEmpty)
      #expect(server.state.asset(w.newest.id) == untouched)
      let empty = try await client.post(
        "/api/trash/restore/assets", ["ids": []], as: .key(w.aliceKey))
      #expect(empty.json == ["count": 0])
    }
  }

  @Test func restoreAllAndEmptyTrashCountTheCallersTrashedRows() async throws {
    try await withWorld(.v3_1) { w, server, client in
      server.state.trash([w.newest.id, w.bobs.id])
      let restored = try await client.post("/api/trash/restore", as: .key(w.aliceKey))
      #expect(restored.json == ["count": 2])
      #expect(server.state.trashedAssetIDs == [w.bobs.id])
      _ = try await client.delete(
        "/api/assets", ["ids": [.string(w.oldest.id), .string(w.archived.id)]], as: .key(w.aliceKey)
      )
      let emptied = try await client.post("/api/trash/empty", as: .key(w.aliceKey))
      #expect(emptied.json == ["count": 2])
      #expect(server.state.pendingPurgeIDs == [w.oldest.id, w.archived.id])
      #expect(server.state.trashedAssetIDs == [w.bobs.id])
      // The control API runs the job, as the executable's users would.
      let jobs = try await client.post("/__testserver/run-jobs")
      #expect(Set(jobs.json?["purged"]?.strings ?? []) == [w.oldest.id, w.archived.id])
      #expect(server.state.asset(w.oldest.id) == nil)
      #expect(server.state.asset(w.archived.id) == nil)
    }
  }

  @Test func bulkUploadCheckMatchesTrashedAssetsAndKeepsInputOrder() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let hex = try #require(Data(base64Encoded: w.trashed.checksum)).map {
        String(format: "%02x", $0)
      }.joined()
      let reply = try await client.post(
        "/api/assets/bulk-upload-check",
        [
          "assets": [
            ["id": "new.jpg", "checksum": .string(Scenario.checksum(of: Array("fresh".utf8)))],
            ["id": "old.jpg", "checksum": .string(hex)],
            ["id": "live.heic", "checksum": .string(w.liveStill.checksum)],
            ["id": "bobs.jpg", "checksum": .string(w.bobs.checksum)],
          ]
        ], as: .key(w.aliceKey))
      #expect(reply.status == 200)
      let results = try #require(reply.json?["results"]?.arrayValue)
      #expect(
        results.map { $0["id"]?.stringValue } == ["new.jpg", "old.jpg", "live.heic", "bobs.jpg"])
      #expect(results[0] == ["id": "new.jpg", "action": "accept"])
      #expect(results[1]["action"] == "reject")
      #expect(results[1]["reason"] == "duplicate")
      #expect(results[1]["assetId"]?.stringValue == w.trashed.id)
      #expect(results[1]["isTrashed"] == true)
      #expect(results[2]["isTrashed"] == false)
      // Only the caller's own assets count as duplicates.
      #expect(results[3]["action"] == "accept")
    }
  }

  static func multipart(_ fields: [(String, String)], file: [UInt8], name: String) -> (
    bytes: [UInt8], contentType: String
  ) {
    let boundary = "cairn-test-boundary"
    var body: [UInt8] = []
    for (key, value) in fields {
      body += Array(
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(key)\"\r\n\r\n\(value)\r\n".utf8)
    }
    body += Array(
      "--\(boundary)\r\nContent-Disposition: form-data; name=\"assetData\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        .utf8)
    body += file
    body += Array("\r\n--\(boundary)--\r\n".utf8)
    return (body, "multipart/form-data; boundary=\(boundary)")
  }

  @Test(arguments: ImmichVersion.allCases)
  func uploadCreatesThenReportsDuplicate(version: ImmichVersion) async throws {
    try await withWorld(version) { w, server, client in
      let bytes = Array("not really a jpeg, but bytes all the same".utf8)
      var fields = [
        ("fileCreatedAt", "2026-03-01T10:00:00.000Z"), ("fileModifiedAt", "2026-03-01T10:00:00Z"),
      ]
      if version == .v2_7 {
        let missing = try await client.send(
          .POST, "/api/assets", as: .key(w.aliceKey),
          raw: Self.multipart(fields, file: bytes, name: "a.jpg"))
        #expect(missing.status == 400)
        fields += [("deviceAssetId", "a.jpg-1"), ("deviceId", "cairn")]
      }
      let created = try await client.send(
        .POST, "/api/assets", as: .key(w.aliceKey),
        raw: Self.multipart(fields, file: bytes, name: "a.jpg"))
      #expect(created.status == 201)
      #expect(created.json?["status"] == "created")
      let id = try #require(created.json?["id"]?.stringValue)
      // SHA-1 of the bytes, base64: printf '...' | sha1sum gives the same digest.
      #expect(server.state.asset(id)?.checksum == Scenario.checksum(of: bytes))
      #expect(server.state.asset(id)?.originalFileName == "a.jpg")
      let again = try await client.send(
        .POST, "/api/assets", as: .key(w.aliceKey),
        raw: Self.multipart(fields, file: bytes, name: "b.jpg"))
      #expect(again.status == 200)
      #expect(again.json == ["id": .string(id), "status": "duplicate"])
    }
  }

  @Test func checksumHelperIsRealSHA1() {
    // Known vector: SHA-1("abc") = a9993e364706816aba3e25717850c26c9cd0d89d.
    #expect(Scenario.checksum(of: Array("abc".utf8)) == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
  }
}

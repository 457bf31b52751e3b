import Foundation
import ImmichTestServer
import Testing

/// docs/IMMICH-API.md §12: an upper-case uuid passes validation everywhere, then fails only where the
/// server compares id sets as strings (DELETE, restore, tag-by-id, a path id); wherever the id
/// reaches SQL, Postgres' uuid cast matches it.
@Suite struct UpperCaseIdTests {
  @Test(arguments: ImmichVersion.allCases)
  func searchMatchesUpperCaseIdsThroughTheUUIDCast(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let byId = try await client.searchIds(
        ["id": .string(w.newest.id.uppercased())], as: .key(w.aliceKey))
      #expect(byId == [w.newest.id])

      let tag = try #require(
        try await client.put("/api/tags", ["tags": ["cairn/x"]], as: .key(w.aliceKey))
          .json?.arrayValue?.first?["id"]?.stringValue)
      _ = try await client.put(
        "/api/tags/\(tag)/assets", ["ids": [.string(w.newest.id)]], as: .key(w.aliceKey))
      let byTag = try await client.searchIds(
        ["tagIds": [.string(tag.uppercased())]], as: .key(w.aliceKey))
      #expect(byTag == [w.newest.id])
    }
  }

  /// Bulk tagging tags the ids `checkAccess` returned: the database's lower-case ones.
  @Test func bulkTaggingTagsUpperCaseIds() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let tag = try #require(
        try await client.put("/api/tags", ["tags": ["cairn/y"]], as: .key(w.aliceKey))
          .json?.arrayValue?.first?["id"]?.stringValue)
      let reply = try await client.put(
        "/api/tags/assets",
        ["tagIds": [.string(tag.uppercased())], "assetIds": [.string(w.oldest.id.uppercased())]],
        as: .key(w.aliceKey))
      #expect(reply.json == ["count": 1])
      #expect(server.state.tagIDs(onAsset: w.oldest.id) == [tag])
    }
  }

  /// The set-equality checks: 400 and nothing changes (DELETE is in `AssetTests`).
  @Test(arguments: ImmichVersion.allCases)
  func accessChecksRefuseUpperCaseIds(version: ImmichVersion) async throws {
    try await withWorld(version) { w, server, client in
      let before = server.state.assets
      let restore = try await client.post(
        "/api/trash/restore/assets", ["ids": [.string(w.trashed.id.uppercased())]],
        as: .key(w.aliceKey))
      #expect(restore.status == 400)
      #expect(restore.json?["message"] == "Not found or no asset.delete access")
      #expect(server.state.assets == before)

      let path = try await client.get(
        "/api/assets/\(w.newest.id.uppercased())", as: .key(w.aliceKey))
      #expect(path.status == 400)
      #expect(path.json?["message"] == "Not found or no asset.read access")

      let tag = try #require(
        try await client.put("/api/tags", ["tags": ["cairn/z"]], as: .key(w.aliceKey))
          .json?.arrayValue?.first?["id"]?.stringValue)
      let byTagId = try await client.put(
        "/api/tags/\(tag.uppercased())/assets", ["ids": [.string(w.newest.id)]],
        as: .key(w.aliceKey))
      #expect(byTagId.status == 400)
      #expect(byTagId.json?["message"] == "Not found or no tag.asset access")
      // An upper-case asset id in that body is one the access check did not return.
      let perAsset = try await client.put(
        "/api/tags/\(tag)/assets", ["ids": [.string(w.newest.id.uppercased())]],
        as: .key(w.aliceKey))
      #expect(perAsset.json?.arrayValue?.first?["error"] == "no_permission")
      #expect(server.state.tagIDs(onAsset: w.newest.id).isEmpty)
    }
  }
}

import Foundation
import ImmichTestServer
import Testing

@Suite struct TagTests {
  /// POST creates one flat tag: no splitting, no parent, no `color` key, and no closure rows.
  @Test func postCreatesAFlatTagAndRejectsDuplicates() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let reply = try await client.post("/api/tags", ["name": "cairn/v1"], as: .key(w.aliceKey))
      #expect(reply.status == 201)
      let tag = try #require(reply.json)
      guard case .object(let pairs) = tag else { Issue.record("not an object"); return }
      #expect(pairs.map(\.0) == ["id", "name", "value", "createdAt", "updatedAt"])
      #expect(tag["name"] == "v1")
      #expect(tag["value"] == "cairn/v1")
      #expect(server.state.tags.map(\.value) == ["cairn/v1"])
      #expect(server.state.tags.first?.inClosure == false)
      let again = try await client.post("/api/tags", ["name": "cairn/v1"], as: .key(w.aliceKey))
      #expect(again.status == 400)
      #expect(again.json == ["message": "A tag with that name already exists"])
      // Another user may use the same value.
      #expect(
        try await client.post("/api/tags", ["name": "cairn/v1"], as: .key("bob-secret")).status
          == 201)
      let colored = try await client.post(
        "/api/tags", ["name": "red", "color": "000000"], as: .key(w.aliceKey))
      #expect(colored.json?["color"] == "#000000")
    }
  }

  @Test func putUpsertsEveryLevelAndReturnsLeavesPerDistinctInput() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let reply = try await client.put(
        "/api/tags",
        ["tags": ["TagA/TagB/TagC/TagD", "TagA/TagB/TagC/TagD", "//", "/TagA//TagE/"]],
        as: .key(w.aliceKey))
      #expect(reply.status == 200)
      let leaves = try #require(reply.json?.arrayValue)
      #expect(leaves.map { $0["value"]?.stringValue } == ["TagA/TagB/TagC/TagD", "TagA/TagE"])
      #expect(leaves.first?["name"] == "TagD")
      let all = try #require(
        try await client.get("/api/tags", as: .key(w.aliceKey)).json?.arrayValue)
      #expect(
        all.map { $0["value"]?.stringValue } == [
          "TagA", "TagA/TagB", "TagA/TagB/TagC", "TagA/TagB/TagC/TagD", "TagA/TagE",
        ])
      let byValue = Dictionary(
        uniqueKeysWithValues: all.compactMap { t in t["value"]?.stringValue.map { ($0, t) } })
      #expect(byValue["TagA"]?["parentId"] == nil)
      #expect(byValue["TagA/TagB"]?["parentId"] == byValue["TagA"]?["id"])
      #expect(byValue["TagA/TagB/TagC/TagD"]?["parentId"] == byValue["TagA/TagB/TagC"]?["id"])
      // Upserting again returns the same ids.
      let again = try await client.put(
        "/api/tags", ["tags": ["TagA/TagB/TagC/TagD"]], as: .key(w.aliceKey))
      #expect(again.json?.arrayValue?.first?["id"] == leaves.first?["id"])
    }
  }

  /// Search by tag walks the closure table: a parent id finds assets tagged with descendants,
  /// several ids are ANDed, `null` finds untagged assets, and POST-made tags find nothing.
  @Test func tagSearchUsesDescendantsAndAND() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let key = Credential.key(w.aliceKey)
      let leaves = try #require(
        try await client.put("/api/tags", ["tags": ["cairn/v1/run/X", "cairn/other"]], as: key)
          .json?.arrayValue)
      let runX = try #require(leaves[0]["id"])
      let other = try #require(leaves[1]["id"])
      let tags = try #require(try await client.get("/api/tags", as: key).json?.arrayValue)
      let root = try #require(tags.first { $0["value"] == "cairn" }?["id"])
      let tagged = try await client.put(
        "/api/tags/assets",
        ["tagIds": [runX], "assetIds": [.string(w.newest.id), .string(w.oldest.id)]], as: key)
      #expect(tagged.json == ["count": 2])
      _ = try await client.put(
        "/api/tags/assets", ["tagIds": [other], "assetIds": [.string(w.oldest.id)]], as: key)

      #expect(
        Set(try await client.searchIds(["tagIds": [root]], as: key)) == [w.newest.id, w.oldest.id])
      #expect(try await client.searchIds(["tagIds": [runX, other]], as: key) == [w.oldest.id])
      let untagged = try await client.searchIds(
        ["tagIds": .null, "visibility": "timeline"], as: key)
      #expect(Set(untagged) == [w.bobs.id, w.liveStill.id])

      let flat = try #require(
        try await client.post("/api/tags", ["name": "flat"], as: key).json?["id"])
      _ = try await client.put(
        "/api/tags/assets", ["tagIds": [flat], "assetIds": [.string(w.newest.id)]], as: key)
      #expect(try await client.searchIds(["tagIds": [flat]], as: key).isEmpty)
      let asset = try await client.get("/api/assets/\(w.newest.id)", as: key).json
      #expect(
        asset?["tags"]?.arrayValue?.compactMap { $0["value"]?.stringValue } == [
          "cairn/v1/run/X", "flat",
        ])
    }
  }

  @Test func bulkTaggingCountsOnlyNewPairsAndSkipsForeignItems() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let key = Credential.key(w.aliceKey)
      let tags = try #require(
        try await client.put("/api/tags", ["tags": ["a", "b", "c"]], as: key).json?.arrayValue)
      let bobTag = try #require(
        try await client.put("/api/tags", ["tags": ["bob"]], as: .key("bob-secret")).json?
          .arrayValue?.first?["id"])
      let tagIds = tags.compactMap { $0["id"] } + [bobTag]
      let assetIds: [ImmichJSON] = [.string(w.newest.id), .string(w.oldest.id), .string(w.bobs.id)]
      let first = try await client.put(
        "/api/tags/assets", ["tagIds": .array(tagIds), "assetIds": .array(assetIds)], as: key)
      #expect(first.json == ["count": 6])
      let second = try await client.put(
        "/api/tags/assets", ["tagIds": .array(tagIds), "assetIds": .array(assetIds)], as: key)
      #expect(second.json == ["count": 0])
      #expect(server.state.tagAssignments.count == 6)
    }
  }

  @Test func perTagAssetEditsReportEachId() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let key = Credential.key(w.aliceKey)
      let tag = try #require(
        try await client.put("/api/tags", ["tags": ["t"]], as: key).json?.arrayValue?.first?["id"]?
          .stringValue)
      let added = try await client.put(
        "/api/tags/\(tag)/assets",
        [
          "ids": [
            .string(w.newest.id), .string(w.newest.id), .string(w.daves.id), .string(w.bobs.id),
          ]
        ], as: key)
      #expect(
        added.json == [
          ["id": .string(w.newest.id), "success": true],
          ["id": .string(w.newest.id), "success": false, "error": "duplicate"],
          ["id": .string(w.daves.id), "success": false, "error": "no_permission"],
          ["id": .string(w.bobs.id), "success": true],
        ])
      let removed = try await client.delete(
        "/api/tags/\(tag)/assets", ["ids": [.string(w.newest.id), .string(w.oldest.id)]], as: key)
      #expect(
        removed.json == [
          ["id": .string(w.newest.id), "success": true],
          ["id": .string(w.oldest.id), "success": false, "error": "not_found"],
        ])
      let foreign = try await client.put(
        "/api/tags/\(tag)/assets", ["ids": []], as: .key("bob-secret"))
      #expect(foreign.status == 400)
      #expect(foreign.json == ["message": "Not found or no tag.asset access"])
    }
  }

  @Test func deletingATagDeletesDescendantsAndTheirAssetLinks() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let key = Credential.key(w.aliceKey)
      let leaf = try #require(
        try await client.put("/api/tags", ["tags": ["root/child/leaf", "keep"]], as: key).json?
          .arrayValue?.first?["id"])
      _ = try await client.put(
        "/api/tags/assets", ["tagIds": [leaf], "assetIds": [.string(w.newest.id)]], as: key)
      let root = try #require(server.state.tag(value: "root")?.id)
      let reply = try await client.delete("/api/tags/\(root)", as: key)
      #expect(reply.status == 204)
      #expect(server.state.tags.map(\.value) == ["keep"])
      #expect(server.state.tagIDs(onAsset: w.newest.id).isEmpty)
      let gone = try await client.get("/api/tags/\(root)", as: key)
      #expect(gone.status == 400)
      #expect(gone.json == ["message": "Not found or no tag.read access"])
    }
  }

  /// PUT /tags/:id: a colour is normalised, an omitted one stays, null clears it (the key then
  /// disappears from TagResponseDto), and a non-hex one is a validation error.
  @Test func updateSetsKeepsAndClearsTheColour() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let key = Credential.key(w.aliceKey)
      let id = try #require(
        try await client.post("/api/tags", ["name": "c"], as: key).json?["id"]?.stringValue)
      let set = try await client.put("/api/tags/\(id)", ["color": "abc"], as: key)
      #expect(set.json?["color"] == "#abc")
      let kept = try await client.put("/api/tags/\(id)", [:], as: key)
      #expect(kept.json?["color"] == "#abc")
      let cleared = try await client.put("/api/tags/\(id)", ["color": .null], as: key)
      #expect(cleared.status == 200)
      #expect(cleared.json?["color"] == nil)
      let wrong = try await client.put("/api/tags/\(id)", ["color": "red"], as: key)
      #expect(wrong.status == 400)
      #expect(wrong.json?["errors"]?.arrayValue?.first?["path"] == ["color"])
    }
  }
}

import Foundation
import ImmichTestServer
import Testing

@Suite struct SearchTests {
  /// v3 omits only locked (timeline + archive + hidden); v2 shows the timeline only. Trashed
  /// assets are out either way; Bob shares into Alice's timeline, Carol does not.
  @Test(arguments: ImmichVersion.allCases)
  func defaultVisibilityAndOwnerScope(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let ids = try await client.searchIds([:], as: .key(w.aliceKey))
      let expected: [Scenario.Asset] =
        version != .v2_7
        ? [w.bobs, w.newest, w.archived, w.liveStill, w.liveVideo, w.oldest]
        : [w.bobs, w.newest, w.liveStill, w.oldest]
      #expect(Set(ids) == Set(expected.map(\.id)))
      #expect(ids.count == expected.count)
      #expect(!ids.contains(w.carols.id))
      #expect(!ids.contains(w.daves.id))
    }
  }

  @Test(arguments: ImmichVersion.allCases)
  func explicitVisibilityAndLockedNeedsElevation(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let hidden = try await client.searchIds(["visibility": "hidden"], as: .key(w.aliceKey))
      #expect(hidden == [w.liveVideo.id])
      let archive = try await client.searchIds(["visibility": "archive"], as: .key(w.aliceKey))
      #expect(archive == [w.archived.id])
      let locked = try await client.post(
        "/api/search/metadata", ["visibility": "locked"], as: .key(w.aliceKey))
      #expect(locked.status == 401)
      #expect(locked.json?["message"] == "Elevated permission is required")
    }
  }

  @Test func orderIsFileCreatedAtDescendingByDefaultAndAscendingOnRequest() async throws {
    try await withWorld(.v2_7) { w, _, client in
      let desc = try await client.searchIds([:], as: .key(w.aliceKey))
      #expect(desc == [w.bobs.id, w.newest.id, w.liveStill.id, w.oldest.id])
      let asc = try await client.searchIds(
        ["order": "asc", "size": 1, "page": 2], as: .key(w.aliceKey))
      #expect(asc == [w.liveStill.id])
    }
  }

  @Test func trashedAssetsNeedWithDeletedOrATrashDate() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let key = Credential.key(w.aliceKey)
      #expect(!(try await client.searchIds([:], as: key)).contains(w.trashed.id))
      #expect(try await client.searchIds(["withDeleted": true], as: key).contains(w.trashed.id))
      let after = try await client.searchIds(["trashedAfter": "2000-01-01T00:00:00.000Z"], as: key)
      #expect(after == [w.trashed.id])
      let before = try await client.searchIds(["trashedBefore": "2000-01-01T00:00:00Z"], as: key)
      #expect(before.isEmpty)
    }
  }

  @Test func filtersByChecksumInBase64AndHexFileNameTypeIdAndMotion() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let key = Credential.key(w.aliceKey)
      let base64 = w.newest.checksum
      let hex = try #require(Data(base64Encoded: base64)).map { String(format: "%02x", $0) }
        .joined()
      #expect(try await client.searchIds(["checksum": .string(base64)], as: key) == [w.newest.id])
      #expect(try await client.searchIds(["checksum": .string(hex)], as: key) == [w.newest.id])
      let byName = try await client.searchIds(["originalFileName": "IMG_0001"], as: key)
      #expect(byName == [w.oldest.id])
      let videos = try await client.searchIds(["type": "VIDEO", "visibility": "hidden"], as: key)
      #expect(videos == [w.liveVideo.id])
      #expect(
        try await client.searchIds(["id": .string(w.archived.id)], as: key) == [w.archived.id])
      #expect(try await client.searchIds(["isMotion": true], as: key) == [w.liveStill.id])
      // Everything lives in the upload library: `libraryId: null` selects it, any id nothing.
      let upload = try await client.searchIds(
        ["libraryId": .null, "id": .string(w.newest.id)], as: key)
      #expect(upload == [w.newest.id])
      let library = try await client.searchIds(
        ["libraryId": .string(AuthenticationTests.someId)], as: key)
      #expect(library.isEmpty)
      // The partner's asset is found by checksum too: filter on ownerId before deleting.
      let partner = try await client.searchIds(["checksum": .string(w.bobs.checksum)], as: key)
      #expect(partner == [w.bobs.id])
    }
  }

  @Test(arguments: ImmichVersion.allCases)
  func datesNeedAnOffsetInV3AndSizeIsBounded(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let key = Credential.key(w.aliceKey)
      let noOffset = try await client.post(
        "/api/search/metadata", ["takenAfter": "2026-01-01T00:00:00"], as: key)
      // zod wants an offset; v2's `new Date(text)` took the text without one.
      #expect(noOffset.status == (version != .v2_7 ? 400 : 200))
      for size in [0, 1001] {
        let reply = try await client.post(
          "/api/search/metadata", ["size": .number(Double(size))], as: key)
        #expect(reply.status == 400)
        if version != .v2_7 {
          #expect(reply.json?["message"] == "Validation failed")
          #expect(reply.json?["errors"]?.arrayValue?.first?["path"] == ["size"])
        } else {
          let bound = size == 0 ? "less than 1" : "greater than 1000"
          #expect(reply.json?["message"] == [.string("size must not be \(bound)")])
        }
      }
      let badType = try await client.post("/api/search/metadata", ["type": "PHOTO"], as: key)
      #expect(badType.status == 400)
      #expect(try await client.post("/api/search/metadata", ["size": 1000], as: key).status == 200)
    }
  }

  @Test func pagesCarryNextPageAsTextAndCountsThePage() async throws {
    try await withWorld(.v2_7) { w, _, client in
      let key = Credential.key(w.aliceKey)
      let first = try #require(
        try await client.post("/api/search/metadata", ["size": 3], as: key).json)
      #expect(first["assets"]?["nextPage"] == "2")
      #expect(first["assets"]?["count"] == 3)
      #expect(first["assets"]?["total"] == 3)
      #expect(first["albums"] == ["total": 0, "count": 0, "items": [], "facets": []])
      let second = try #require(
        try await client.post("/api/search/metadata", ["size": 3, "page": 2], as: key).json)
      #expect(second["assets"]?["nextPage"] == .null)
      #expect(second["assets"]?["count"] == 1)
      // Exactly `size` rows left: still no next page.
      let exact = try await client.post("/api/search/metadata", ["size": 4], as: key).json
      #expect(exact?["assets"]?["nextPage"] == .null)
    }
  }

  @Test func defaultPageSizeIs250() async throws {
    try await ImmichTestServer.withRunning(.generated(count: 300)) { _, url in
      let client = TestClient(base: url)
      let page = try await client.post("/api/search/metadata", [:], as: .key("demo-secret")).json
      #expect(page?["assets"]?["count"] == 250)
      #expect(page?["assets"]?["nextPage"] == "2")
    }
  }

  /// `StatisticsSearchDto` has no `withDeleted` (the spec's schema lacks it, so zod strips it):
  /// only a trash date brings trashed assets into the count.
  @Test(arguments: ImmichVersion.allCases)
  func statisticsCountsWithTheSameDefaults(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let reply = try await client.post("/api/search/statistics", [:], as: .key(w.aliceKey))
      #expect(reply.json == ["total": version != .v2_7 ? 6 : 4])
      let stripped = try await client.post(
        "/api/search/statistics", ["withDeleted": true, "visibility": "timeline"],
        as: .key(w.aliceKey))
      #expect(stripped.json == ["total": 4])
      let trashed = try await client.post(
        "/api/search/statistics",
        ["trashedAfter": "2000-01-01T00:00:00.000Z", "visibility": "timeline"],
        as: .key(w.aliceKey))
      #expect(trashed.json == ["total": 1])
    }
  }

  /// 100,000 assets in pages of 1000: every id exactly once, newest first. (How fast is a
  /// benchmark's question, bench/fetch.sh, not a test's: a shared machine makes any bound flaky.)
  @Test func fullListingOfOneHundredThousandAssets() async throws {
    let scenario = Scenario.generated(count: 100_000)
    try await ImmichTestServer.withRunning(scenario) { server, url in
      let client = TestClient(base: url)
      var seen: [String] = []
      var page: ImmichJSON = "1"
      while let number = page.stringValue.flatMap(Int.init) {
        let body = try #require(
          try await client.post(
            "/api/search/metadata", ["page": .number(Double(number)), "size": 1000],
            as: .key("demo-secret")
          ).json)
        seen += body["assets"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        page = body["assets"]?["nextPage"] ?? .null
      }
      #expect(seen.count == 100_000)
      #expect(Set(seen).count == 100_000)
      #expect(seen.first == server.state.assets.first?.id)
    }
  }

  /// `requireAccess(album.read, albumIds)`: an album that does not exist is not readable.
  @Test(arguments: ImmichVersion.allCases)
  func anAlbumScopedSearchNeedsAlbumRead(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let reply = try await client.post(
        "/api/search/metadata", ["albumIds": ["6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"]],
        as: .key(w.aliceKey))
      #expect(reply.status == 400)
      #expect(reply.json?["message"] == "Not found or no album.read access")
      let none = try await client.post(
        "/api/search/metadata", ["albumIds": []], as: .key(w.aliceKey))
      #expect(none.status == 200)
    }
  }

  /// A search row is mapped without owner, EXIF or stack; `GET /assets/:id` loads all three.
  @Test func onlyTheSingleAssetCarriesOwnerExifAndStack() async throws {
    try await withWorld(.v3_1) { w, _, client in
      let page = try await client.post(
        "/api/search/metadata", ["id": .string(w.newest.id)], as: .key(w.aliceKey))
      let row = try #require(page.json?["assets"]?["items"]?.arrayValue?.first)
      #expect(row["stack"] == nil && row["owner"] == nil && row["exifInfo"] == nil)
      let one = try #require(
        try await client.get("/api/assets/\(w.newest.id)", as: .key(w.aliceKey)).json)
      #expect(one["stack"] == .null)
      #expect(one["owner"]?["id"]?.stringValue == w.alice.id)
      #expect(one["owner"]?["email"] == "alice@example.com")
      #expect(one["exifInfo"]?["dateTimeOriginal"] != nil)
      let bobs = try await client.get("/api/assets/\(w.bobs.id)", as: .key(w.aliceKey)).json
      #expect(bobs?["owner"]?["id"]?.stringValue == w.bob.id)
    }
  }
}

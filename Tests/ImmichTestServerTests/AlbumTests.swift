import Foundation
import ImmichTestServer
import Testing

/// Albums as Immich serves them (docs/IMMICH-API.md §16): which albums `GET /albums` answers
/// per version, shared albums and their members' access, what may be filed (`asset.share`:
/// owners and partners), and what `assetCount` counts.
struct AlbumTests {
  /// Creates an album as `key`; its id.
  static func album(
    _ c: TestClient, _ key: String, name: String, assets: [Scenario.Asset] = [],
    members: [(Scenario.User, String)] = []
  ) async throws -> String {
    let body: ImmichJSON = [
      "albumName": .string(name), "assetIds": .array(assets.map { .string($0.id) }),
      "albumUsers": .array(
        members.map { ["userId": .string($0.0.id), "role": .string($0.1)] as ImmichJSON }),
    ]
    let made = try await c.post("/api/albums", body, as: .key(key))
    #expect(made.status == 201, "\(made.text)")
    return try #require(made.json?["id"]?.stringValue)
  }

  static func names(_ reply: HTTPReply) -> Set<String> {
    Set(reply.json?.arrayValue?.compactMap { $0["albumName"]?.stringValue } ?? [])
  }

  /// 3.x answers every album the user is in, owned or shared with them, and filters with
  /// `isOwned`/`isShared` (it strips 2.x's `shared`); 2.x answers the owned ones, and with
  /// `shared=true` those shared with or by the user (it strips `isShared`).
  @Test(arguments: ImmichVersion.allCases)
  func anAlbumSharedWithTheUserIsListed(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, c in
      _ = try await Self.album(c, w.aliceKey, name: "Mine")
      _ = try await Self.album(c, w.aliceKey, name: "Mine, shared", members: [(w.dave, "viewer")])
      _ = try await Self.album(c, "bob-secret", name: "Bob's", members: [(w.alice, "editor")])
      _ = try await Self.album(c, "dave-secret", name: "Dave's")
      func listed(_ query: String) async throws -> Set<String> {
        let reply = try await c.get("/api/albums\(query)", as: .key(w.aliceKey))
        #expect(reply.status == 200, "\(reply.text)")
        return Self.names(reply)
      }
      let isV3 = version != .v2_7
      if isV3 {
        #expect(try await listed("") == ["Mine", "Mine, shared", "Bob's"])
        #expect(try await listed("?isShared=true") == ["Mine, shared", "Bob's"])
        #expect(try await listed("?isShared=false") == ["Mine"])
        #expect(try await listed("?isOwned=false") == ["Bob's"])
        #expect(try await listed("?isOwned=true&isShared=true") == ["Mine, shared"])
        #expect(try await listed("?shared=true") == ["Mine", "Mine, shared", "Bob's"])
      } else {
        #expect(try await listed("") == ["Mine", "Mine, shared"])
        #expect(try await listed("?shared=true") == ["Mine, shared", "Bob's"])
        #expect(try await listed("?shared=false") == ["Mine"])
        #expect(try await listed("?isShared=true") == ["Mine", "Mine, shared"])
      }
      let parameter = isV3 ? "isShared" : "shared"
      #expect(
        try await c.get("/api/albums?\(parameter)=maybe", as: .key(w.aliceKey)).status == 400)
      // Bob's album names its owner first, then Alice with her role, and says it is shared.
      let all = try await c.get("/api/albums?\(parameter)=true", as: .key(w.aliceKey))
      let bobs = try #require(all.json?.arrayValue?.first { $0["albumName"] == "Bob's" })
      #expect(bobs["shared"] == true)
      let users = bobs["albumUsers"]?.arrayValue ?? []
      #expect(users.map { $0["role"]?.stringValue } == ["owner", "editor"])
      #expect(users.map { $0["user"]?["id"]?.stringValue } == [w.bob.id, w.alice.id])
    }
  }

  /// A member reads the album and searches it; a stranger gets the access check's 400 for
  /// both, in the flat `albumIds` and in 3.2's `filter.albumIds` (any operator, any branch).
  @Test(arguments: ImmichVersion.allCases)
  func aMemberReadsAndSearchesTheAlbumAStrangerCannot(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, c in
      let shared = try await Self.album(
        c, "bob-secret", name: "Bob's", assets: [w.bobs], members: [(w.alice, "editor")])
      let added = try await c.put(
        "/api/albums/\(shared)/assets", ["ids": [.string(w.newest.id)]], as: .key(w.aliceKey))
      #expect(added.json?.arrayValue?.first?["success"] == true, "\(added.text)")
      #expect(try await c.get("/api/albums/\(shared)", as: .key(w.aliceKey)).status == 200)
      let stranger = try await c.get("/api/albums/\(shared)", as: .key("dave-secret"))
      #expect(stranger.status == 400)
      #expect(stranger.json?["message"] == "Not found or no album.read access")

      let found = try await c.searchIds(["albumIds": [.string(shared)]], as: .key(w.aliceKey))
      #expect(Set(found) == [w.newest.id, w.bobs.id])
      let refused = try await c.post(
        "/api/search/metadata", ["albumIds": [.string(shared)]], as: .key("dave-secret"))
      #expect(refused.status == 400)
      #expect(refused.json?["message"] == "Not found or no album.read access")
      guard version == .v3_2 else { return }
      let filtered = try await c.searchIds(
        ["filter": ["albumIds": ["any": [.string(shared)]], "trashedAt": ["eq": .null]]],
        as: .key(w.aliceKey))
      #expect(Set(filtered) == [w.newest.id, w.bobs.id])
      let daves = try await Self.album(c, "dave-secret", name: "Dave's")
      for filter: ImmichJSON in [
        ["albumIds": ["any": [.string(daves)]]], ["albumIds": ["none": [.string(daves)]]],
        ["or": [["albumIds": ["all": [.string(shared), .string(daves)]]]]],
      ] {
        for path in ["/api/search/metadata", "/api/search/statistics"] {
          let reply = try await c.post(path, ["filter": filter], as: .key(w.aliceKey))
          #expect(reply.status == 400, "\(path) \(filter.serialized)")
          #expect(reply.json?["message"] == "Not found or no album.read access")
        }
      }
    }
  }

  /// `asset.share` is what filing checks: the owner and any partner sharing with the caller
  /// have it, a stranger's asset is `no_permission`. An id already in the album is a
  /// `duplicate` before access is asked; a viewer may not add at all.
  @Test(arguments: ImmichVersion.allCases)
  func ownersAndPartnersAssetsAreFiled(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, c in
      let made = try await c.post(
        "/api/albums",
        ["albumName": "Filed", "assetIds": [.string(w.bobs.id), .string(w.daves.id)]],
        as: .key(w.aliceKey))
      let album = try #require(made.json?["id"]?.stringValue)
      #expect(made.json?["assetCount"] == 1)  // Bob's photo: he is a partner; Dave's is left out
      let reply = try await c.put(
        "/api/albums/\(album)/assets",
        ["ids": [.string(w.newest.id), .string(w.carols.id), .string(w.daves.id)]],
        as: .key(w.aliceKey))
      let results = reply.json?.arrayValue ?? []
      #expect(results.map { $0["success"] } == [true, true, false])
      #expect(results.last?["error"] == "no_permission")

      let daves = try await Self.album(
        c, "dave-secret", name: "Dave's", assets: [w.daves],
        members: [(w.alice, "editor"), (w.bob, "viewer")])
      let again = try await c.put(
        "/api/albums/\(daves)/assets", ["ids": [.string(w.daves.id), .string(w.oldest.id)]],
        as: .key(w.aliceKey))
      #expect(again.json?.arrayValue?.map { $0["error"] } == ["duplicate", nil])
      let viewer = try await c.put(
        "/api/albums/\(daves)/assets", ["ids": [.string(w.bobs.id)]], as: .key("bob-secret"))
      #expect(viewer.status == 400)
      #expect(viewer.json?["message"] == "Not found or no albumAsset.create access")
      // What a member can read, they can see: Dave's photo and its thumbnail, for Alice.
      #expect(try await c.get("/api/assets/\(w.daves.id)", as: .key(w.aliceKey)).status == 200)
      let thumbnail = try await c.get(
        "/api/assets/\(w.daves.id)/thumbnail", as: .key(w.aliceKey))
      #expect(thumbnail.status == 200)
    }
  }

  /// `assetCount` counts the album's assets that are not trashed and whose visibility is
  /// timeline or archive, in `GET /albums` and `GET /albums/:id`: a hidden Live Photo video
  /// is in the album, and found by its search, but not counted.
  @Test(arguments: ImmichVersion.allCases)
  func assetCountLeavesOutHiddenAndTrashed(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, c in
      let counted = try await Self.album(
        c, w.aliceKey, name: "Counted", assets: [w.newest, w.archived, w.liveVideo, w.oldest])
      let hidden = try await Self.album(c, w.aliceKey, name: "Hidden", assets: [w.liveVideo])
      _ = try await c.delete("/api/assets", ["ids": [.string(w.oldest.id)]], as: .key(w.aliceKey))
      func count(_ id: String) async throws -> ImmichJSON? {
        let one = try await c.get("/api/albums/\(id)", as: .key(w.aliceKey)).json
        let listed = try await c.get("/api/albums", as: .key(w.aliceKey)).json?.arrayValue?
          .first { $0["id"]?.stringValue == id }
        #expect(one?["assetCount"] == listed?["assetCount"])
        return one?["assetCount"]
      }
      #expect(try await count(counted) == 2)
      #expect(try await count(hidden) == 0)
      let found = try await c.searchIds(
        ["albumIds": [.string(hidden)], "visibility": "hidden"], as: .key(w.aliceKey))
      #expect(found == [w.liveVideo.id])
    }
  }

  /// A scenario carries albums, in Swift and in files: the server starts with them.
  @Test func aScenarioFileCarriesAlbums() async throws {
    var scenario = Scenario(version: .v3_1)
    let (me, key) = scenario.addUser(email: "me@example.com")
    let (friend, _) = scenario.addUser(email: "friend@example.com")
    let photo = scenario.addAsset(owner: me, fileName: "a.jpg")
    scenario.addAlbum(owner: friend, name: "Trip", assets: [photo], sharedWith: [(me, .viewer)])
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "album-scenario-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try scenario.write(to: file)
    let loaded = try Scenario.load(from: file)
    #expect(loaded.albums == scenario.albums)
    try await ImmichTestServer.withRunning(loaded) { _, url in
      let listed = try await TestClient(base: url).get("/api/albums", as: .key(key.secret))
      let album = try #require(listed.json?.arrayValue?.first)
      #expect(album["albumName"] == "Trip")
      #expect(album["assetCount"] == 1)
      #expect(album["albumUsers"]?.arrayValue?.last?["role"] == "viewer")
    }
  }
}

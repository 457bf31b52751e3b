import Foundation
import ImmichTestServer
import NIOHTTP1
import Testing

/// Every operation the double serves, exercised over HTTP in v3.1 mode: the request it is sent
/// must conform to the official request schema, and the answer must carry a documented success
/// status and a body that conforms to the documented response schema.
// Skipped (and reported as skipped) when Immich's OpenAPI document is neither in docs/immich/
// (where the repository keeps a copy, unchanged) nor named by $IMMICH_OPENAPI_SPEC.
@Suite(.enabled(if: OpenAPIDocument.isAvailable, "Immich's OpenAPI document was not found"))
struct OpenAPIConformanceTests {
  typealias Key = OpenAPIDocument.OperationKey

  /// One call of one operation: the request body sent (nil when there is none) and the reply.
  struct Exercise: Sendable, CustomStringConvertible {
    var key: Key
    var status: Int
    var note: String = ""
    var run:
      @Sendable (World, ImmichTestServer, TestClient) async throws -> (ImmichJSON?, HTTPReply)
    var description: String { "\(key) → \(status)" + (note.isEmpty ? "" : " (\(note))") }

    init(
      _ method: String, _ path: String, _ status: Int, _ note: String = "",
      _ run:
        @escaping @Sendable (World, ImmichTestServer, TestClient) async throws -> (
          ImmichJSON?, HTTPReply
        )
    ) {
      self.key = Key(method, path)
      self.status = status
      self.note = note
      self.run = run
    }
  }

  static func ids(_ assets: [Scenario.Asset]) -> ImmichJSON {
    .array(assets.map { .string($0.id) })
  }

  /// A tag `trip/2026` on Alice's newest and archived photos; returns the leaf's id.
  /// An album of Alice's holding her newest asset; its id.
  static func album(_ w: World, _ c: TestClient) async throws -> String {
    let made = try await c.post(
      "/api/albums", ["albumName": "Filed", "assetIds": ids([w.newest])], as: .key(w.aliceKey))
    return try #require(made.json?["id"]?.stringValue)
  }

  static func tagged(_ w: World, _ c: TestClient) async throws -> String {
    let leaf = try await c.put("/api/tags", ["tags": ["trip/2026"]], as: .key(w.aliceKey))
    let id = leaf.json?.arrayValue?.first?["id"]?.stringValue ?? ""
    _ = try await c.put(
      "/api/tags/assets", ["tagIds": [.string(id)], "assetIds": ids([w.newest, w.archived])],
      as: .key(w.aliceKey))
    return id
  }

  static func send(
    _ c: TestClient, _ method: String, _ path: String, _ body: ImmichJSON?, as cred: Credential
  ) async throws -> (ImmichJSON?, HTTPReply) {
    let reply = try await c.send(.init(rawValue: method), path, json: body, as: cred)
    return (body, reply)
  }

  static let exercises: [Exercise] = [
    Exercise("GET", "/server/ping", 200) { _, _, c in
      try await send(c, "GET", "/api/server/ping", nil, as: .none)
    },
    Exercise("GET", "/server/version", 200) { _, _, c in
      try await send(c, "GET", "/api/server/version", nil, as: .none)
    },
    Exercise("GET", "/server/features", 200) { _, _, c in
      try await send(c, "GET", "/api/server/features", nil, as: .none)
    },
    Exercise("GET", "/server/config", 200) { _, _, c in
      try await send(c, "GET", "/api/server/config", nil, as: .none)
    },
    Exercise("GET", "/server/media-types", 200) { _, _, c in
      try await send(c, "GET", "/api/server/media-types", nil, as: .none)
    },
    Exercise("GET", "/server/about", 200) { w, _, c in
      try await send(c, "GET", "/api/server/about", nil, as: .key(w.aliceKey))
    },
    Exercise("POST", "/auth/login", 201) { _, _, c in
      try await send(
        c, "POST", "/api/auth/login", ["email": "alice@example.com", "password": "alice-pw"],
        as: .none)
    },
    Exercise("GET", "/users/me", 200) { w, _, c in
      try await send(c, "GET", "/api/users/me", nil, as: .key(w.aliceKey))
    },
    Exercise("GET", "/users/me", 200, "session") { w, _, c in
      let token = try await c.login("alice@example.com", "alice-pw")
      return try await send(c, "GET", "/api/users/me", nil, as: .bearer(token))
    },
    Exercise("GET", "/api-keys/me", 200) { w, _, c in
      try await send(c, "GET", "/api/api-keys/me", nil, as: .key(w.aliceKey))
    },
    Exercise("PUT", "/sessions/{id}", 200) { w, s, c in
      let session = s.state.createSession(userID: w.alice.id)
      return try await send(
        c, "PUT", "/api/sessions/\(session.id)", ["isPendingSyncReset": true],
        as: .bearer(session.token))
    },
    Exercise("POST", "/search/metadata", 200, "page with nextPage, video, Live Photo") { w, _, c in
      try await send(
        c, "POST", "/api/search/metadata", ["size": 3, "order": "asc", "withDeleted": true],
        as: .key(w.aliceKey))
    },
    Exercise("POST", "/search/metadata", 200, "tag filter, last page") { w, _, c in
      let tag = try await tagged(w, c)
      return try await send(
        c, "POST", "/api/search/metadata",
        ["tagIds": [.string(tag)], "visibility": "archive", "page": 1, "size": 1000],
        as: .key(w.aliceKey))
    },
    Exercise("POST", "/search/statistics", 200) { w, _, c in
      try await send(
        c, "POST", "/api/search/statistics", ["visibility": "timeline"], as: .key(w.aliceKey))
    },
    Exercise("DELETE", "/assets", 204) { w, _, c in
      try await send(c, "DELETE", "/api/assets", ["ids": ids([w.newest])], as: .key(w.aliceKey))
    },
    Exercise("DELETE", "/assets", 204, "force") { w, _, c in
      try await send(
        c, "DELETE", "/api/assets", ["ids": ids([w.liveStill]), "force": true],
        as: .key(w.aliceKey))
    },
    Exercise("GET", "/assets/{id}", 200, "with tags") { w, _, c in
      _ = try await tagged(w, c)
      return try await send(c, "GET", "/api/assets/\(w.newest.id)", nil, as: .key(w.aliceKey))
    },
    Exercise("GET", "/assets/{id}", 200, "video in trash") { w, _, c in
      _ = try await c.delete("/api/assets", ["ids": ids([w.liveVideo])], as: .key(w.aliceKey))
      return try await send(c, "GET", "/api/assets/\(w.liveVideo.id)", nil, as: .key(w.aliceKey))
    },
    Exercise("GET", "/assets/{id}/thumbnail", 200, "image bytes") { w, _, c in
      try await send(
        c, "GET", "/api/assets/\(w.newest.id)/thumbnail?size=preview&edited=false", nil,
        as: .key(w.aliceKey))
    },
    Exercise("POST", "/trash/restore/assets", 200) { w, _, c in
      try await send(
        c, "POST", "/api/trash/restore/assets", ["ids": ids([w.trashed])], as: .key(w.aliceKey))
    },
    Exercise("POST", "/trash/restore", 200) { w, _, c in
      try await send(c, "POST", "/api/trash/restore", nil, as: .key(w.aliceKey))
    },
    Exercise("POST", "/trash/empty", 200) { w, _, c in
      try await send(c, "POST", "/api/trash/empty", nil, as: .key(w.aliceKey))
    },
    Exercise("POST", "/assets/bulk-upload-check", 200) { w, _, c in
      try await send(
        c, "POST", "/api/assets/bulk-upload-check",
        [
          "assets": [
            ["id": "a.jpg", "checksum": .string(w.trashed.checksum)],
            ["id": "b.jpg", "checksum": .string(String(repeating: "ab", count: 20))],
          ]
        ], as: .key(w.aliceKey))
    },
    Exercise("POST", "/assets", 201, "created") { w, _, c in
      (nil, try await upload(c, w, bytes: Array("fresh".utf8)))
    },
    Exercise("POST", "/assets", 200, "duplicate") { w, _, c in
      _ = try await upload(c, w, bytes: Array("twice".utf8))
      return (nil, try await upload(c, w, bytes: Array("twice".utf8)))
    },
    Exercise("POST", "/tags", 201) { w, _, c in
      try await send(c, "POST", "/api/tags", ["name": "flat"], as: .key(w.aliceKey))
    },
    Exercise("POST", "/tags", 201, "parent and colour") { w, _, c in
      let parent = try await c.post("/api/tags", ["name": "root"], as: .key(w.aliceKey))
      let parentId = parent.json?["id"] ?? .null
      return try await send(
        c, "POST", "/api/tags", ["name": "child", "parentId": parentId, "color": "00ff00"],
        as: .key(w.aliceKey))
    },
    Exercise("PUT", "/tags", 200) { w, _, c in
      try await send(c, "PUT", "/api/tags", ["tags": ["a/b/c", "a/b", "//"]], as: .key(w.aliceKey))
    },
    Exercise("GET", "/tags", 200) { w, _, c in
      _ = try await tagged(w, c)
      return try await send(c, "GET", "/api/tags", nil, as: .key(w.aliceKey))
    },
    Exercise("PUT", "/tags/assets", 200) { w, _, c in
      let leaf = try await c.put("/api/tags", ["tags": ["x"]], as: .key(w.aliceKey))
      let tag = leaf.json?.arrayValue?.first?["id"] ?? .null
      return try await send(
        c, "PUT", "/api/tags/assets", ["tagIds": [tag], "assetIds": ids([w.newest, w.daves])],
        as: .key(w.aliceKey))
    },
    Exercise("GET", "/tags/{id}", 200) { w, _, c in
      let tag = try await tagged(w, c)
      return try await send(c, "GET", "/api/tags/\(tag)", nil, as: .key(w.aliceKey))
    },
    Exercise("PUT", "/tags/{id}", 200) { w, _, c in
      let tag = try await tagged(w, c)
      return try await send(
        c, "PUT", "/api/tags/\(tag)", ["color": "#123abc"], as: .key(w.aliceKey))
    },
    Exercise("DELETE", "/tags/{id}", 204) { w, _, c in
      let tag = try await tagged(w, c)
      return try await send(c, "DELETE", "/api/tags/\(tag)", nil, as: .key(w.aliceKey))
    },
    Exercise("PUT", "/tags/{id}/assets", 200, "success, duplicate, no_permission") { w, _, c in
      let tag = try await tagged(w, c)
      return try await send(
        c, "PUT", "/api/tags/\(tag)/assets", ["ids": ids([w.oldest, w.newest, w.daves])],
        as: .key(w.aliceKey))
    },
    Exercise("DELETE", "/tags/{id}/assets", 200, "success, not_found") { w, _, c in
      let tag = try await tagged(w, c)
      return try await send(
        c, "DELETE", "/api/tags/\(tag)/assets", ["ids": ids([w.newest, w.oldest])],
        as: .key(w.aliceKey))
    },
    Exercise("POST", "/albums", 201, "shared with an editor") { w, _, c in
      try await send(
        c, "POST", "/api/albums",
        [
          "albumName": "Summer", "assetIds": ids([w.newest, w.bobs]),
          "albumUsers": [["userId": .string(w.bob.id), "role": "editor"]],
        ], as: .key(w.aliceKey))
    },
    Exercise("GET", "/albums", 200, "owned, and one shared with the user") { w, _, c in
      _ = try await album(w, c)
      _ = try await c.post(
        "/api/albums",
        ["albumName": "Bob's", "albumUsers": [["userId": .string(w.alice.id), "role": "viewer"]]],
        as: .key("bob-secret"))
      return try await send(c, "GET", "/api/albums", nil, as: .key(w.aliceKey))
    },
    Exercise("GET", "/albums/{id}", 200) { w, _, c in
      let album = try await album(w, c)
      return try await send(c, "GET", "/api/albums/\(album)", nil, as: .key(w.aliceKey))
    },
    Exercise("PUT", "/albums/{id}/assets", 200, "success, duplicate, no_permission") { w, _, c in
      let album = try await album(w, c)
      return try await send(
        c, "PUT", "/api/albums/\(album)/assets", ["ids": ids([w.oldest, w.newest, w.daves])],
        as: .key(w.aliceKey))
    },
    Exercise("POST", "/sync/stream", 200, "upserts, a delete, complete") { w, _, c in
      let token = try await c.login("alice@example.com", "alice-pw")
      _ = try await c.delete(
        "/api/assets", ["ids": ids([w.oldest]), "force": true], as: .key(w.aliceKey))
      return try await send(
        c, "POST", "/api/sync/stream", ["types": ["AssetsV2", "UsersV1"]], as: .bearer(token))
    },
    Exercise("POST", "/sync/stream", 200, "reset") { w, s, c in
      let session = s.state.createSession(userID: w.alice.id)
      s.state.setPendingSyncReset(sessionID: session.id)
      return try await send(
        c, "POST", "/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(session.token))
    },
    Exercise("GET", "/sync/ack", 200) { w, _, c in
      let token = try await c.login("alice@example.com", "alice-pw")
      let lines = try await c.post("/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token))
      _ = try await c.post(
        "/api/sync/ack", ["acks": .array(lines.lines.compactMap { $0["ack"] })], as: .bearer(token))
      return try await send(c, "GET", "/api/sync/ack", nil, as: .bearer(token))
    },
    Exercise("POST", "/sync/ack", 204) { w, _, c in
      let token = try await c.login("alice@example.com", "alice-pw")
      let lines = try await c.post("/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token))
      return try await send(
        c, "POST", "/api/sync/ack", ["acks": .array(lines.lines.compactMap { $0["ack"] })],
        as: .bearer(token))
    },
    Exercise("DELETE", "/sync/ack", 204) { w, _, c in
      let token = try await c.login("alice@example.com", "alice-pw")
      return try await send(
        c, "DELETE", "/api/sync/ack", ["types": ["AssetV2"]], as: .bearer(token))
    },
  ]

  static func upload(_ c: TestClient, _ w: World, bytes: [UInt8]) async throws -> HTTPReply {
    let fields = [
      ("fileCreatedAt", "2026-01-01T00:00:00.000Z"),
      ("fileModifiedAt", "2026-01-01T00:00:00+02:00"), ("isFavorite", "false"),
    ]
    return try await c.send(
      .POST, "/api/assets", as: .key(w.aliceKey),
      raw: AssetTests.multipart(fields, file: bytes, name: "new.jpg"))
  }

  /// What only 3.2 serves: the structured search, its cursor and statistics, the new config.
  static let exercises32: [Exercise] = [
    Exercise("POST", "/search/metadata", 200, "3.2 structured, nextCursor") { w, _, c in
      try await send(
        c, "POST", "/api/search/metadata",
        [
          "size": 2, "orderBy": ["field": "fileCreatedAt", "direction": "asc"],
          "filter": ["visibility": ["in": ["timeline", "archive"]], "trashedAt": ["eq": .null]],
        ], as: .key(w.aliceKey))
    },
    Exercise("POST", "/search/metadata", 200, "3.2 structured, tag and or") { w, _, c in
      let tag = try await tagged(w, c)
      return try await send(
        c, "POST", "/api/search/metadata",
        [
          "filter": [
            "tagIds": ["all": [.string(tag)]],
            "or": [["visibility": ["eq": "archive"]], ["isFavorite": ["eq": false]]],
          ]
        ], as: .key(w.aliceKey))
    },
    Exercise("POST", "/search/statistics", 200, "3.2 structured") { w, _, c in
      try await send(
        c, "POST", "/api/search/statistics",
        ["filter": ["visibility": ["eq": "timeline"], "trashedAt": ["ne": .null]]],
        as: .key(w.aliceKey))
    },
    Exercise("GET", "/config", 200) { w, _, c in
      try await send(c, "GET", "/api/config", nil, as: .key(w.aliceKey))
    },
    Exercise("GET", "/config/defaults", 200) { w, _, c in
      try await send(c, "GET", "/api/config/defaults", nil, as: .key(w.aliceKey))
    },
    Exercise("GET", "/public/config", 200) { _, _, c in
      try await send(c, "GET", "/api/public/config", nil, as: .none)
    },
    Exercise("GET", "/public/config/defaults", 200) { _, _, c in
      try await send(c, "GET", "/api/public/config/defaults", nil, as: .none)
    },
  ]

  @Test(arguments: exercises)
  func answerConformsToTheSpec(exercise: Exercise) async throws {
    try await check(exercise, .v3_1, try #require(OpenAPIDocument.shared))
  }

  /// 3.2 answers every exercise (the deprecated flat search and server config included) and
  /// its own within 3.2.0's document: `nextCursor` required, `UserConfigDto` whole.
  @Test(arguments: exercises + exercises32)
  func answerConformsToThe32Spec(exercise: Exercise) async throws {
    try await check(exercise, .v3_2, try #require(OpenAPIDocument.v3_2))
  }

  func check(_ exercise: Exercise, _ version: ImmichVersion, _ spec: OpenAPIDocument)
    async throws
  {
    let key = exercise.key
    #expect(spec.operation(key) != nil, "the spec has no operation \(key)")
    try await withWorld(version) { w, server, client in
      let (request, reply) = try await exercise.run(w, server, client)
      if let request, let schema = spec.requestSchema(key) {
        #expect(spec.requestValidator.errors(request, schema) == [], "request sent")
      }
      #expect(reply.status == exercise.status, "\(reply.text)")
      #expect(spec.successStatuses(key).contains(reply.status), "undocumented status")
      let content = try #require(spec.responseContent(key, status: reply.status))
      if content.isEmpty && key != Key("POST", "/sync/stream") {
        #expect(reply.body.isEmpty, "a \(reply.status) without content in the spec")
        return
      }
      if key == Key("POST", "/sync/stream") {
        checkSyncLines(reply, spec)
        return
      }
      if content["application/octet-stream"] != nil {
        // Binary media: the spec says octet-stream; the server sends the file's own type.
        #expect(reply.header("content-type")?.hasPrefix("image/") == true)
        #expect(!reply.body.isEmpty)
        return
      }
      #expect(reply.header("content-type")?.hasPrefix("application/json") == true)
      let body = try #require(reply.json, "not JSON: \(reply.text)")
      let schema = try #require(spec.responseSchema(key, status: reply.status))
      #expect(spec.responseValidator.errors(body, schema) == [], "\(body.serialized)")
    }
  }

  /// The stream has no schema of its own in the spec: each line is `{type, data, ack}` with
  /// `type` a `SyncEntityType` and `data` the schema of the same name with a `Sync` prefix.
  func checkSyncLines(_ reply: HTTPReply, _ spec: OpenAPIDocument) {
    #expect(reply.header("content-type") == "application/jsonlines+json")
    let entityTypes = spec.enumValues("SyncEntityType")
    let lines = reply.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last == "", "the stream ends with a newline")
    #expect(!reply.lines.isEmpty)
    for line in reply.lines {
      guard case .object(let pairs) = line else {
        Issue.record("line is not an object: \(line.serialized)")
        continue
      }
      #expect(pairs.map(\.0).sorted() == ["ack", "data", "type"])
      let type = line["type"]?.stringValue ?? ""
      #expect(entityTypes.contains(type), "\(type) is not a SyncEntityType")
      #expect(line["ack"]?.stringValue?.hasPrefix("\(type)|") == true)
      let name = type.hasPrefix("Sync") ? type : "Sync\(type)"
      #expect(spec.schemas[name] != nil, "no schema \(name)")
      let errors = spec.responseValidator.errors(line["data"] ?? .null, ref: name)
      #expect(errors == [], "\(line.serialized)")
    }
  }

  /// Every operation the double routes has at least one exercise above, so a new route cannot
  /// escape the spec check.
  @Test func everyRouteOfTheDoubleIsExercised() throws {
    let spec = try #require(OpenAPIDocument.v3_2)
    let routed = Set(
      ServedAPI.routes.map { Key(method: $0.method, doublePath: $0.path) })
    let exercised = Set((Self.exercises + Self.exercises32).map(\.key))
    #expect(routed.subtracting(exercised).sorted() == [])
    #expect(exercised.subtracting(routed).sorted() == [])
    for key in routed.sorted() {
      #expect(spec.operation(key) != nil, "the double serves \(key), which the spec lacks")
    }
  }
}

import Foundation
import ImmichTestServer
import NIOHTTP1
import Testing

/// The double accepts what the official request schemas allow and refuses (400) what they
/// forbid. Each body is first checked against the spec's schema, so a case can only stand if the
/// spec agrees with it.
// Skipped (and reported as skipped) without Immich's OpenAPI document; see OpenAPIDocument.
@Suite(.enabled(if: OpenAPIDocument.isAvailable, "Immich's OpenAPI document was not found"))
struct RequestShapeConformanceTests {
  typealias Key = OpenAPIDocument.OperationKey

  struct Shape: Sendable, CustomStringConvertible {
    var key: Key
    var body: ImmichJSON
    var note: String
    var description: String { "\(key) \(note)" }

    init(_ method: String, _ path: String, _ note: String, _ body: ImmichJSON) {
      self.key = Key(method, path)
      self.body = body
      self.note = note
    }
  }

  static let uuid = "0b3e7f4e-2b7d-4c1a-9a51-0e2f3d4c5b6a"

  /// Bodies the spec forbids; the double must answer 400.
  static let forbidden: [Shape] = [
    Shape("POST", "/auth/login", "without password", ["email": "alice@example.com"]),
    Shape("PUT", "/sessions/{id}", "text for boolean", ["isPendingSyncReset": "yes"]),
    Shape("POST", "/search/metadata", "size 0", ["size": 0]),
    Shape("POST", "/search/metadata", "size 1001", ["size": 1001]),
    Shape("POST", "/search/metadata", "page 0", ["page": 0]),
    Shape("POST", "/search/metadata", "unknown order", ["order": "sideways"]),
    Shape("POST", "/search/metadata", "unknown visibility", ["visibility": "public"]),
    Shape("POST", "/search/metadata", "unknown type", ["type": "PHOTO"]),
    Shape("POST", "/search/metadata", "id not a uuid", ["id": "1234"]),
    Shape("POST", "/search/metadata", "date without time", ["takenAfter": "2026-01-01"]),
    Shape("POST", "/search/metadata", "tagIds not uuids", ["tagIds": ["x"]]),
    Shape("POST", "/search/metadata", "withDeleted as text", ["withDeleted": "true"]),
    Shape("POST", "/search/statistics", "unknown visibility", ["visibility": "public"]),
    Shape("DELETE", "/assets", "without ids", [:]),
    Shape("DELETE", "/assets", "ids not an array", ["ids": .string(uuid)]),
    Shape("DELETE", "/assets", "ids not uuids", ["ids": ["1234"]]),
    Shape("DELETE", "/assets", "force as text", ["ids": [.string(uuid)], "force": "true"]),
    Shape("POST", "/trash/restore/assets", "ids of numbers", ["ids": [1]]),
    Shape("POST", "/assets/bulk-upload-check", "item without checksum", ["assets": [["id": "a"]]]),
    Shape("POST", "/assets/bulk-upload-check", "without assets", [:]),
    Shape("POST", "/tags", "without name", [:]),
    Shape("POST", "/tags", "colour not hex", ["name": "x", "color": "blue"]),
    Shape("POST", "/tags", "parentId not a uuid", ["name": "x", "parentId": "root"]),
    Shape("PUT", "/tags", "tags not an array", ["tags": "a/b"]),
    Shape("PUT", "/tags/assets", "without assetIds", ["tagIds": []]),
    Shape("PUT", "/tags/{id}", "colour not hex", ["color": "#12345"]),
    Shape("PUT", "/tags/{id}/assets", "ids not uuids", ["ids": ["x"]]),
    Shape("DELETE", "/tags/{id}/assets", "without ids", [:]),
    Shape("POST", "/sync/stream", "without types", [:]),
    Shape("POST", "/sync/stream", "unknown type", ["types": ["PhotosV9"]]),
    Shape("POST", "/sync/ack", "without acks", [:]),
    Shape(
      "POST", "/sync/ack", "1001 acks", ["acks": .array(Array(repeating: "AssetV2|x", count: 1001))]
    ),
    Shape("DELETE", "/sync/ack", "unknown entity type", ["types": ["AssetsV2"]]),
  ]

  /// Unusual bodies the spec allows; the double must not answer 400.
  static let allowed: [Shape] = [
    Shape("POST", "/search/metadata", "empty", [:]),
    Shape("POST", "/search/metadata", "unknown key stripped", ["includeNull": true]),
    Shape(
      "POST", "/search/metadata", "null libraryId and tagIds",
      ["libraryId": .null, "tagIds": .null]),
    Shape(
      "POST", "/search/metadata", "date with offset", ["takenAfter": "2026-01-01T00:00:00+02:00"]),
    Shape("POST", "/search/metadata", "upper-case uuid", ["id": .string(uuid.uppercased())]),
    Shape("POST", "/search/statistics", "empty", [:]),
    Shape("POST", "/trash/restore/assets", "no ids", ["ids": []]),
    Shape(
      "POST", "/tags", "null parent and colour", ["name": "x", "parentId": .null, "color": .null]),
    Shape("POST", "/tags", "three-digit colour", ["name": "x", "color": "abc"]),
    Shape("POST", "/tags", "eight-digit colour", ["name": "x", "color": "#AABBCCDD"]),
    Shape("PUT", "/tags", "no tags", ["tags": []]),
    Shape("PUT", "/tags/{id}", "empty", [:]),
    Shape("PUT", "/tags/{id}", "null colour", ["color": .null]),
    Shape("PUT", "/tags/assets", "empty lists", ["tagIds": [], "assetIds": []]),
    Shape("PUT", "/sessions/{id}", "empty", [:]),
    Shape("POST", "/sync/stream", "no types, reset", ["types": [], "reset": true]),
    // `{"acks": []}` fits the schema too, but the real server fails it with 500 (docs/IMMICH-API.md
    // §7.3), which `SyncTests.anEmptyAckListIsA500` pins.
    Shape("DELETE", "/sync/ack", "types omitted", [:]),
    Shape("POST", "/assets/bulk-upload-check", "no assets", ["assets": []]),
  ]

  /// Sends `shape` as Alice, with a session for the session-only routes and real ids for `{id}`.
  static func send(_ shape: Shape, _ w: World, _ s: ImmichTestServer, _ c: TestClient)
    async throws -> HTTPReply
  {
    let session = s.state.createSession(userID: w.alice.id)
    var path = "/api" + shape.key.path
    if path.contains("{id}") {
      let id: String
      if shape.key.path.hasPrefix("/sessions") {
        id = session.id
      } else {
        let tag = try await c.put("/api/tags", ["tags": ["t"]], as: .key(w.aliceKey))
        id = tag.json?.arrayValue?.first?["id"]?.stringValue ?? ""
      }
      path = path.replacingOccurrences(of: "{id}", with: id)
    }
    let credential: Credential =
      shape.key.path.hasPrefix("/sync") || shape.key.path.hasPrefix("/sessions")
      ? .bearer(session.token) : .key(w.aliceKey)
    return try await c.send(
      HTTPMethod(rawValue: shape.key.method), path, json: shape.body, as: credential)
  }

  @Test(arguments: forbidden)
  func refusesWhatTheSpecForbids(shape: Shape) async throws {
    let spec = try #require(OpenAPIDocument.shared)
    let schema = try #require(spec.requestSchema(shape.key), "no request schema for \(shape.key)")
    #expect(!spec.requestValidator.errors(shape.body, schema).isEmpty, "the spec allows this body")
    try await withWorld(.v3_1) { w, server, client in
      let reply = try await Self.send(shape, w, server, client)
      #expect(reply.status == 400, "\(reply.text)")
      #expect(reply.json?["message"] == "Validation failed", "\(reply.text)")
      #expect(reply.json?["errors"]?.arrayValue?.isEmpty == false)
    }
  }

  /// Multipart uploads: the fields of `AssetMediaCreateDto`, checked field by field as JSON
  /// values against the spec (form values are text; the spec types them after coercion).
  struct Upload: Sendable, CustomStringConvertible {
    var description: String
    var fields: [(String, String)]
    /// The same fields as the DTO sees them after coercion, for the spec check.
    var coerced: ImmichJSON
    var allowed: Bool
  }

  static let created = ("fileCreatedAt", "2026-03-01T10:00:00.000Z")
  static let modified = ("fileModifiedAt", "2026-03-01T12:00:00+02:00")
  static let uploads: [Upload] = [
    Upload(
      description: "the required fields", fields: [created, modified],
      coerced: [
        "assetData": "x", "fileCreatedAt": "2026-03-01T10:00:00.000Z",
        "fileModifiedAt": "2026-03-01T12:00:00+02:00",
      ], allowed: true),
    Upload(
      description: "duration in ms", fields: [created, modified, ("duration", "2500")],
      coerced: [
        "assetData": "x", "fileCreatedAt": "2026-03-01T10:00:00.000Z",
        "fileModifiedAt": "2026-03-01T12:00:00+02:00", "duration": 2500,
      ], allowed: true),
    Upload(
      description: "v2 duration text", fields: [created, modified, ("duration", "0:00:02.50000")],
      coerced: [
        "assetData": "x", "fileCreatedAt": "2026-03-01T10:00:00.000Z",
        "fileModifiedAt": "2026-03-01T12:00:00+02:00", "duration": "0:00:02.50000",
      ],
      allowed: false),
    Upload(
      description: "without fileModifiedAt", fields: [created],
      coerced: ["assetData": "x", "fileCreatedAt": "2026-03-01T10:00:00.000Z"], allowed: false),
    Upload(
      description: "date without zone", fields: [created, ("fileModifiedAt", "2026-03-01T12:00")],
      coerced: [
        "assetData": "x", "fileCreatedAt": "2026-03-01T10:00:00.000Z",
        "fileModifiedAt": "2026-03-01T12:00",
      ], allowed: false),
    Upload(
      description: "unknown visibility", fields: [created, modified, ("visibility", "public")],
      coerced: [
        "assetData": "x", "fileCreatedAt": "2026-03-01T10:00:00.000Z",
        "fileModifiedAt": "2026-03-01T12:00:00+02:00", "visibility": "public",
      ], allowed: false),
  ]

  @Test(arguments: uploads)
  func multipartUploadFollowsTheSpec(upload: Upload) async throws {
    let spec = try #require(OpenAPIDocument.shared)
    let key = Key("POST", "/assets")
    let schema = try #require(spec.requestSchema(key, contentType: "multipart/form-data"))
    #expect(spec.requestValidator.errors(upload.coerced, schema).isEmpty == upload.allowed)
    try await withWorld(.v3_1) { w, _, client in
      let reply = try await client.send(
        .POST, "/api/assets", as: .key(w.aliceKey),
        raw: AssetTests.multipart(upload.fields, file: Array("bytes".utf8), name: "n.jpg"))
      if upload.allowed {
        #expect(reply.status == 201, "\(reply.text)")
      } else {
        #expect(reply.status == 400, "\(reply.text)")
        #expect(reply.json?["message"] == "Validation failed")
      }
    }
  }

  @Test(arguments: allowed)
  func acceptsWhatTheSpecAllows(shape: Shape) async throws {
    let spec = try #require(OpenAPIDocument.shared)
    let schema = try #require(spec.requestSchema(shape.key), "no request schema for \(shape.key)")
    #expect(spec.requestValidator.errors(shape.body, schema) == [], "the spec forbids this body")
    try await withWorld(.v3_1) { w, server, client in
      let reply = try await Self.send(shape, w, server, client)
      #expect((200..<300).contains(reply.status), "\(reply.text)")
    }
  }
}

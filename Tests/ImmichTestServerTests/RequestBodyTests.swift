import Foundation
import ImmichTestServer
import Testing

/// docs/IMMICH-API.md §8.4: a body is JSON only under `Content-Type: application/json`. A client that
/// forgets the header must fail here as it would against Immich — loudly on v3, and on v2.7.5
/// with a search that quietly drops its filters.
@Suite struct RequestBodyTests {
  static let careless: [String?] = [nil, "text/plain"]

  @Test(arguments: careless)
  func v3RefusesABodyItDidNotRead(contentType: String?) async throws {
    try await withWorld(.v3_1) { w, server, client in
      let undefined: ImmichJSON = [
        "message": "Validation failed",
        "errors": [
          [
            "code": "invalid_type", "expected": "object", "path": [],
            "message": "Invalid input: expected object, received undefined",
          ]
        ],
      ]
      let search = try await client.sendText(
        .POST, "/api/search/metadata", #"{"checksum":"\#(w.newest.checksum)"}"#,
        contentType: contentType, as: .key(w.aliceKey))
      #expect(search.status == 400)
      #expect(search.json == undefined)

      let before = server.state.assets
      let delete = try await client.sendText(
        .DELETE, "/api/assets", #"{"ids":["\#(w.newest.id)"]}"#, contentType: contentType,
        as: .key(w.aliceKey))
      #expect(delete.status == 400)
      #expect(delete.json == undefined)
      #expect(server.state.assets == before)
    }
  }

  /// The dangerous one: the search answers 200 with the first page of the timeline, which a
  /// client would take for the assets matching its checksum.
  @Test(arguments: careless)
  func v2RunsASearchWithoutItsFiltersAndRefusesTheDelete(contentType: String?) async throws {
    try await withWorld(.v2_7) { w, server, client in
      let everything = try await client.searchIds([:], as: .key(w.aliceKey))
      #expect(everything.count > 1)
      let search = try await client.sendText(
        .POST, "/api/search/metadata", #"{"checksum":"\#(w.newest.checksum)"}"#,
        contentType: contentType, as: .key(w.aliceKey))
      #expect(search.status == 200)
      let ids = search.json?["assets"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
      #expect(ids == everything)

      let before = server.state.assets
      let delete = try await client.sendText(
        .DELETE, "/api/assets", #"{"ids":["\#(w.newest.id)"]}"#, contentType: contentType,
        as: .key(w.aliceKey))
      #expect(delete.status == 400)
      #expect(delete.json?["message"]?.strings.contains("ids must be an array") == true)
      #expect(server.state.assets == before)
    }
  }

  /// JSON text under the form type is one odd key, stripped: the defaults run.
  @Test(arguments: ImmichVersion.allCases)
  func aFormEncodedBodyRunsWithTheDefaults(version: ImmichVersion) async throws {
    try await withWorld(version) { w, server, client in
      let everything = try await client.searchIds([:], as: .key(w.aliceKey))
      let search = try await client.sendText(
        .POST, "/api/search/metadata", #"{"id":"\#(w.newest.id)"}"#,
        contentType: "application/x-www-form-urlencoded", as: .key(w.aliceKey))
      #expect(search.status == 200)
      let ids = search.json?["assets"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
      #expect(ids == everything)
      let before = server.state.assets
      let delete = try await client.sendText(
        .DELETE, "/api/assets", #"{"ids":["\#(w.newest.id)"]}"#,
        contentType: "application/x-www-form-urlencoded", as: .key(w.aliceKey))
      #expect(delete.status == 400)
      #expect(server.state.assets == before)
    }
  }

  struct Unparsable: Sendable, CustomStringConvertible {
    var text: String
    var message: String
    var description: String { text }
  }

  static let unparsable: [Unparsable] = [
    Unparsable(
      text: #"{"size":1"#,
      message: "Expected ',' or '}' after property value in JSON at position 9 (line 1 column 10)"),
    Unparsable(text: "5", message: #"Unexpected token '5', "5" is not valid JSON"#),
    Unparsable(text: #""abc""#, message: #"Unexpected token '"', ""abc"" is not valid JSON"#),
    Unparsable(
      text: #"{"size":1,}"#,
      message: "Expected double-quoted property name in JSON at position 10 (line 1 column 11)"),
    Unparsable(
      text: #"{"ids":[1 2]}"#,
      message: "Expected ',' or ']' after array element in JSON at position 10 (line 1 column 11)"),
    Unparsable(
      text: #"{"a":tru}"#, message: #"Unexpected token '}', "{"a":tru}" is not valid JSON"#),
    Unparsable(
      text: #"{"size":1000,"checksum":"abcdefghijklmnop","x":tru}"#,
      message: #"Unexpected token '}', ..."p","x":tru}" is not valid JSON"#),
    Unparsable(text: #"{"a":"#, message: "Unexpected end of JSON input"),
  ]

  /// body-parser's SyntaxError becomes a 400 with JSON.parse's message, never a 500.
  @Test(arguments: unparsable, ImmichVersion.allCases)
  func unparsableJSONIsA400WithTheParsersMessage(body: Unparsable, version: ImmichVersion)
    async throws
  {
    try await withWorld(version) { w, _, client in
      let reply = try await client.sendText(
        .POST, "/api/search/metadata", body.text, contentType: "application/json",
        as: .key(w.aliceKey))
      #expect(reply.status == 400)
      #expect(reply.json?["message"] == .string(body.message))
    }
  }

  /// The parser runs before routing and authentication.
  @Test func badJSONIsRefusedBeforeTheRouteOrTheKeyIsLookedAt() async throws {
    try await withWorld(.v3_1) { _, _, client in
      for path in ["/api/search/metadata", "/api/no-such-route"] {
        let reply = try await client.sendText(
          .POST, path, "{", contentType: "application/json")
        #expect(reply.status == 400)
        #expect(
          reply.json?["message"]
            == "Expected property name or '}' in JSON at position 1 (line 1 column 2)")
      }
    }
  }

  @Test(arguments: ImmichVersion.allCases)
  func anArrayBodyIsRefusedByV3AndReadAsNoFieldsByV2(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, client in
      let reply = try await client.sendText(
        .POST, "/api/search/metadata", "[]", contentType: "application/json",
        as: .key(w.aliceKey))
      if version != .v2_7 {
        #expect(reply.status == 400)
        #expect(reply.json?["errors"]?.arrayValue?.first?["path"] == [])
        #expect(
          reply.json?["errors"]?.arrayValue?.first?["message"]
            == "Invalid input: expected object, received array")
      } else {
        #expect(reply.status == 200)
      }
    }
  }

  /// Parameters of the media type do not matter; the log keeps the header as sent.
  @Test func aCharsetParameterStillReadsAsJSON() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let reply = try await client.sendText(
        .POST, "/api/search/metadata", #"{"id":"\#(w.newest.id)"}"#,
        contentType: "Application/JSON; charset=utf-8", as: .key(w.aliceKey))
      #expect(reply.status == 200)
      #expect(reply.json?["assets"]?["count"] == 1)
      let logged = server.log.requests(method: "POST", path: "/api/search/metadata")
      #expect(logged.last?.contentType == "Application/JSON; charset=utf-8")
    }
  }
}

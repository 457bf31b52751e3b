import Foundation
import ImmichTestServer
import Testing

/// 3.2's structured search as docs/IMMICH-API.md §14 describes it: the path a body chooses, the trash
/// semantics, strict validation, the cursor, and the shape Immich 4 is expected to have.
@Suite struct StructuredSearchTests {
  func ids(_ reply: HTTPReply) -> [String] {
    reply.json?["assets"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
  }

  func messages(_ reply: HTTPReply) -> [String] {
    reply.json?["errors"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
  }

  /// No trash default: trashed assets and force-deleted ones awaiting the purge come back
  /// unless `trashedAt: {eq: null}`; `{ne: null}` selects the trash. The flat search hides the
  /// trash as before. Partners come back; locked never does.
  @Test func filterModeHasNoTrashDefault() async throws {
    let world = World(.v3_2)
    try await world.run { server, c in
      let w = world
      server.state.trash([w.newest.id])
      server.state.emptyTrash(userID: w.alice.id)
      let key = Credential.key(w.aliceKey)
      let everything = try await c.post(
        "/api/search/metadata", ["filter": ["visibility": ["eq": "timeline"]]], as: key)
      #expect(everything.status == 200)
      #expect(
        Set(ids(everything)) == [w.oldest.id, w.trashed.id, w.liveStill.id, w.newest.id, w.bobs.id])
      #expect(everything.json?["assets"]?["nextCursor"] == .null)
      #expect(everything.json?["assets"]?["nextPage"] == .null)
      let active = try await c.post(
        "/api/search/metadata",
        ["filter": ["visibility": ["eq": "timeline"], "trashedAt": ["eq": .null]]], as: key)
      #expect(Set(ids(active)) == [w.oldest.id, w.liveStill.id, w.bobs.id])
      let trash = try await c.post(
        "/api/search/metadata", ["filter": ["trashedAt": ["ne": .null]]], as: key)
      #expect(Set(ids(trash)) == [w.trashed.id, w.newest.id])
      let flat = try await c.searchIds(["visibility": "timeline"], as: key)
      #expect(Set(flat) == [w.oldest.id, w.liveStill.id, w.bobs.id])
      let flatReply = try await c.post("/api/search/metadata", ["size": 1], as: key)
      #expect(flatReply.json?["assets"]?["nextCursor"] == .null)
      #expect(flatReply.json?["assets"]?["nextPage"] == "2")
      // Everything but locked, the archive and hidden included, by default.
      let all = try await c.post("/api/search/metadata", ["filter": [:] as ImmichJSON], as: key)
      #expect(!ids(all).contains(w.locked.id))
      #expect(ids(all).contains(w.archived.id) && ids(all).contains(w.liveVideo.id))
      // An `or` of branches, with a tag filter through the closure table.
      let either = try await c.post(
        "/api/search/metadata",
        [
          "filter": [
            "or": [["visibility": ["eq": "archive"]], ["originalFileName": ["like": "live%"]]]
          ]
        ], as: key)
      #expect(Set(ids(either)) == [w.archived.id, w.liveStill.id, w.liveVideo.id])
    }
  }

  @Test func theCursorPagesAndIsChecked() async throws {
    let world = World(.v3_2)
    try await world.run { _, c in
      let key = Credential.key(world.aliceKey)
      var seen: [String] = []
      var body: ImmichJSON = ["size": 2, "orderBy": ["direction": "asc"]]
      var pages = 0
      while true {
        let reply = try await c.post("/api/search/metadata", body, as: key)
        #expect(reply.status == 200, "\(reply.text)")
        seen += ids(reply)
        pages += 1
        guard let cursor = reply.json?["assets"]?["nextCursor"]?.stringValue else { break }
        let decoded = Data(
          base64Encoded: cursor + String(repeating: "=", count: (4 - cursor.count % 4) % 4))
        #expect(decoded.map { String(decoding: $0, as: UTF8.self) } == #"{"offset":\#(pages * 2)}"#)
        body = ["size": 2, "orderBy": ["direction": "asc"], "cursor": .string(cursor)]
      }
      #expect(pages == 4)  // Alice's six (trashed included, locked not) and Bob's one
      #expect(seen.count == 7)
      #expect(seen.count == Set(seen).count)
      #expect(seen.first == world.oldest.id)
      for bad in ["nope", "eyJwYWdlIjoxfQ", "eyJvZmZzZXQiOi0xfQ"] {
        let reply = try await c.post("/api/search/metadata", ["cursor": .string(bad)], as: key)
        #expect(reply.status == 400)
        #expect(reply.json?["message"] == "Invalid cursor", "\(bad)")
      }
    }
  }

  @Test func validationIsStrict() async throws {
    let world = World(.v3_2)
    try await world.run { _, c in
      let key = Credential.key(world.aliceKey)
      func post(_ body: ImmichJSON) async throws -> HTTPReply {
        try await c.post("/api/search/metadata", body, as: key)
      }
      let mixed = try await post(["filter": [:] as ImmichJSON, "page": 1, "withDeleted": .null])
      #expect(mixed.status == 400)
      #expect(
        messages(mixed) == [
          "Deprecated field page cannot be combined with filter",
          "Deprecated field withDeleted cannot be combined with filter",
        ])
      let unknown = try await post(["filter": ["colour": ["eq": "red"]]])
      #expect(messages(unknown) == [#"Unrecognized key: "colour""#])
      let empty = try await post(["filter": ["id": [:] as ImmichJSON]])
      #expect(messages(empty) == ["At least one of the following fields is required: eq, ne"])
      let badId = try await post(["filter": ["id": ["eq": "1234"]]])
      #expect(messages(badId) == ["Invalid UUID"])
      let emptyIn = try await post(["filter": ["type": ["in": []]]])
      #expect(messages(emptyIn) == ["Too small: expected array to have >=1 items"])
      let emptyOr = try await post(["filter": ["or": []]])
      #expect(emptyOr.status == 400)
      let order = try await post(["orderBy": ["field": "name"]])
      #expect(order.status == 400)
      // Optional, not nullable: a null `orderBy` or `cursor` is refused, not read as absent.
      let nullOrder = try await post(["orderBy": .null])
      #expect(nullOrder.status == 400)
      #expect(messages(nullOrder) == ["Invalid input: expected object, received null"])
      let nullCursor = try await post(["filter": [:] as ImmichJSON, "cursor": .null])
      #expect(messages(nullCursor) == ["Invalid input: expected string, received null"])
      // A visibility that can reach the locked folder needs elevation a key never has.
      for visibility: ImmichJSON in [
        ["eq": "locked"], ["ne": "timeline"], ["in": ["archive", "locked"]],
      ] {
        let locked = try await post(["filter": ["visibility": visibility]])
        #expect(locked.status == 401)
        #expect(locked.json?["message"] == "Elevated permission is required")
      }
      let notLocked = try await post(["filter": ["visibility": ["notIn": ["locked"]]]])
      #expect(notLocked.status == 200)
    }
  }

  /// `StatisticsSearchDto` gained only `filter` in 3.2: `orderBy`, `cursor`, `size` and
  /// `withDeleted` are not its keys, so zod strips them — they neither choose the structured
  /// path, nor fail beside `filter`, nor change the count.
  @Test func statisticsIgnoresOrderCursorSizeAndWithDeleted() async throws {
    let world = World(.v3_2)
    try await world.run { _, c in
      let key = Credential.key(world.aliceKey)
      func total(_ body: ImmichJSON) async throws -> ImmichJSON? {
        let reply = try await c.post("/api/search/statistics", body, as: key)
        #expect(reply.status == 200, "\(body.serialized): \(reply.text)")
        return reply.json?["total"]
      }
      let flat = try await total(["visibility": "timeline"])
      #expect(flat == 4)
      // Without `filter` this is the flat search: `orderBy` does not make `visibility` a
      // deprecated field beside a new one.
      #expect(
        try await total(["visibility": "timeline", "orderBy": ["field": "rating"], "cursor": "x"])
          == flat)
      let filter: ImmichJSON = ["visibility": ["eq": "timeline"], "trashedAt": ["eq": .null]]
      let structured = try await total(["filter": filter])
      #expect(structured == flat)
      #expect(
        try await total([
          "filter": filter, "orderBy": .null, "cursor": "not a cursor", "size": 1,
          "withDeleted": true,
        ]) == structured)
    }
  }

  /// Before 3.2 the new keys are unknown and stripped: a filter is ignored, which is why cairn
  /// chooses the dialect from the version and never by trying.
  @Test func olderVersionsIgnoreTheNewKeys() async throws {
    let world = World(.v3_1)
    try await world.run { _, c in
      let reply = try await c.post(
        "/api/search/metadata", ["filter": ["id": ["eq": .string(world.newest.id)]]],
        as: .key(world.aliceKey))
      #expect(reply.status == 200)
      #expect(ids(reply).count > 1)
      #expect(reply.json?["assets"]?["nextCursor"] == nil)
      let config = try await c.get("/api/config", as: .key(world.aliceKey))
      #expect(config.status == 404)
    }
  }

  /// The v4 shape: flat fields refused, the deprecated server config gone, the new path and
  /// `GET /config` (with its permission) working.
  @Test func theV4ShapeRefusesTheFlatFields() async throws {
    var world = World(.v3_2)
    world.scenario.deprecatedRemoved = true
    _ = world.scenario.addKey(
      for: world.alice, name: "no-config", secret: "no-config",
      permissions: [Permission.assetRead])
    try await world.run { _, c in
      let key = Credential.key(world.aliceKey)
      let flat = try await c.post("/api/search/metadata", ["visibility": "timeline"], as: key)
      #expect(flat.status == 400)
      #expect(messages(flat) == [#"Unrecognized key: "visibility""#])
      let sizeOnly = try await c.post("/api/search/metadata", ["size": 10], as: key)
      #expect(sizeOnly.status == 200)
      #expect(try await c.get("/api/server/config").status == 404)
      #expect(try await c.get("/api/server/features").status == 404)
      let config = try await c.get("/api/config", as: key)
      #expect(config.json?["trash"] == ["enabled": true, "days": 30])
      let denied = try await c.get("/api/config", as: .key("no-config"))
      #expect(denied.status == 403)
      #expect(denied.json?["message"] == "Missing required permission: userConfig.read")
    }
  }
}

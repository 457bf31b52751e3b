import Foundation
import ImmichTestServer
import NIOHTTP1
import Testing

@Suite struct AuthenticationTests {
  @Test func apiKeyWorksAsHeaderAndAsQuery() async throws {
    try await withWorld(.v3_1) { world, _, client in
      #expect(try await client.get("/api/users/me", as: .key(world.aliceKey)).status == 200)
      let viaQuery = try await client.get("/api/users/me", as: .keyInQuery(world.aliceKey))
      #expect(viaQuery.json?["email"] == "alice@example.com")
      let bad = try await client.get("/api/users/me", as: .key("wrong"))
      #expect(bad.status == 401)
      #expect(bad.json == ["message": "Invalid API key"])
    }
  }

  @Test func loginReturns201AndASessionToken() async throws {
    try await withWorld(.v3_1) { world, server, client in
      let reply = try await client.post(
        "/api/auth/login", ["email": "alice@example.com", "password": "alice-pw"])
      #expect(reply.status == 201)
      let body = try #require(reply.json)
      #expect(body["userId"]?.stringValue == world.alice.id)
      #expect(body["userEmail"] == "alice@example.com")
      #expect(body["name"] == "Alice")
      for key in ["profileImagePath", "isAdmin", "shouldChangePassword", "isOnboarded"] {
        #expect(body[key] != nil, "missing \(key)")
      }
      let token = try #require(body["accessToken"]?.stringValue)
      #expect(try await client.get("/api/users/me", as: .bearer(token)).status == 200)
      #expect(try await client.get("/api/users/me", as: .userToken(token)).status == 200)
      #expect(server.state.sessions.map(\.userId) == [world.alice.id])
    }
  }

  @Test func loginFailuresAre401WithTheServersMessages() async throws {
    var world = World(.v3_1)
    try await world.run { _, client in
      let wrong = try await client.post(
        "/api/auth/login", ["email": "alice@example.com", "password": "nope"])
      #expect(wrong.status == 401)
      #expect(wrong.json == ["message": "Incorrect email or password"])
    }
    world.scenario.passwordLoginEnabled = false
    try await world.run { _, client in
      let disabled = try await client.post(
        "/api/auth/login", ["email": "alice@example.com", "password": "alice-pw"])
      #expect(disabled.status == 401)
      #expect(disabled.json == ["message": "Password login has been disabled"])
    }
  }

  /// A session wins over an API key, whichever is valid.
  @Test func sessionTakesPrecedenceOverAPIKey() async throws {
    try await withWorld(.v3_1) { world, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let both = try await client.send(
        .GET, "/api/users/me", as: .bearer(token), headers: [("x-api-key", "wrong")])
      #expect(both.status == 200)
      let badSession = try await client.send(
        .GET, "/api/users/me", as: .bearer("nonsense"), headers: [("x-api-key", world.aliceKey)])
      #expect(badSession.status == 401)
      #expect(badSession.json == ["message": "Invalid user token"])
      // Sessions are never permission-limited; the bare key is.
      #expect(try await client.get("/api/server/about", as: .bearer(token)).status == 200)
    }
  }

  @Test func apiKeysMeListsPermissionsAndRefusesSessions() async throws {
    try await withWorld(.v3_1) { world, _, client in
      let mine = try await client.get("/api/api-keys/me", as: .key(world.bareKey))
      #expect(mine.status == 200)
      #expect(mine.json?["name"] == "bare")
      #expect(mine.json?["permissions"] == [])
      let all = try await client.get("/api/api-keys/me", as: .key(world.aliceKey))
      #expect(all.json?["permissions"] == ["all"])
      let token = try await client.login("alice@example.com", "alice-pw")
      let session = try await client.get("/api/api-keys/me", as: .bearer(token))
      #expect(session.status == 403)
      #expect(session.json == ["message": "Not authenticated with an API Key"])
    }
  }

  @Test func sessionUpdateSetsPendingSyncReset() async throws {
    try await withWorld(.v3_1) { world, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let id = try #require(server.state.sessions.first?.id)
      let reply = try await client.put(
        "/api/sessions/\(id)", ["isPendingSyncReset": true], as: .bearer(token))
      #expect(reply.status == 200)
      #expect(reply.json?["isPendingSyncReset"] == true)
      #expect(reply.json?["current"] == true)
      #expect(server.state.sessions.first?.isPendingSyncReset == true)
      let foreign = try await client.put(
        "/api/sessions/\(id)", ["isPendingSyncReset": false], as: .key("bob-secret"))
      #expect(foreign.status == 400)
      #expect(server.state.sessions.first?.isPendingSyncReset == true)
    }
  }

  struct Guarded: Sendable, CustomStringConvertible {
    var method: String
    var path: String
    var body: ImmichJSON?
    var permission: String
    var description: String { "\(method) \(path)" }
  }

  static let someId = "6f1c4f1e-6d8a-4a55-9a0e-5f3b7c2d1e0a"

  static let guarded: [Guarded] = [
    .init(method: "GET", path: "/api/users/me", permission: "user.read"),
    .init(method: "GET", path: "/api/server/about", permission: "server.about"),
    .init(method: "POST", path: "/api/search/metadata", body: [:], permission: "asset.read"),
    .init(
      method: "POST", path: "/api/search/statistics", body: [:], permission: "asset.statistics"),
    .init(method: "GET", path: "/api/assets/\(someId)", permission: "asset.read"),
    .init(method: "DELETE", path: "/api/assets", body: ["ids": []], permission: "asset.delete"),
    .init(method: "POST", path: "/api/trash/empty", permission: "asset.delete"),
    .init(method: "POST", path: "/api/trash/restore", permission: "asset.delete"),
    .init(
      method: "POST", path: "/api/trash/restore/assets", body: ["ids": []],
      permission: "asset.delete"),
    .init(
      method: "POST", path: "/api/assets/bulk-upload-check", body: ["assets": []],
      permission: "asset.upload"),
    .init(method: "POST", path: "/api/assets", permission: "asset.upload"),
    .init(method: "POST", path: "/api/tags", body: ["name": "x"], permission: "tag.create"),
    .init(method: "PUT", path: "/api/tags", body: ["tags": []], permission: "tag.create"),
    .init(method: "GET", path: "/api/tags", permission: "tag.read"),
    .init(method: "GET", path: "/api/tags/\(someId)", permission: "tag.read"),
    .init(method: "PUT", path: "/api/tags/\(someId)", body: [:], permission: "tag.update"),
    .init(method: "DELETE", path: "/api/tags/\(someId)", permission: "tag.delete"),
    .init(
      method: "PUT", path: "/api/tags/assets", body: ["tagIds": [], "assetIds": []],
      permission: "tag.asset"),
    .init(
      method: "PUT", path: "/api/tags/\(someId)/assets", body: ["ids": []], permission: "tag.asset"),
    .init(
      method: "DELETE", path: "/api/tags/\(someId)/assets", body: ["ids": []],
      permission: "tag.asset"),
    .init(
      method: "POST", path: "/api/sync/stream", body: ["types": ["AssetsV2"]],
      permission: "sync.stream"),
    .init(method: "GET", path: "/api/sync/ack", permission: "syncCheckpoint.read"),
    .init(
      method: "POST", path: "/api/sync/ack", body: ["acks": []], permission: "syncCheckpoint.update"
    ),
    .init(method: "DELETE", path: "/api/sync/ack", body: [:], permission: "syncCheckpoint.delete"),
  ]

  /// Each route's permission, checked for API keys: without it, 403 with the exact message;
  /// with exactly that permission, the guard lets the request through.
  @Test(arguments: guarded)
  func apiKeyPermissionsPerEndpoint(route: Guarded) async throws {
    var world = World(.v3_1)
    world.scenario.addKey(
      for: world.alice, name: "exact", secret: "exact", permissions: [route.permission])
    try await world.run { _, client in
      let method = HTTPMethod(rawValue: route.method)
      let denied = try await client.send(
        method, route.path, json: route.body, as: .key(world.bareKey))
      #expect(denied.status == 403)
      #expect(
        denied.json == ["message": .string("Missing required permission: \(route.permission)")])
      let allowed = try await client.send(method, route.path, json: route.body, as: .key("exact"))
      #expect(
        allowed.status != 403
          || allowed.json?["message"] == "Sync endpoints cannot be used with API keys")
      #expect(allowed.status != 401)
    }
  }
}

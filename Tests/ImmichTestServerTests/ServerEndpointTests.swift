import Foundation
import ImmichTestServer
import Testing

@Suite struct ServerEndpointTests {
  @Test(arguments: ImmichVersion.allCases)
  func versionReportsTheModeAndPrereleaseOnlyInV3(version: ImmichVersion) async throws {
    try await withWorld(version) { _, _, client in
      let reply = try await client.get("/api/server/version")
      #expect(reply.status == 200)
      #expect(reply.header("content-type") == "application/json; charset=utf-8")
      let minor = version.number.split(separator: ".")[1]
      let expected =
        version != .v2_7
        ? #"{"major":3,"minor":\#(minor),"patch":0,"prerelease":null}"#
        : #"{"major":2,"minor":7,"patch":5}"#
      #expect(reply.text == expected)
    }
  }

  @Test func pingAnswersPong() async throws {
    try await withWorld(.v3_1) { _, _, client in
      let reply = try await client.get(
        "/api/server/ping", headers: [("Accept", "application/json")])
      #expect(reply.status == 200)
      #expect(reply.text == #"{"res":"pong"}"#)
    }
  }

  @Test(arguments: [true, false])
  func featuresHasExactlySixteenBooleansAndTheConfiguredTrash(trash: Bool) async throws {
    var world = World(.v3_1)
    world.scenario.trashEnabled = trash
    world.scenario.trashDays = 12
    try await world.run { _, client in
      let features = try #require(try await client.get("/api/server/features").json)
      guard case .object(let pairs) = features else { Issue.record("not an object"); return }
      #expect(
        Set(pairs.map(\.0)) == [
          "smartSearch", "duplicateDetection", "configFile", "facialRecognition", "map", "trash",
          "reverseGeocoding", "importFaces", "oauth", "oauthAutoLaunch", "passwordLogin", "sidecar",
          "search", "email", "ocr", "realtimeTranscoding",
        ])
      #expect(pairs.count == 16)
      #expect(pairs.allSatisfy { $0.1.boolValue != nil })
      #expect(features["trash"] == .bool(trash))
      let config = try await client.get("/api/server/config").json
      #expect(config?["trashDays"] == 12)
    }
  }

  @Test(arguments: ImmichVersion.allCases)
  func aboutNeedsServerAboutPermission(version: ImmichVersion) async throws {
    try await withWorld(version) { world, _, client in
      #expect(try await client.get("/api/server/about").status == 401)
      let denied = try await client.get("/api/server/about", as: .key(world.bareKey))
      #expect(denied.status == 403)
      #expect(denied.json?["message"] == "Missing required permission: server.about")
      let about = try await client.get("/api/server/about", as: .key(world.aliceKey))
      #expect(about.status == 200)
      #expect(about.json?["version"]?.stringValue == ("v" + version.number))
      #expect(about.json?["licensed"] == false)
    }
  }

  @Test func mediaTypesAndWellKnownDiscovery() async throws {
    try await withWorld(.v3_1) { _, _, client in
      let media = try await client.get("/api/server/media-types").json
      #expect(media?["image"]?.strings.contains(".heic") == true)
      #expect(media?["video"]?.strings.contains(".mov") == true)
      let wellKnown = try await client.get("/.well-known/immich")
      #expect(wellKnown.text == #"{"api":{"endpoint":"/api"}}"#)
    }
  }

  /// A client given the web URL instead of the API base sees HTML, or 406 if it wants JSON.
  @Test(arguments: ImmichVersion.allCases)
  func nonAPIPathsBehaveLikeTheWebApp(version: ImmichVersion) async throws {
    try await withWorld(version) { _, _, client in
      let html = try await client.get("/server/ping")
      #expect(html.status == 200)
      #expect(html.header("content-type")?.hasPrefix("text/html") == true)
      #expect(html.header("cache-control") == "no-store")
      let refused = try await client.get("/server/ping", headers: [("Accept", "application/json")])
      #expect(refused.status == 406)
      #expect(
        refused.json?["message"]
          == "The route /server/ping was requested as application/json, but only returns text/html")
    }
  }

  @Test(arguments: ImmichVersion.allCases)
  func unknownAPIRoutesAre404InTheVersionsErrorShape(version: ImmichVersion) async throws {
    try await withWorld(version) { _, _, client in
      let reply = try await client.get("/api/nothing/here")
      #expect(reply.status == 404)
      #expect(reply.json?["message"] == "Cannot GET /api/nothing/here")
      #expect((reply.json?["statusCode"] == 404) == (version == .v2_7))
    }
  }

  /// v3: `{message}` plus an `X-Correlation-ID` header; v2: message, error, statusCode and
  /// correlationId in the body.
  @Test(arguments: ImmichVersion.allCases)
  func errorBodiesFollowTheVersion(version: ImmichVersion) async throws {
    try await withWorld(version) { _, _, client in
      let reply = try await client.get("/api/users/me")
      #expect(reply.status == 401)
      let body = try #require(reply.json)
      if version != .v2_7 {
        #expect(body == ["message": "Authentication required"])
        #expect(reply.header("x-correlation-id")?.count == 36)
      } else {
        #expect(body["message"] == "Authentication required")
        #expect(body["error"] == "Unauthorized")
        #expect(body["statusCode"] == 401)
        #expect(body["correlationId"]?.stringValue?.count == 36)
      }
    }
  }

  @Test(arguments: ImmichVersion.allCases)
  func validationErrorsFollowTheVersion(version: ImmichVersion) async throws {
    try await withWorld(version) { world, _, client in
      let reply = try await client.get("/api/assets/not-a-uuid", as: .key(world.aliceKey))
      #expect(reply.status == 400)
      let body = try #require(reply.json)
      if version != .v2_7 {
        #expect(body["message"] == "Validation failed")
        let issue = try #require(body["errors"]?.arrayValue?.first)
        #expect(issue["path"] == ["id"])
        #expect(issue["message"] == "Invalid UUID")
      } else {
        #expect(body["message"] == ["id must be a UUID"])
        #expect(body["error"] == "Bad Request")
        #expect(body["statusCode"] == 400)
      }
    }
  }
}

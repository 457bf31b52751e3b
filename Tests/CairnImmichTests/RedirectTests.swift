import CairnRecords
import CairnSettings
import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

@testable import CairnImmich

/// A server that redirects cairn elsewhere gets nothing sent there: no API key, no session
/// token, no login body. The other server is a second double with the same users, so it would
/// take every secret and answer as if it were Alice's Immich; its log must stay empty. Only a
/// redirect that stays on IMMICH_URL's scheme, host and port is followed.
@Suite struct RedirectTests {
  let credentials = ["IMMICH_EMAIL": "alice@example.com", "IMMICH_PASSWORD": Library.alicePassword]

  func fetch(_ h: Harness, _ arguments: [String] = [], _ extra: [String: String] = [:])
    async throws -> ToolResult
  {
    var env = h.environment(["CAIRN_HTTP_ATTEMPTS": "2"])
    for (key, value) in extra { env[key] = value }
    return try await ToolRunner.runDetached(
      "cairn-fetch", arguments, environment: env, workingDirectory: h.folder.path)
  }

  /// Runs `body` with Alice's server and another that records what it is sent, named by a
  /// host name of its own (`localhost`, where Alice's is `127.0.0.1`).
  func withForeignServer(
    _ library: Library, _ body: (Harness, ImmichTestServer, String) async throws -> Void
  ) async throws {
    try await withServer(library.scenario) { h in
      try await ImmichTestServer.withRunning(library.scenario) { foreign, url in
        let port = try #require(url.port)
        try await body(h, foreign, "http://localhost:\(port)")
      }
    }
  }

  /// The one line a refused redirect ends with: where to, and what to set.
  func expectRefusal(_ result: ToolResult, to address: String) {
    #expect(result.status == ExitStatus.serverFailure.rawValue, "\(result.stderr)")
    #expect(
      result.stderr.contains("the server redirected to another server, \(address);"),
      "\(result.stderr)")
    #expect(result.stderr.contains("set IMMICH_URL to it"))
    #expect(!result.stderr.contains(Library.aliceKey))
    #expect(!result.stderr.contains(Library.alicePassword))
  }

  @Test(arguments: ImmichVersion.both)
  func theKeyNeverFollowsARedirectToAnotherServer(version: ImmichVersion) async throws {
    try await withForeignServer(Library(version)) { h, foreign, address in
      h.server.faults.inject(
        Fault(
          method: "GET", path: "/api/users/me",
          action: .redirect(307, location: address + "/api/users/me?token=x")))
      let result = try await fetch(h)
      expectRefusal(result, to: address)
      #expect(result.stderr.contains("GET /api/users/me: "))
      #expect(!result.stderr.contains("token=x"))
      #expect(try result.records(ofType: "asset").isEmpty)
      #expect(foreign.log.all.isEmpty)
    }
  }

  @Test(arguments: ImmichVersion.both)
  func thePasswordNeverFollowsARedirectToAnotherServer(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withForeignServer(library) { h, foreign, address in
      h.server.faults.inject(
        Fault(
          method: "POST", path: "/api/auth/login",
          action: .redirect(308, location: address + "/api/auth/login")))
      let login = try await fetch(h, ["login"], credentials)
      expectRefusal(login, to: address)
      #expect(foreign.log.all.isEmpty)
      let paths = CairnPaths(environment: h.environment())
      let partition = ServerPartition(serverURL: h.base + "/api", userId: library.alice.id)
      #expect(try SessionStore.load(paths, partition) == nil)
    }
  }

  /// The sync stream carries the session token; refused, the run lists page by page with the
  /// key on Alice's own server, and says why.
  @Test(arguments: ImmichVersion.both)
  func theSessionNeverFollowsARedirectToAnotherServer(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withForeignServer(library) { h, foreign, address in
      let login = try await fetch(h, ["login"], credentials)
      #expect(login.status == 0, "\(login.stderr)")
      h.server.faults.inject(
        Fault(
          method: "POST", path: "/api/sync/stream",
          action: .redirect(307, location: address + "/api/sync/stream")))
      let result = try await fetch(h)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          "sync stream failed (POST /api/sync/stream: the server redirected"
            + " to another server, \(address);"), "\(result.stderr)")
      #expect(try result.records(ofType: "asset").count == library.expectedIds.count)
      #expect(foreign.log.all.isEmpty)
    }
  }

  /// A reverse proxy's redirect on the same server is followed, with the login body, and each
  /// request it took is counted in the end record as the server saw it.
  @Test(arguments: ImmichVersion.both)
  func aRedirectOnTheSameServerIsFollowed(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      h.server.faults.inject(
        Fault(
          method: "POST", path: "/api/auth/login",
          action: .redirect(307, location: "/api/auth/login")))
      let login = try await fetch(h, ["login"], credentials)
      #expect(login.status == 0, "\(login.stderr)")
      #expect(h.server.log.requests(method: "POST", path: "/api/auth/login").count == 2)

      h.server.log.clear()
      h.server.faults.inject(
        Fault(
          method: "GET", path: "/api/users/me",
          action: .redirect(301, location: h.base + "/api/users/me")))
      let result = try await fetch(h, ["--no-sync"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try result.records(ofType: "asset").count == library.expectedIds.count)
      let me = h.server.log.requests(method: "GET", path: "/api/users/me")
      #expect(me.map(\.status) == [301, 200])
      let end = try #require(try result.records(ofType: "end").last)
      #expect((end["counts"] as? [String: Int])?["requests"] == h.server.log.all.count)
    }
  }

  /// `/.well-known/immich` could name an API elsewhere, and the key would follow the API base.
  @Test(arguments: ImmichVersion.both)
  func theKeyNeverGoesWhereTheWellKnownDocumentPoints(version: ImmichVersion) async throws {
    try await withForeignServer(Library(version)) { h, foreign, address in
      h.server.faults.inject(
        Fault(
          method: "GET", path: "/.well-known/immich",
          action: .status(200, body: #"{"api":{"endpoint":"\#(address)/api"}}"#)))
      let result = try await fetch(h)
      #expect(result.status == ExitStatus.serverFailure.rawValue, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          "GET /.well-known/immich: the server puts its API on another server, \(address);"),
        "\(result.stderr)")
      #expect(foreign.log.all.isEmpty)
    }
  }

  /// A server that keeps redirecting to itself is given up on after five.
  @Test func endlessRedirectsEnd() async throws {
    try await withServer(Library(.v3_2).scenario) { h in
      h.server.faults.inject(
        Fault(
          method: "GET", path: "/api/users/me", count: 20,
          action: .redirect(302, location: "/api/users/me")))
      let result = try await fetch(h)
      #expect(result.status == ExitStatus.serverFailure.rawValue)
      #expect(
        result.stderr.contains("GET /api/users/me: more than 5 redirects"), "\(result.stderr)")
      #expect(h.server.log.requests(method: "GET", path: "/api/users/me").count == 6)
    }
  }
}

/// Where `RedirectPolicy` lets a request go, address by address.
@Suite struct RedirectPolicyTests {
  func decide(_ from: String, _ to: String) -> String {
    switch RedirectPolicy.decide(from: from, location: to) {
    case .follow(let url): return "follow " + url
    case .refuse(let words): return words
    }
  }

  @Test func theSameServerIsFollowed() {
    let here = "https://photos.example.net/api/users/me"
    #expect(decide(here, "/api/users/me/") == "follow https://photos.example.net/api/users/me/")
    #expect(
      decide(here, "https://PHOTOS.example.net:443/x")
        == "follow https://PHOTOS.example.net:443/x")
    #expect(
      decide("http://127.0.0.1:2283/users/me", "/api/users/me")
        == "follow http://127.0.0.1:2283/api/users/me")
  }

  /// An upgrade only encrypts what the first request already sent to that host.
  @Test func httpToHttpsOnTheSameHostIsFollowed() {
    #expect(
      decide("http://photos.lan/api/users/me", "https://photos.lan/api/users/me")
        == "follow https://photos.lan/api/users/me")
  }

  @Test func aDowngradeIsRefused() {
    let words = decide("https://photos.lan/api/users/me", "http://photos.lan/api/users/me")
    #expect(words.hasPrefix("the server redirected from https to plain http (http://photos.lan)"))
  }

  @Test func anotherHostOrPortIsRefusedAndNamedWithoutItsPath() {
    for (to, shown) in [
      ("https://evil.example.org/api/users/me?apiKey=abc", "https://evil.example.org"),
      ("https://photos.example.net:8443/api", "https://photos.example.net:8443"),
      ("//user:pw@other.example/api", "https://other.example"),
    ] {
      let words = decide("https://photos.example.net/api/users/me", to)
      #expect(words.hasPrefix("the server redirected to another server, \(shown);"), "\(to)")
      #expect(!words.contains("apiKey") && !words.contains("pw") && !words.contains("/api"))
    }
  }
}

import AsyncHTTPClient
import Foundation
import ImmichTestServer
import NIOCore
import Testing

@Suite struct FaultInjectionTests {
  @Test func statusFaultAnswersTheNextNRequestsThenStops() async throws {
    try await withWorld(.v3_1) { w, server, client in
      server.faults.inject(
        Fault(method: "POST", path: "/api/search/metadata", count: 2, action: .status(503, body: #"{"message":"down"}"#)))
      for _ in 0..<2 {
        let reply = try await client.post("/api/search/metadata", [:], as: .key(w.aliceKey))
        #expect(reply.status == 503)
        #expect(reply.json == ["message": "down"])
      }
      #expect(try await client.post("/api/search/metadata", [:], as: .key(w.aliceKey)).status == 200)
      #expect(server.log.all.map(\.fault) == ["status", "status", nil])
    }
  }

  @Test func patternsMatchParametersAndMethods() async throws {
    try await withWorld(.v3_1) { w, server, client in
      server.faults.inject(Fault(method: "GET", path: "/api/assets/:id", action: .status(500)))
      let other = try await client.delete("/api/assets", ["ids": []], as: .key(w.aliceKey))
      #expect(other.status == 204)
      let faulted = try await client.get("/api/assets/\(w.newest.id)", as: .key(w.aliceKey))
      #expect(faulted.status == 500)
      let normal = try await client.get("/api/assets/\(w.newest.id)", as: .key(w.aliceKey))
      #expect(normal.status == 200)
    }
  }

  @Test func delayFaultWaitsThenAnswersNormally() async throws {
    try await withWorld(.v3_1) { _, server, client in
      server.faults.inject(Fault(path: "/api/server/ping", action: .delay(seconds: 0.4)))
      let started = ContinuousClock.now
      let reply = try await client.get("/api/server/ping")
      #expect(ContinuousClock.now - started >= .milliseconds(400))
      #expect(reply.text == #"{"res":"pong"}"#)
    }
  }

  @Test func resetClosesTheConnectionWithoutAResponse() async throws {
    try await withWorld(.v3_1) { w, server, client in
      server.faults.inject(Fault(method: "DELETE", path: "/api/assets", action: .reset))
      await #expect(throws: (any Error).self) {
        _ = try await client.delete("/api/assets", ["ids": [.string(w.newest.id)]], as: .key(w.aliceKey))
      }
      // The route never ran, and the log says so.
      #expect(server.state.trashedAssetIDs == [w.trashed.id])
      let entry = try #require(server.log.all.last)
      #expect(entry.status == nil)
      #expect(entry.fault == "reset")
      #expect(try await client.get("/api/server/ping").status == 200)
    }
  }

  /// The stream's head and K lines arrive, then the connection drops before the final chunk.
  @Test func truncatedSyncStreamStopsAfterKLines() async throws {
    try await withWorld(.v3_1) { _, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      server.faults.inject(Fault(path: "/api/sync/stream", action: .truncateStream(afterLines: 3)))
      var request = HTTPClientRequest(url: client.base.absoluteString + "/api/sync/stream")
      request.method = .POST
      request.headers.add(name: "Authorization", value: "Bearer \(token)")
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: #"{"types":["AssetsV2"]}"#))
      let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
      #expect(response.status.code == 200)
      var received = ""
      var failed = false
      do {
        for try await chunk in response.body { received += String(buffer: chunk) }
      } catch {
        failed = true
      }
      #expect(failed)
      let lines = received.split(separator: "\n")
      #expect(lines.count == 3)
      #expect(!received.contains("SyncCompleteV1"))
      #expect(server.log.all.last?.fault == "truncate")
      // The next stream is whole again.
      let whole = try await client.post("/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token))
      #expect(whole.lines.last?["type"] == "SyncCompleteV1")
    }
  }
}

@Suite struct RequestLogTests {
  @Test func recordsWhatWasSentWithoutSecrets() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      _ = try await client.post("/api/search/metadata", ["size": 5], as: .keyInQuery(w.aliceKey))
      _ = try await client.get("/api/users/me", as: .bearer(token))
      _ = try await client.get("/api/users/me", as: .key("not-a-key"))
      let log = server.log.all
      #expect(log.map(\.path) == ["/api/auth/login", "/api/search/metadata", "/api/users/me", "/api/users/me"])
      #expect(log.map(\.status) == [201, 200, 200, 401])
      #expect(log[0].body.contains("alice@example.com"))
      #expect(log[1].query == ["apiKey": "<redacted>"])
      #expect(log[1].body == #"{"size":5}"#)
      #expect(log[1].credential.kind == .apiKey)
      #expect(log[1].credential.name == "Alice-key")
      #expect(log[1].credential.source == "apiKey-query")
      #expect(log[2].credential.kind == .session)
      #expect(log[3].credential.valid == false)
      let everything = log.map { "\($0)" }.joined()
      for secret in [w.aliceKey, token, "alice-pw"] {
        #expect(!everything.contains(secret), "log leaks \(secret)")
      }
      #expect(server.log.mutating.isEmpty)
      server.log.clear()
      #expect(server.log.all.isEmpty)
    }
  }

  @Test func mutatingRequestsAreFlagged() async throws {
    try await withWorld(.v3_1) { w, server, client in
      _ = try await client.post("/api/assets/bulk-upload-check", ["assets": []], as: .key(w.aliceKey))
      _ = try await client.delete("/api/assets", ["ids": []], as: .key(w.aliceKey))
      _ = try await client.put("/api/tags", ["tags": ["x"]], as: .key(w.aliceKey))
      #expect(server.log.mutating.map(\.path) == ["/api/assets", "/api/tags"])
    }
  }
}

@Suite struct ControlAPITests {
  @Test func controlRoutesDriveTheServerAndStayOutOfTheLog() async throws {
    try await withWorld(.v3_1) { w, server, client in
      _ = try await client.get("/api/server/ping")
      let requests = try await client.get("/__testserver/requests").json
      #expect(requests?.arrayValue?.count == 1)
      #expect(requests?.arrayValue?.first?["path"] == "/api/server/ping")
      _ = try await client.post("/__testserver/reset-log")
      #expect(server.log.all.isEmpty)

      let fault = try await client.post(
        "/__testserver/faults", ["method": "GET", "path": "/api/users/me", "status": 502, "body": "{}"])
      #expect(fault.status == 200)
      #expect(try await client.get("/api/users/me", as: .key(w.aliceKey)).status == 502)

      let state = try #require(try await client.get("/__testserver/state").json)
      #expect(state["assets"] == 10)
      #expect(state["trashedIds"] == [.string(w.trashed.id)])

      let before = server.state.now
      let advanced = try await client.post("/__testserver/advance-clock", ["days": 31])
      #expect(advanced.status == 200)
      #expect(server.state.now.timeIntervalSince(before) > 30 * 86_400)

      _ = try await client.login("alice@example.com", "alice-pw")
      _ = try await client.post("/__testserver/pending-reset", [:])
      let flagged = server.state.sessions.map(\.isPendingSyncReset)
      #expect(flagged == [true])
      #expect(server.log.all.map(\.path) == ["/api/users/me", "/api/auth/login"])
    }
  }
}

@Suite struct ScenarioTests {
  @Test func scenarioRoundTripsThroughJSONFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let world = World(.v2_7)
    let file = folder.appendingPathComponent("scenario.json")
    try world.scenario.write(to: file)
    let loaded = try Scenario.load(from: file)
    #expect(loaded.version == .v2_7)
    #expect(loaded.users == world.scenario.users)
    #expect(loaded.apiKeys == world.scenario.apiKeys)
    #expect(loaded.partners == world.scenario.partners)
    #expect(loaded.assets.map(\.id) == world.scenario.assets.map(\.id))
    #expect(loaded.assets.map { $0.trashedAt != nil } == world.scenario.assets.map { $0.trashedAt != nil })
  }

  @Test func handWrittenScenarioUsesDefaults() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("s.json")
    try Data(
      """
      {"version":"v2.7","trashEnabled":false,
       "users":[{"id":"0d5e3c1a-1f2b-4c3d-8e4f-5a6b7c8d9e0f","email":"x@example.com"}],
       "apiKeys":[{"name":"k","secret":"s","ownerId":"0d5e3c1a-1f2b-4c3d-8e4f-5a6b7c8d9e0f"}],
       "assets":[{"ownerId":"0d5e3c1a-1f2b-4c3d-8e4f-5a6b7c8d9e0f","originalFileName":"a.jpg",
                  "fileCreatedAt":"2026-01-01T00:00:00Z","trashed":true}]}
      """.utf8
    ).write(to: file)
    let scenario = try Scenario.load(from: file)
    #expect(scenario.trashEnabled == false)
    #expect(scenario.trashDays == 30)
    #expect(scenario.apiKeys.first?.permissions == ["all"])
    #expect(scenario.assets.first?.trashedAt != nil)
    #expect(scenario.assets.first?.visibility == .timeline)
  }

  @Test func generatedScenarioIsFastAndDistinct() {
    let started = ContinuousClock.now
    let scenario = Scenario.generated(count: 100_000)
    #expect(ContinuousClock.now - started < .seconds(10))
    #expect(Set(scenario.assets.map(\.checksum)).count == 100_000)
    #expect(scenario.apiKeys.first?.secret == "demo-secret")
  }
}

@Suite struct WireFormatTests {
  @Test func timestampsAreMillisecondISO8601InUTC() async throws {
    var world = World(.v3_1)
    world.scenario.assets[0].fileCreatedAt = Date(timeIntervalSince1970: 951_782_400.123)  // 2000-02-29
    try await world.run { _, client in
      let asset = try await client.get("/api/assets/\(world.oldest.id)", as: .key(world.aliceKey)).json
      #expect(asset?["fileCreatedAt"] == "2000-02-29T00:00:00.123Z")
    }
  }

  @Test func parserKeepsKeyOrderAndEscapes() {
    let parsed = JSON.parse(Array(#"{"b":1,"a":[true,null,"x\"\u00e9\n"],"c":{"d":-1.5e1}}"#.utf8))
    guard case .object(let pairs)? = parsed else {
      Issue.record("not parsed")
      return
    }
    #expect(pairs.map(\.0) == ["b", "a", "c"])
    #expect(parsed?["a"] == [true, .null, "x\"é\n"])
    #expect(parsed?["c"]?["d"] == .number(-15))
    #expect(JSON.parse(Array("{".utf8)) == nil)
    #expect(JSON.parse(Array("[1] x".utf8)) == nil)
  }
}

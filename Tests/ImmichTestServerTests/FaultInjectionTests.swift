import AsyncHTTPClient
import Foundation
import ImmichTestServer
import NIOCore
import Testing

@Suite struct FaultInjectionTests {
  @Test func statusFaultAnswersTheNextNRequestsThenStops() async throws {
    try await withWorld(.v3_1) { w, server, client in
      server.faults.inject(
        Fault(
          method: "POST", path: "/api/search/metadata", count: 2,
          action: .status(503, body: #"{"message":"down"}"#)))
      for _ in 0..<2 {
        let reply = try await client.post("/api/search/metadata", [:], as: .key(w.aliceKey))
        #expect(reply.status == 503)
        #expect(reply.json == ["message": "down"])
      }
      #expect(
        try await client.post("/api/search/metadata", [:], as: .key(w.aliceKey)).status == 200)
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
        _ = try await client.delete(
          "/api/assets", ["ids": [.string(w.newest.id)]], as: .key(w.aliceKey))
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
      let whole = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token))
      #expect(whole.lines.last?["type"] == "SyncCompleteV1")
    }
  }

  /// An endless stream repeats the real lines, never `SyncCompleteV1`, for as long as the client
  /// reads; an endless line never ends. Both are armed through the control API too.
  @Test(arguments: ["lines", "line"])
  func endlessSyncStreamKeepsSending(shape: String) async throws {
    try await withWorld(.v3_1) { _, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let real = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token))
      let armed = try await client.post(
        "/__testserver/faults", ["path": "/api/sync/stream", "endless": .string(shape)],
        as: .none)
      #expect(armed.status == 200)
      var request = HTTPClientRequest(url: client.base.absoluteString + "/api/sync/stream")
      request.method = .POST
      request.headers.add(name: "Authorization", value: "Bearer \(token)")
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: #"{"types":["AssetsV2"]}"#))
      let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
      #expect(response.status.code == 200)
      // Four times the whole real stream, then the client hangs up.
      let enough = 4 * real.body.count
      var received = ""
      for try await chunk in response.body {
        received += String(buffer: chunk)
        if received.utf8.count > enough { break }
      }
      #expect(received.utf8.count > enough)
      #expect(!received.contains("SyncCompleteV1"))
      let newlines = received.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      if shape == "lines" {
        #expect(newlines > 3 * (real.lines.count - 1))
      } else {
        #expect(newlines == 0)
      }
      #expect(server.log.all.last { $0.path == "/api/sync/stream" }?.fault == "endless")
    }
  }
}

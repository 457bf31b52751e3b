import Foundation
import ImmichTestServer
import Testing

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
        "/__testserver/faults",
        ["method": "GET", "path": "/api/users/me", "status": 502, "body": "{}"])
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

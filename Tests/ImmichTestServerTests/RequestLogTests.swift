import Foundation
import ImmichTestServer
import Testing

@Suite struct RequestLogTests {
  @Test func recordsWhatWasSentWithoutSecrets() async throws {
    try await withWorld(.v3_1) { w, server, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      _ = try await client.post("/api/search/metadata", ["size": 5], as: .keyInQuery(w.aliceKey))
      _ = try await client.get("/api/users/me", as: .bearer(token))
      _ = try await client.get("/api/users/me", as: .key("not-a-key"))
      let log = server.log.all
      #expect(
        log.map(\.path) == [
          "/api/auth/login", "/api/search/metadata", "/api/users/me", "/api/users/me",
        ])
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
      _ = try await client.post(
        "/api/assets/bulk-upload-check", ["assets": []], as: .key(w.aliceKey))
      _ = try await client.delete("/api/assets", ["ids": []], as: .key(w.aliceKey))
      _ = try await client.put("/api/tags", ["tags": ["x"]], as: .key(w.aliceKey))
      #expect(server.log.mutating.map(\.path) == ["/api/assets", "/api/tags"])
    }
  }
}

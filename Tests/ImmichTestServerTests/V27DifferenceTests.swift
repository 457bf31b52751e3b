import Foundation
import ImmichTestServer
import Testing

/// There is no v2.7 document here, so v2.7 mode is checked against the v3.1 document: the only
/// schema violations allowed are the differences docs/IMMICH-API.md documents for v2.x. That pins each
/// difference and shows, in passing, that the conformance check does catch wrong documents.
// Skipped (and reported as skipped) without Immich's OpenAPI document; see OpenAPIDocument.
@Suite(.enabled(if: OpenAPIDocument.isAvailable, "Immich's OpenAPI document was not found"))
struct V27DifferenceTests {
  /// §3.4: `duration` is `"H:MM:SS.fffff"` text; v2 still had `deviceAssetId` and `deviceId`.
  @Test func assetResponseDiffersOnlyInDurationAndDeviceFields() async throws {
    let spec = try #require(OpenAPIDocument.shared)
    try await withWorld(.v2_7) { w, _, client in
      for asset in [w.liveVideo, w.newest] {
        let body = try #require(
          try await client.get("/api/assets/\(asset.id)", as: .key(w.aliceKey)).json)
        #expect(
          Set(spec.responseValidator.errors(body, ref: "AssetResponseDto")) == [
            "$.duration: expected integer, got string",
            "$: property 'deviceAssetId' is not declared by the schema",
            "$: property 'deviceId' is not declared by the schema",
          ])
      }
      let page = try #require(
        try await client.post("/api/search/metadata", [:], as: .key(w.aliceKey)).json)
      let item = try #require(page["assets"]?["items"]?.arrayValue?.first)
      #expect(spec.responseValidator.errors(item, ref: "AssetResponseDto").count == 3)
    }
  }

  /// §7.2: v2's `AssetV1` lacks `createdAt`, which the v3 `SyncAssetV1` schema added; its
  /// `duration` is text, as the v3 V1 schema still says.
  @Test func syncAssetV1DiffersOnlyInCreatedAt() async throws {
    let spec = try #require(OpenAPIDocument.shared)
    try await withWorld(.v2_7) { _, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let reply = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV1"]], as: .bearer(token))
      let upserts = reply.lines.filter { $0["type"] == "AssetV1" }
      #expect(upserts.count == 7)
      for line in upserts {
        #expect(
          spec.responseValidator.errors(line["data"] ?? .null, ref: "SyncAssetV1") == [
            "$: missing required property 'createdAt'"
          ])
      }
    }
  }

  /// §11: `prerelease` arrived with v3.0.
  @Test func versionLacksOnlyPrerelease() async throws {
    let spec = try #require(OpenAPIDocument.shared)
    try await withWorld(.v2_7) { _, _, client in
      let body = try #require(try await client.get("/api/server/version").json)
      #expect(
        spec.responseValidator.errors(body, ref: "ServerVersionResponseDto") == [
          "$: missing required property 'prerelease'"
        ])
    }
  }

  /// §8.2 and §9: the missing device fields are reported in v2's error shape, in
  /// class-validator's words.
  @Test func uploadWithoutDeviceFieldsIsAV2ValidationError() async throws {
    try await withWorld(.v2_7) { w, _, client in
      let boundary = "v2-boundary"
      var body = ""
      for (name, value) in [
        ("fileCreatedAt", "2026-03-01T10:00:00.000Z"), ("fileModifiedAt", "2026-03-01T10:00:00Z"),
      ] {
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n"
        body += "\(value)\r\n"
      }
      body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"assetData\"; "
      body += "filename=\"a.jpg\"\r\n\r\nbytes\r\n--\(boundary)--\r\n"
      let reply = try await client.send(
        .POST, "/api/assets", as: .key(w.aliceKey),
        raw: (Array(body.utf8), "multipart/form-data; boundary=\(boundary)"))
      #expect(reply.status == 400)
      let json = try #require(reply.json)
      let messages = json["message"]?.strings ?? []
      #expect(messages.count == 2)
      #expect(messages.contains("deviceAssetId must be a string"))
      #expect(messages.contains("deviceId must be a string"))
      #expect(json["error"] == "Bad Request")
      #expect(json["statusCode"] == 400)
      #expect(json["correlationId"]?.stringValue?.count == 36)
    }
  }

  /// §8.2: class-validator's sentences, not zod's issues.
  @Test func validationMessagesAreClassValidators() async throws {
    try await withWorld(.v2_7) { w, _, client in
      let key = Credential.key(w.aliceKey)
      let ids = try await client.delete("/api/assets", ["ids": ["not-a-uuid"]], as: key)
      #expect(ids.status == 400)
      #expect(ids.json?["message"] == ["each value in ids must be a UUID"])
      let size = try await client.post("/api/search/metadata", ["size": 5000], as: key)
      #expect(size.json?["message"] == ["size must not be greater than 1000"])
      let flag = try await client.post("/api/search/metadata", ["withDeleted": "yes"], as: key)
      #expect(flag.json?["message"] == ["withDeleted must be a boolean value"])
      let missing = try await client.delete("/api/assets", [:], as: key)
      #expect(
        missing.json?["message"] == [
          "each value in ids must be a UUID", "ids should not be empty", "ids must be an array",
        ])
      // `ValidateDate`'s transform throws before validation, with a message of its own.
      let date = try await client.post("/api/search/metadata", ["takenAfter": "soon"], as: key)
      #expect(date.json?["message"] == "takenAfter must be a date string")
      let type = try await client.post("/api/search/metadata", ["type": "PHOTO"], as: key)
      #expect(
        type.json?["message"] == [
          "type must be one of the following values: IMAGE, VIDEO, AUDIO, OTHER"
        ])
    }
  }

  /// §8.2: `x-immich-cid` on every response, 15 features, no `minFaces`.
  @Test func serverEndpointsAreV2s() async throws {
    try await withWorld(.v2_7) { _, _, client in
      let features = try await client.get("/api/server/features")
      guard case .object(let pairs)? = features.json else {
        Issue.record("features is not an object")
        return
      }
      #expect(pairs.count == 15)
      #expect(features.json?["realtimeTranscoding"] == nil)
      let config = try await client.get("/api/server/config")
      #expect(config.json?["minFaces"] == nil)
      #expect(config.json?["trashDays"] == 30)
      for reply in [features, config, try await client.get("/api/nothing-here")] {
        #expect(reply.header("x-immich-cid")?.count == 36)
        #expect(reply.header("X-Correlation-ID") == nil)
      }
    }
  }

  /// §7.2: sync sends the `duration` column as it is — null for a still — where the asset
  /// DTO fills in zero.
  @Test func aStillsDurationIsNullInSyncOnly() async throws {
    try await withWorld(.v2_7) { w, _, client in
      let token = try await client.login("alice@example.com", "alice-pw")
      let lines = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV1"]], as: .bearer(token)
      ).lines
      let still = try #require(lines.first { $0["data"]?["id"]?.stringValue == w.newest.id })
      #expect(still["data"]?["duration"] == .null)
      let video = try #require(lines.first { $0["data"]?["id"]?.stringValue == w.liveVideo.id })
      #expect(video["data"]?["duration"] == "0:00:02.50000")
      let dto = try await client.get("/api/assets/\(w.newest.id)", as: .key(w.aliceKey)).json
      #expect(dto?["duration"] == "0:00:00.00000")
    }
  }

  /// §1.3 and §8.2: a missing permission is a 403 in v2's shape too.
  @Test func missingPermissionIsAV2Forbidden() async throws {
    try await withWorld(.v2_7) { w, _, client in
      let reply = try await client.delete("/api/assets", ["ids": []], as: .key(w.bareKey))
      #expect(reply.status == 403)
      let json = try #require(reply.json)
      #expect(json["message"] == "Missing required permission: asset.delete")
      #expect(json["error"] == "Forbidden")
      #expect(json["statusCode"] == 403)
    }
  }
}

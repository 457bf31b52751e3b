import Foundation
import ImmichTestServer
import NIOHTTP1
import Testing

/// Generated from the spec: for every property of every JSON request body the double accepts, a
/// value of the wrong type (or format, or enum) must be refused with 400 "Validation failed"
/// naming that property — as zod does for every declared field, modelled by the double or not.
// Skipped (and reported as skipped) without Immich's OpenAPI document; see OpenAPIDocument.
@Suite(.enabled(if: OpenAPIDocument.isAvailable, "Immich's OpenAPI document was not found"))
struct PropertyTypeConformanceTests {
  typealias Key = OpenAPIDocument.OperationKey

  /// A body the spec and the double accept, for each operation with a JSON request body.
  static let bases: [(Key, ImmichJSON)] = [
    (Key("POST", "/auth/login"), ["email": "alice@example.com", "password": "alice-pw"]),
    (Key("PUT", "/sessions/{id}"), [:]),
    (Key("POST", "/search/metadata"), [:]),
    (Key("POST", "/search/statistics"), [:]),
    (Key("DELETE", "/assets"), ["ids": []]),
    (Key("POST", "/trash/restore/assets"), ["ids": []]),
    (Key("POST", "/assets/bulk-upload-check"), ["assets": []]),
    (Key("POST", "/tags"), ["name": "fresh"]),
    (Key("PUT", "/tags"), ["tags": []]),
    (Key("PUT", "/tags/{id}"), [:]),
    (Key("PUT", "/tags/assets"), ["tagIds": [], "assetIds": []]),
    (Key("PUT", "/tags/{id}/assets"), ["ids": []]),
    (Key("DELETE", "/tags/{id}/assets"), ["ids": []]),
    (Key("POST", "/sync/stream"), ["types": []]),
    (Key("POST", "/sync/ack"), ["acks": []]),
    (Key("DELETE", "/sync/ack"), [:]),
  ]

  /// A value `schema` forbids, or nil when the subset cannot produce one.
  static func wrongValue(_ schema: [String: Any], _ spec: OpenAPIDocument) -> ImmichJSON? {
    if let ref = schema["$ref"] as? String {
      let name = String(ref.split(separator: "/").last ?? "")
      return (spec.schemas[name] as? [String: Any]).flatMap { wrongValue($0, spec) }
    }
    if let parts = schema["allOf"] as? [[String: Any]], let first = parts.first {
      return wrongValue(first, spec)
    }
    switch schema["type"] as? String {
    case "boolean": return "yes"
    case "integer", "number": return "1"
    case "array": return "not-an-array"
    case "object": return "not-an-object"
    case "string":
      if schema["enum"] != nil || schema["format"] != nil || schema["pattern"] != nil {
        return "!!not-valid!!"
      }
      return 12
    default: return nil
    }
  }

  @Test(arguments: bases.map(\.0))
  func everyDeclaredPropertyIsTypeChecked(key: Key) async throws {
    let spec = try #require(OpenAPIDocument.shared)
    let base = try #require(Self.bases.first { $0.0 == key }?.1)
    let schema = try #require(spec.requestSchema(key))
    let resolved = try #require(
      (schema["$ref"] as? String).flatMap { spec.schemas[String($0.split(separator: "/").last!)] }
        as? [String: Any])
    let properties = try #require(resolved["properties"] as? [String: Any])
    try await withWorld(.v3_1) { w, server, client in
      let session = server.state.createSession(userID: w.alice.id)
      var path = "/api" + key.path
      if key.path.hasPrefix("/sessions") {
        path = path.replacingOccurrences(of: "{id}", with: session.id)
      } else if key.path.contains("{id}") {
        let tag = try await client.put("/api/tags", ["tags": ["t"]], as: .key(w.aliceKey))
        let id = tag.json?.arrayValue?.first?["id"]?.stringValue ?? ""
        path = path.replacingOccurrences(of: "{id}", with: id)
      }
      let credential: Credential =
        key.path.hasPrefix("/sync") || key.path.hasPrefix("/sessions")
        ? .bearer(session.token) : .key(w.aliceKey)
      for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
        guard let property = property as? [String: Any], let wrong = Self.wrongValue(property, spec)
        else { continue }
        guard case .object(let pairs) = base else { continue }
        let body = ImmichJSON.object(pairs.filter { $0.0 != name } + [(name, wrong)])
        #expect(!spec.requestValidator.errors(body, schema).isEmpty, "spec allows \(name)")
        let reply = try await client.send(
          HTTPMethod(rawValue: key.method), path, json: body, as: credential)
        #expect(reply.status == 400, "\(key) \(name)=\(wrong.serialized): \(reply.text)")
        let paths = reply.json?["errors"]?.arrayValue?.compactMap { $0["path"]?.arrayValue?.first }
        #expect(paths?.contains(.string(name)) == true, "\(key) \(name): \(reply.text)")
      }
    }
  }
}

import Foundation
import ImmichTestServer

/// Immich's official OpenAPI document (v3.1.0), read where the workplace and CI keep it. It is
/// Immich's file, so it is not copied into this repository: the conformance suites are skipped
/// (visibly) when it cannot be found.
final class OpenAPIDocument: @unchecked Sendable {
  // @unchecked: the parsed tree is never mutated after `init`.
  let paths: [String: Any]
  let schemas: [String: Any]
  let location: URL

  /// `$IMMICH_OPENAPI_SPEC`, else `../shared/immich/immich-openapi-specs.json` beside the package.
  static let candidates: [URL] = {
    var urls: [URL] = []
    if let env = ProcessInfo.processInfo.environment["IMMICH_OPENAPI_SPEC"], !env.isEmpty {
      urls.append(URL(fileURLWithPath: env))
    }
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    urls.append(
      packageRoot.appendingPathComponent("../shared/immich/immich-openapi-specs.json")
        .standardizedFileURL)
    return urls
  }()

  /// The document, or nil when no candidate exists or parses.
  static let shared: OpenAPIDocument? = candidates.lazy.compactMap(OpenAPIDocument.init).first

  static var isAvailable: Bool { shared != nil }

  init?(_ url: URL) {
    guard let data = FileManager.default.contents(atPath: url.path),
      let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let paths = root["paths"] as? [String: Any],
      let components = root["components"] as? [String: Any],
      let schemas = components["schemas"] as? [String: Any]
    else { return nil }
    self.paths = paths
    self.schemas = schemas
    self.location = url
  }

  /// Strict for responses (see `SchemaValidator.rejectUndeclaredProperties`).
  var responseValidator: SchemaValidator {
    SchemaValidator(schemas: schemas, rejectUndeclaredProperties: true)
  }
  var requestValidator: SchemaValidator { SchemaValidator(schemas: schemas) }

  /// One operation: `method` upper case, `path` as the spec writes it (no `/api`, `{id}`).
  struct OperationKey: Hashable, Sendable, CustomStringConvertible, Comparable {
    var method: String
    var path: String
    var description: String { "\(method) \(path)" }
    static func < (a: Self, b: Self) -> Bool { a.description < b.description }

    /// The double's `/api/tags/:id/assets` as the spec's `/tags/{id}/assets`.
    init(method: String, doublePath: String) {
      self.method = method
      let trimmed = doublePath.hasPrefix("/api/") ? String(doublePath.dropFirst(4)) : doublePath
      self.path = trimmed.split(separator: "/").map {
        $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0)
      }.reduce("") { $0 + "/" + $1 }
    }

    init(_ method: String, _ path: String) {
      self.method = method
      self.path = path
    }
  }

  func operation(_ key: OperationKey) -> [String: Any]? {
    (paths[key.path] as? [String: Any])?[key.method.lowercased()] as? [String: Any]
  }

  /// Every operation in the document.
  var operations: [OperationKey] {
    paths.flatMap { path, item -> [OperationKey] in
      let methods = (item as? [String: Any])?.keys ?? [String: Any]().keys
      return methods.filter { ["get", "put", "post", "delete", "patch"].contains($0) }
        .map { OperationKey($0.uppercased(), path) }
    }.sorted()
  }

  /// `x-immich-permission`, or nil for public and `permission: false` routes.
  func permission(_ key: OperationKey) -> String? {
    operation(key)?["x-immich-permission"] as? String
  }

  /// Whether the operation declares any security requirement (nil or `[]` means public).
  func requiresAuthentication(_ key: OperationKey) -> Bool {
    !((operation(key)?["security"] as? [Any]) ?? []).isEmpty
  }

  /// The documented 2xx status codes.
  func successStatuses(_ key: OperationKey) -> Set<Int> {
    let responses = operation(key)?["responses"] as? [String: Any] ?? [:]
    return Set(responses.keys.compactMap(Int.init).filter { (200..<300).contains($0) })
  }

  /// The `content` map of one documented response; `[:]` when it has no body.
  func responseContent(_ key: OperationKey, status: Int) -> [String: Any]? {
    let responses = operation(key)?["responses"] as? [String: Any]
    guard let response = responses?[String(status)] as? [String: Any] else { return nil }
    return response["content"] as? [String: Any] ?? [:]
  }

  func responseSchema(_ key: OperationKey, status: Int) -> [String: Any]? {
    (responseContent(key, status: status)?["application/json"] as? [String: Any])?["schema"]
      as? [String: Any]
  }

  func requestSchema(_ key: OperationKey, contentType: String = "application/json")
    -> [String: Any]?
  {
    let body = operation(key)?["requestBody"] as? [String: Any]
    let content = body?["content"] as? [String: Any]
    return (content?[contentType] as? [String: Any])?["schema"] as? [String: Any]
  }

  /// The string values of an enum schema in `components.schemas`.
  func enumValues(_ name: String) -> [String] {
    (schemas[name] as? [String: Any])?["enum"] as? [String] ?? []
  }
}

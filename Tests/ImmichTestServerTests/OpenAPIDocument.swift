import Foundation
import ImmichTestServer

/// Immich's official OpenAPI document (v3.1.0, `docs/immich/`), and 3.2.0's: the 3.1.0 document
/// with the extract of what changed in 3.2.0 laid over it (`docs/immich/README.md`). Both are
/// in the repository, so the conformance suites run on a fresh clone; they are skipped
/// (visibly) only when the files are gone.
final class OpenAPIDocument: @unchecked Sendable {
  // @unchecked: the parsed tree is never mutated after `init`.
  let paths: [String: Any]
  let schemas: [String: Any]
  let location: URL

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `$IMMICH_OPENAPI_SPEC`, else the copy in `docs/immich/`.
  static let candidates: [URL] = {
    var urls: [URL] = []
    if let env = ProcessInfo.processInfo.environment["IMMICH_OPENAPI_SPEC"], !env.isEmpty {
      urls.append(URL(fileURLWithPath: env))
    }
    urls.append(packageRoot.appendingPathComponent("docs/immich/immich-openapi-specs.json"))
    return urls
  }()

  /// The 3.1.0 document, or nil when no candidate exists or parses.
  static let shared: OpenAPIDocument? = candidates.lazy.compactMap { OpenAPIDocument($0) }.first

  /// The 3.2.0 document: 3.1.0's with the 3.2.0 extract's paths and schemas replacing theirs.
  static let v3_2: OpenAPIDocument? = shared.flatMap { base in
    OpenAPIDocument(
      packageRoot.appendingPathComponent("docs/immich/immich-openapi-specs-3.2.0-extract.json"),
      over: base)
  }

  static var isAvailable: Bool { shared != nil && v3_2 != nil }

  init?(_ url: URL, over base: OpenAPIDocument? = nil) {
    guard let data = FileManager.default.contents(atPath: url.path),
      let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let paths = root["paths"] as? [String: Any],
      let components = root["components"] as? [String: Any],
      let schemas = components["schemas"] as? [String: Any]
    else { return nil }
    self.paths = (base?.paths ?? [:]).merging(paths) { $1 }
    self.schemas = (base?.schemas ?? [:]).merging(schemas) { $1 }
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

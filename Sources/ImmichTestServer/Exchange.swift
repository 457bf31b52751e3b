import Foundation
import Hummingbird

/// What a route sees of an HTTP request, independent of Hummingbird.
struct APIRequest: Sendable {
  var method: String
  var path: String
  var query: [String: String]
  var headers: HTTPFields
  var body: [UInt8]

  func header(_ name: String) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.canonicalName == wanted }?.value
  }

  /// The body as JSON; an empty body reads as `{}` so required fields report as missing.
  var json: ImmichJSON? {
    body.isEmpty ? .object([]) : ImmichJSON.parse(body)
  }

  var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// What a route answers; turned into a Hummingbird response by `ResponseWriting`.
enum Reply: Sendable {
  case json(Int, ImmichJSON)
  /// JSON already serialised, for large pages rendered straight to text.
  case jsonText(Int, String)
  case empty(Int)
  case html(Int, String)
  /// The sync stream: one JSON object per line.
  case jsonLines([ImmichJSON])
  /// Image bytes (a thumbnail), with their media type.
  case image(contentType: String, bytes: [UInt8])

  var status: Int {
    switch self {
    case .json(let s, _), .jsonText(let s, _), .empty(let s), .html(let s, _): return s
    case .jsonLines, .image: return 200
    }
  }
}

/// The authenticated principal of a request.
struct Caller: Sendable {
  var userId: String
  var apiKey: APIKeyRecord?
  var session: SessionRecord?
}

/// Who made a request, as the request log records it: the kind of credential and, for API keys,
/// the key's name — never the secret or the token.
package struct CredentialUse: Sendable, Equatable, Codable, CustomStringConvertible {
  package enum Kind: String, Sendable, Codable {
    case none, apiKey, session, sharedLink
  }
  package var kind: Kind
  /// Where it came from: `x-api-key`, `apiKey-query`, `bearer`, `x-immich-user-token`, …
  package var source: String?
  /// The API key's name, or the session's id.
  package var name: String?
  /// False when the server rejected it (401).
  package var valid: Bool

  package static let none = CredentialUse(kind: .none, source: nil, name: nil, valid: true)

  package var description: String {
    kind == .none ? "none" : "\(kind.rawValue)(\(name ?? "?")\(valid ? "" : ", invalid"))"
  }
}

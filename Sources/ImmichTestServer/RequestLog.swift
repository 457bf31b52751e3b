import Foundation

/// One request as the server saw it. Secrets never reach the log: credentials are recorded by
/// kind and key name, `apiKey`/`sessionKey`/`key` query values and login passwords are masked.
package struct RecordedRequest: Sendable, Codable, Equatable {
  package var sequence: Int
  package var method: String
  package var path: String
  package var query: [String: String]
  /// UTF-8 text of the body, masked; multipart uploads are summarised.
  package var body: String
  /// The `Content-Type` header as sent: whether the server read the body as JSON at all.
  package var contentType: String?
  package var credential: CredentialUse
  /// The status sent, or nil when a fault closed the connection without a response.
  package var status: Int?
  /// The fault applied, if any: `status`, `redirect`, `delay`, `reset`, `truncate`.
  package var fault: String?

  /// Requests that can change server state. Searches, the upload check, the sync stream and
  /// login are POSTs that change nothing a test asserts on.
  package var isMutating: Bool {
    if method == "GET" || method == "HEAD" { return false }
    let readOnlyPosts: Set<String> = [
      "/api/search/metadata", "/api/search/statistics", "/api/assets/bulk-upload-check",
      "/api/sync/stream", "/api/auth/login",
    ]
    return !(method == "POST" && readOnlyPosts.contains(path))
  }

  static let masked = "<redacted>"

  static func maskedQuery(_ query: [String: String]) -> [String: String] {
    var out = query
    for key in ["apiKey", "sessionKey", "key", "slug"] where out[key] != nil { out[key] = masked }
    return out
  }

  static func maskedBody(_ request: APIRequest) -> String {
    if request.header("content-type")?.lowercased().hasPrefix("multipart/") == true {
      return "<multipart \(request.body.count) bytes>"
    }
    guard case .object(let pairs)? = ImmichJSON.parse(request.body),
      pairs.contains(where: { $0.0 == "password" })
    else { return request.bodyText }
    return ImmichJSON.object(pairs.map { $0.0 == "password" ? ($0.0, .string(masked)) : $0 })
      .serialized
  }
}

/// Every request the server answered, in order; safe to read from any thread.
package final class RequestLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [RecordedRequest] = []
  private var nextSequence = 1

  package init() {}

  package var all: [RecordedRequest] { lock.withLock { entries } }

  /// Requests that could have changed state (see `RecordedRequest.isMutating`).
  package var mutating: [RecordedRequest] { all.filter(\.isMutating) }

  package func requests(method: String? = nil, path: String) -> [RecordedRequest] {
    all.filter { ($0.method == method || method == nil) && $0.path == path }
  }

  package func clear() { lock.withLock { entries.removeAll() } }

  func append(_ make: (Int) -> RecordedRequest) {
    lock.withLock {
      entries.append(make(nextSequence))
      nextSequence += 1
    }
  }
}

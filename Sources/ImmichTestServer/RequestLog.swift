import Foundation

/// One request as the server saw it. Secrets never reach the log: credentials are recorded by
/// kind and key name, `apiKey`/`sessionKey`/`key` query values and login passwords are masked.
public struct RecordedRequest: Sendable, Codable, Equatable {
  public var sequence: Int
  public var method: String
  public var path: String
  public var query: [String: String]
  /// UTF-8 text of the body, masked; multipart uploads are summarised.
  public var body: String
  /// The `Content-Type` header as sent: whether the server read the body as JSON at all.
  public var contentType: String?
  public var credential: CredentialUse
  /// The status sent, or nil when a fault closed the connection without a response.
  public var status: Int?
  /// The fault applied, if any: `status`, `delay`, `reset`, `truncate`.
  public var fault: String?

  /// Requests that can change server state. Searches, the upload check, the sync stream and
  /// login are POSTs that change nothing a test asserts on.
  public var isMutating: Bool {
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
public final class RequestLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [RecordedRequest] = []
  private var nextSequence = 1

  public init() {}

  public var all: [RecordedRequest] { lock.withLock { entries } }

  /// Requests that could have changed state (see `RecordedRequest.isMutating`).
  public var mutating: [RecordedRequest] { all.filter(\.isMutating) }

  public func requests(method: String? = nil, path: String) -> [RecordedRequest] {
    all.filter { ($0.method == method || method == nil) && $0.path == path }
  }

  public func clear() { lock.withLock { entries.removeAll() } }

  func append(_ make: (Int) -> RecordedRequest) {
    lock.withLock {
      entries.append(make(nextSequence))
      nextSequence += 1
    }
  }
}

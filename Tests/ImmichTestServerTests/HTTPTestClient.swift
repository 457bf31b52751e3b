import AsyncHTTPClient
import Foundation
import ImmichTestServer
import NIOCore
import NIOHTTP1

/// What a test sends with: nothing, an API key (header or query) or a session token.
enum Credential {
  case none
  case key(String)
  case keyInQuery(String)
  case bearer(String)
  case userToken(String)
}

/// One answer, read whole.
struct HTTPReply {
  var status: Int
  var headers: HTTPHeaders
  var body: [UInt8]

  var text: String { String(decoding: body, as: UTF8.self) }
  var json: ImmichJSON? { ImmichJSON.parse(body) }
  func header(_ name: String) -> String? { headers.first(name: name) }

  /// The sync stream's lines, parsed.
  var lines: [ImmichJSON] {
    text.split(separator: "\n").compactMap { ImmichJSON.parse(Array($0.utf8)) }
  }
}

/// A thin AsyncHTTPClient wrapper: every test talks to the double over real HTTP.
struct TestClient {
  let base: URL

  func send(
    _ method: HTTPMethod, _ path: String, json: ImmichJSON? = nil,
    as credential: Credential = .none,
    headers extra: [(String, String)] = [], raw: (bytes: [UInt8], contentType: String)? = nil
  ) async throws -> HTTPReply {
    var target = base.absoluteString + path
    var request = HTTPClientRequest(url: target)
    switch credential {
    case .none: break
    case .key(let k): request.headers.add(name: "x-api-key", value: k)
    case .keyInQuery(let k):
      target += (path.contains("?") ? "&" : "?") + "apiKey=\(k)"
      request.url = target
    case .bearer(let t): request.headers.add(name: "Authorization", value: "Bearer \(t)")
    case .userToken(let t): request.headers.add(name: "x-immich-user-token", value: t)
    }
    request.method = method
    for (name, value) in extra { request.headers.add(name: name, value: value) }
    if let json {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: json.serialized))
    } else if let raw {
      request.headers.add(name: "Content-Type", value: raw.contentType)
      request.body = .bytes(ByteBuffer(bytes: raw.bytes))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
    let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
    return HTTPReply(
      status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
  }

  /// A body as raw text under any Content-Type, or none: how a careless client sends JSON.
  func sendText(
    _ method: HTTPMethod, _ path: String, _ text: String, contentType: String?,
    as credential: Credential = .none
  ) async throws -> HTTPReply {
    var request = HTTPClientRequest(url: base.absoluteString + path)
    request.method = method
    if case .key(let k) = credential { request.headers.add(name: "x-api-key", value: k) }
    if case .bearer(let t) = credential {
      request.headers.add(name: "Authorization", value: "Bearer \(t)")
    }
    if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
    request.body = .bytes(ByteBuffer(string: text))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
    let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
    return HTTPReply(
      status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
  }

  func get(_ path: String, as credential: Credential = .none, headers: [(String, String)] = [])
    async throws -> HTTPReply
  {
    try await send(.GET, path, as: credential, headers: headers)
  }

  func post(_ path: String, _ json: ImmichJSON? = nil, as credential: Credential = .none)
    async throws
    -> HTTPReply
  {
    try await send(.POST, path, json: json, as: credential)
  }

  func put(_ path: String, _ json: ImmichJSON, as credential: Credential = .none) async throws
    -> HTTPReply
  {
    try await send(.PUT, path, json: json, as: credential)
  }

  func delete(_ path: String, _ json: ImmichJSON? = nil, as credential: Credential = .none)
    async throws
    -> HTTPReply
  {
    try await send(.DELETE, path, json: json, as: credential)
  }

  /// Logs in by password and returns the session token.
  func login(_ email: String, _ password: String) async throws -> String {
    let reply = try await post(
      "/api/auth/login", ["email": .string(email), "password": .string(password)])
    return reply.json?["accessToken"]?.stringValue ?? ""
  }

  /// Ids of one search page.
  func searchIds(_ body: ImmichJSON, as credential: Credential) async throws -> [String] {
    let reply = try await post("/api/search/metadata", body, as: credential)
    return reply.json?["assets"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
  }
}

extension ImmichJSON {
  /// Strings of an array value, for compact expectations.
  var strings: [String] { arrayValue?.compactMap(\.stringValue) ?? [] }
}

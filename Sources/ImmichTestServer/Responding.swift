import Foundation
import Hummingbird

extension ImmichTestServer {
  /// One request: control API, or fault injection, dispatch, logging and encoding.
  func respond(to request: Request, context: ServerContext) async throws -> Response {
    var request = request
    let bytes = try await request.collectBody(upTo: context.maxUploadSize)
    let api = APIRequest(
      method: request.method.rawValue, path: request.uri.path,
      query: Self.parseQuery(request.uri.query), headers: request.headers,
      body: Array(buffer: bytes))
    if api.path.hasPrefix("/__testserver/") { return control(api) }

    let fault = faults.take(method: api.method, path: api.path)
    let credentialGuess = state.withStore {
      Authentication.resolve(Authentication.presented(in: api), in: $0).1
    }
    switch fault?.action {
    case .reset?:
      record(api, credentialGuess, status: nil, fault: "reset")
      await context.dropConnection()
      throw ServerError.connectionDropped
    case .status(let code, let body, let contentType)?:
      record(api, credentialGuess, status: code, fault: "status")
      var headers = HTTPFields()
      headers[.contentType] = contentType
      return Response(
        status: .init(code: code), headers: headers,
        body: .init(byteBuffer: ByteBuffer(string: body)))
    case .redirect(let code, let location)?:
      record(api, credentialGuess, status: code, fault: "redirect")
      var headers = HTTPFields()
      headers[.location] = location
      return Response(status: .init(code: code), headers: headers)
    case .delay(let seconds)?:
      try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    case .truncateStream?, .endlessStream?, .endlessLine?, nil:
      break
    }

    let outcome = state.withStore { router.dispatch(api, store: &$0) }
    let version = state.version
    let correlationId = Identifiers.newAssetID()
    var headers = HTTPFields()
    // HTTPTypes is not a direct dependency; its field names are reached through HTTPFields.
    // v2 sent the id on every response as `x-immich-cid` (docs/IMMICH-API.md §8.2).
    if let name = HTTPFields.Element.Name(version.isV3 ? "X-Correlation-ID" : "x-immich-cid") {
      headers[name] = correlationId
    }
    let reply: Reply
    switch outcome.reply {
    case .success(let r): reply = paging.reshape(api, r) ?? r
    case .failure(let error):
      reply = .json(
        error.status, ErrorBody.render(error, version: version, correlationId: correlationId))
    }
    record(api, outcome.credential, status: reply.status, fault: fault?.label)
    return Self.encode(reply, headers: headers, stream: StreamShape(fault?.action))
  }

  private func record(_ api: APIRequest, _ credential: CredentialUse, status: Int?, fault: String?)
  {
    log.append { sequence in
      RecordedRequest(
        sequence: sequence, method: api.method, path: api.path,
        query: RecordedRequest.maskedQuery(api.query), body: RecordedRequest.maskedBody(api),
        contentType: api.header("content-type"), credential: credential, status: status,
        fault: fault)
    }
  }

  static func encode(_ reply: Reply, headers: HTTPFields, stream: StreamShape = .whole)
    -> Response
  {
    var headers = headers
    switch reply {
    case .json(let status, let json):
      headers[.contentType] = "application/json; charset=utf-8"
      return Response(
        status: .init(code: status), headers: headers,
        body: .init(byteBuffer: ByteBuffer(string: json.serialized)))
    case .jsonText(let status, let text):
      headers[.contentType] = "application/json; charset=utf-8"
      return Response(
        status: .init(code: status), headers: headers,
        body: .init(byteBuffer: ByteBuffer(string: text)))
    case .empty(let status):
      return Response(status: .init(code: status), headers: headers, body: .init())
    case .html(let status, let html):
      headers[.contentType] = "text/html; charset=utf-8"
      headers[.cacheControl] = "no-store"
      return Response(
        status: .init(code: status), headers: headers,
        body: .init(byteBuffer: ByteBuffer(string: html)))
    case .image(let contentType, let bytes):
      headers[.contentType] = contentType
      // What Immich sends with asset media (`CacheControl.PrivateWithCache`).
      headers[.cacheControl] = "private, max-age=86400, no-transform"
      return Response(
        status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    case .jsonLines(let lines):
      headers[.contentType] = "application/jsonlines+json"
      return Response(
        status: .ok, headers: headers,
        body: ResponseBody { writer in try await stream.write(lines, to: &writer) })
    }
  }

  static func parseQuery(_ query: String?) -> [String: String] {
    guard let query, !query.isEmpty else { return [:] }
    var out: [String: String] = [:]
    for item in query.split(separator: "&") {
      let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (s: Substring) in
        s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
      }
      guard let key = pair.first.map(decode) else { continue }
      out[key] = pair.count > 1 ? decode(pair[1]) : ""
    }
    return out
  }
}

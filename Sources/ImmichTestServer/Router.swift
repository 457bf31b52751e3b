import Foundation

/// Who may call a route: anyone, or an authenticated caller whose API key (if that is what they
/// used) holds `permission`. `permission: nil` is Immich's `permission: false`.
enum Access: Sendable {
  case open
  case authenticated(permission: String?)
}

/// Everything a route handler gets besides the store.
struct RouteCall: Sendable {
  var request: APIRequest
  /// Non-nil for authenticated routes.
  var caller: Caller?
  var params: [String: String]
  /// `req.body`: nil when no body parser read it (no or another Content-Type).
  var body: ImmichJSON?
  var version: ImmichVersion

  /// The caller of an authenticated route.
  var user: Caller {
    get throws(APIError) {
      guard let caller else { throw APIError.authenticationRequired }
      return caller
    }
  }

  func param(_ name: String) -> String { params[name] ?? "" }
}

struct Route: Sendable {
  var method: String
  var pattern: [String]
  var access: Access
  var handle: @Sendable (inout Store, RouteCall) throws -> Reply
  /// Whether the server being imitated has this route at all; one it lacks is 404, before
  /// authentication, as an unknown path is.
  var isServed: @Sendable (Store) -> Bool = { _ in true }

  init(
    _ method: String, _ path: String, _ access: Access,
    _ handle: @escaping @Sendable (inout Store, RouteCall) throws -> Reply
  ) {
    self.method = method
    self.pattern = path.split(separator: "/").map(String.init)
    self.access = access
    self.handle = handle
  }

  /// The same route, served only where `condition` holds (a later version, a removed one).
  func served(when condition: @escaping @Sendable (Store) -> Bool) -> Route {
    var route = self
    route.isServed = condition
    return route
  }

  func match(method: String, parts: [Substring]) -> [String: String]? {
    guard method == self.method, parts.count == pattern.count else { return nil }
    var params: [String: String] = [:]
    for (segment, part) in zip(pattern, parts) {
      if segment.hasPrefix(":") {
        params[String(segment.dropFirst())] = String(part)
      } else if segment != part {
        return nil
      }
    }
    return params
  }
}

/// Nest's routing, guards and pipes in the order the real server applies them: route match
/// (404), authentication (401), API-key permission (403), parameter and body validation (400),
/// then the handler.
struct APIRouter: Sendable {
  /// Literal routes come before parameterised ones that could shadow them.
  let routes: [Route] =
    ServerRoutes.all + AuthRoutes.all + SearchRoutes.all + ThumbnailRoutes.all + AssetRoutes.all
    + TrashRoutes.all
    + UploadRoutes.all + TagRoutes.all + SyncRoutes.all + AlbumRoutes.all

  struct Outcome {
    var reply: Result<Reply, APIError>
    var credential: CredentialUse
  }

  func dispatch(_ request: APIRequest, store: inout Store) -> Outcome {
    let version = store.version
    if !request.path.hasPrefix("/api/") && request.path != "/api" {
      return Outcome(reply: webRequest(request, version: version), credential: .none)
    }
    // Express's body parsers run before routing and guards: bad JSON is a 400 even for an
    // unknown route or a missing credential.
    let body: ImmichJSON?
    switch RequestBody.read(request) {
    case .success(let read): body = read
    case .failure(let error): return Outcome(reply: .failure(error), credential: .none)
    }
    let parts = request.path.split(separator: "/")
    var found: (Route, [String: String])?
    for route in routes where route.isServed(store) {
      if let params = route.match(method: request.method, parts: parts) {
        found = (route, params)
        break
      }
    }
    guard let (route, params) = found else {
      return Outcome(reply: .failure(notFound(request)), credential: .none)
    }

    var caller: Caller?
    let (result, use) = Authentication.resolve(Authentication.presented(in: request), in: store)
    // Public routes ignore credentials, but the log still says what was sent.
    let credential = use
    if case .authenticated(let permission) = route.access {
      switch result {
      case .failure(let error): return Outcome(reply: .failure(error), credential: use)
      case .success(nil): return Outcome(reply: .failure(.authenticationRequired), credential: use)
      case .success(let resolved?): caller = resolved
      }
      if let permission, let key = caller?.apiKey,
        !Permission.isGranted(key.permissions, permission)
      {
        let error = APIError.forbidden("Missing required permission: \(permission)")
        return Outcome(reply: .failure(error), credential: credential)
      }
    }

    var issues: [ValidationIssue] = []
    for (name, value) in params.sorted(by: { $0.key < $1.key }) where !Identifiers.isUUIDv4(value) {
      issues.append(
        ValidationIssue(
          code: "invalid_format", path: [.string(name)], message: "Invalid UUID",
          extra: [("format", "uuid")]))
    }
    if !issues.isEmpty {
      return Outcome(reply: .failure(.validation(issues)), credential: credential)
    }
    let call = RouteCall(
      request: request, caller: caller, params: params, body: body, version: version)
    do {
      return Outcome(reply: .success(try route.handle(&store, call)), credential: credential)
    } catch let error as APIError {
      return Outcome(reply: .failure(error), credential: credential)
    } catch {
      return Outcome(
        reply: .failure(APIError(status: 500, message: "Internal server error")),
        credential: credential)
    }
  }

  func notFound(_ request: APIRequest) -> APIError {
    APIError(status: 404, message: "Cannot \(request.method) \(request.path)")
  }

  /// Non-`/api` paths: the well-known discovery document, or the web app's SSR middleware, which
  /// answers every GET with HTML — or 406 when the client said it will not accept HTML.
  func webRequest(_ request: APIRequest, version: ImmichVersion) -> Result<Reply, APIError> {
    if request.path == "/.well-known/immich" && request.method == "GET" {
      return .success(.json(200, ["api": ["endpoint": "/api"]]))
    }
    let excluded = ["/.well-known/immich", "/custom.css", "/favicon.ico"]
    guard request.method == "GET" || request.method == "HEAD", !excluded.contains(request.path)
    else { return .failure(notFound(request)) }
    let accept = request.header("accept") ?? "*/*"
    guard acceptsHTML(accept) else {
      return .failure(
        APIError(
          status: 406,
          message:
            "The route \(request.path) was requested as \(accept), but only returns text/html"))
    }
    return .success(.html(200, WebPage.index))
  }

  func acceptsHTML(_ accept: String) -> Bool {
    let types = accept.split(separator: ",").map {
      $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        ?? ""
    }
    return types.contains { $0 == "text/html" || $0 == "*/*" || $0 == "text/*" }
  }
}

enum WebPage {
  static let index = """
    <!doctype html><html><head><meta charset="utf-8"><title>Immich</title></head>\
    <body><div id="app"></div></body></html>
    """
}

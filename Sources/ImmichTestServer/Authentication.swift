import Foundation

/// `AuthService.validate`: share link first, then a session token from the first source present,
/// then an API key. A session wins over an API key.
enum Authentication {
  struct Presented {
    var kind: CredentialUse.Kind
    var source: String
    var secret: String
  }

  static func presented(in request: APIRequest) -> Presented? {
    if let key = request.header("x-immich-share-key") ?? request.query["key"] {
      return Presented(kind: .sharedLink, source: "share-key", secret: key)
    }
    if let slug = request.header("x-immich-share-slug") ?? request.query["slug"] {
      return Presented(kind: .sharedLink, source: "share-slug", secret: slug)
    }
    let sessionSources: [(String, String?)] = [
      ("x-immich-user-token", request.header("x-immich-user-token")),
      ("x-immich-session-token", request.header("x-immich-session-token")),
      ("sessionKey-query", request.query["sessionKey"]),
      ("bearer", bearerToken(request.header("authorization"))),
      ("cookie", cookie("immich_access_token", in: request.header("cookie"))),
    ]
    for case (let source, let token?) in sessionSources {
      return Presented(kind: .session, source: source, secret: token)
    }
    if let key = request.header("x-api-key") {
      return Presented(kind: .apiKey, source: "x-api-key", secret: key)
    }
    if let key = request.query["apiKey"] {
      return Presented(kind: .apiKey, source: "apiKey-query", secret: key)
    }
    return nil
  }

  static func bearerToken(_ header: String?) -> String? {
    guard let header, header.lowercased().hasPrefix("bearer ") else { return nil }
    return String(header.dropFirst(7))
  }

  static func cookie(_ name: String, in header: String?) -> String? {
    guard let header else { return nil }
    for part in header.split(separator: ";") {
      let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
      if pair.count == 2, pair[0] == name { return String(pair[1]) }
    }
    return nil
  }

  /// Resolves the presented credential against the store; the log entry is filled either way.
  static func resolve(_ presented: Presented?, in store: Store) -> (
    Result<Caller?, APIError>, CredentialUse
  ) {
    guard let presented else { return (.success(nil), .none) }
    var use = CredentialUse(kind: presented.kind, source: presented.source, name: nil, valid: false)
    switch presented.kind {
    case .sharedLink:
      // Shared links are not modelled: every key is unknown, as a wrong key would be.
      return (.failure(.unauthorized("Invalid share key")), use)
    case .session:
      guard let id = store.sessionIdByToken[presented.secret], let session = store.sessions[id],
        store.users[session.userId] != nil
      else { return (.failure(.unauthorized("Invalid user token")), use) }
      use.name = session.id
      use.valid = true
      return (.success(Caller(userId: session.userId, apiKey: nil, session: session)), use)
    case .apiKey:
      guard let key = store.apiKeys.first(where: { $0.secret == presented.secret }) else {
        return (.failure(.unauthorized("Invalid API key")), use)
      }
      use.name = key.name
      use.valid = true
      return (.success(Caller(userId: key.userId, apiKey: key, session: nil)), use)
    case .none:
      return (.success(nil), .none)
    }
  }
}

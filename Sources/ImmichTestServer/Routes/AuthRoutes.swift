import Foundation

/// Login, the caller's own user and API key, and the session flag that forces a sync reset.
enum AuthRoutes {
  static let all: [Route] = [
    Route("POST", "/api/auth/login", .open, login),
    Route("GET", "/api/users/me", .authenticated(permission: Permission.userRead)) { store, call in
      let caller = try call.user
      guard let user = store.users[caller.userId] else { throw APIError.authenticationRequired }
      return .json(200, Rendering.userAdmin(user))
    },
    Route("GET", "/api/api-keys/me", .authenticated(permission: nil)) { _, call in
      guard let key = try call.user.apiKey else {
        throw APIError.forbidden("Not authenticated with an API Key")
      }
      return .json(
        200,
        [
          "id": .string(key.id), "name": .string(key.name),
          "createdAt": Rendering.date(key.createdAt), "updatedAt": Rendering.date(key.createdAt),
          "permissions": .array(key.permissions.map(ImmichJSON.string)),
        ])
    },
    Route("PUT", "/api/sessions/:id", .authenticated(permission: Permission.sessionUpdate)) {
      store, call in
      var reader = BodyReader(call)
      let pending = reader.bool("isPendingSyncReset")
      try reader.finish()
      let caller = try call.user
      let id = call.param("id")
      guard var session = store.sessions[id], session.userId == caller.userId else {
        throw APIError.noAccess(Permission.sessionUpdate)
      }
      if let pending { session.isPendingSyncReset = pending }
      session.updatedAt = store.now
      store.sessions[id] = session
      return .json(200, sessionJSON(session, current: caller.session?.id == id))
    },
  ]

  static func login(_ store: inout Store, _ call: RouteCall) throws(APIError) -> Reply {
    var reader = BodyReader(call)
    let email = reader.string("email", required: true)
    if let email, !isEmailAddress(email) {
      reader.fail(
        [.string("email")], "invalid_format", "Invalid email address",
        [("format", "email"), ("pattern", .string(emailPattern))])
    }
    let password = reader.string("password", required: true)
    try reader.finish()
    guard store.passwordLoginEnabled else {
      throw APIError.unauthorized("Password login has been disabled")
    }
    guard
      let user = store.users.values.first(where: {
        $0.email.lowercased() == email?.lowercased() && $0.password == password
      })
    else { throw APIError.unauthorized("Incorrect email or password") }
    let session = store.createSession(for: user.id)
    return .json(
      201,
      [
        "accessToken": .string(session.token), "userId": .string(user.id),
        "userEmail": .string(user.email), "name": .string(user.name), "profileImagePath": "",
        "isAdmin": .bool(user.isAdmin), "shouldChangePassword": false, "isOnboarded": true,
      ])
  }

  /// `LoginCredentialDto.email`: zod's email check, the pattern the spec publishes.
  static let emailPattern =
    "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    + "(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"

  static func isEmailAddress(_ text: String) -> Bool {
    text.range(of: emailPattern, options: .regularExpression) != nil
  }

  static func sessionJSON(_ s: SessionRecord, current: Bool) -> ImmichJSON {
    [
      "id": .string(s.id), "createdAt": Rendering.date(s.createdAt),
      "updatedAt": Rendering.date(s.updatedAt), "current": .bool(current),
      "deviceType": "", "deviceOS": "", "appVersion": .null,
      "isPendingSyncReset": .bool(s.isPendingSyncReset),
    ]
  }
}

extension Store {
  /// A new session with an opaque random token, as password login creates.
  mutating func createSession(for userId: String) -> SessionRecord {
    let token = (0..<2).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }
      .joined().lowercased()
    let session = SessionRecord(
      id: Identifiers.newAssetID(), userId: userId, token: token, createdAt: now, updatedAt: now,
      isPendingSyncReset: false, checkpoints: [:])
    sessions[session.id] = session
    sessionIdByToken[token] = session.id
    return session
  }
}

import CairnSupport

/// `GET /api/users/me`: the user an API key or session belongs to.
package struct UserInfo: Decodable, Sendable, Equatable {
  package var id: String
  package var email: String
  package var name: String
  package var isAdmin: Bool?
}

/// `GET /api/api-keys/me`: the key's own record, with its permissions.
package struct APIKeyInfo: Decodable, Sendable, Equatable {
  package var id: String
  package var name: String
  /// Permission strings such as `asset.read`; `all` grants everything.
  package var permissions: [String]

  /// True when the key holds `permission` (directly or through `all`).
  package func grants(_ permission: String) -> Bool {
    permissions.contains("all") || permissions.contains(permission)
  }
}

/// `POST /api/auth/login`. The token is a `Secret` from the moment it is decoded.
package struct LoginResult: Sendable {
  package var accessToken: Secret
  package var userId: String
  package var userEmail: String
}

struct LoginAnswer: Decodable {
  var accessToken: String
  var userId: String
  var userEmail: String
}

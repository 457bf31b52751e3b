import CairnCore

/// `GET /api/users/me`: the user an API key or session belongs to.
public struct UserInfo: Decodable, Sendable, Equatable {
  public var id: String
  public var email: String
  public var name: String
  public var isAdmin: Bool?
}

/// `GET /api/api-keys/me`: the key's own record, with its permissions.
public struct APIKeyInfo: Decodable, Sendable, Equatable {
  public var id: String
  public var name: String
  /// Permission strings such as `asset.read`; `all` grants everything.
  public var permissions: [String]

  /// True when the key holds `permission` (directly or through `all`).
  public func grants(_ permission: String) -> Bool {
    permissions.contains("all") || permissions.contains(permission)
  }
}

/// `POST /api/auth/login`. The token is a `Secret` from the moment it is decoded.
public struct LoginResult: Sendable {
  public var accessToken: Secret
  public var userId: String
  public var userEmail: String
}

struct LoginAnswer: Decodable {
  var accessToken: String
  var userId: String
  var userEmail: String
}

/// `GET /api/server/version`. v3 adds `prerelease`; v2 sends only the three numbers.
public struct ServerVersion: Decodable, Sendable, Equatable, Comparable, CustomStringConvertible {
  public var major: Int
  public var minor: Int
  public var patch: Int
  public var prerelease: Int?

  public init(major: Int, minor: Int, patch: Int, prerelease: Int? = nil) {
    self.major = major
    self.minor = minor
    self.patch = patch
    self.prerelease = prerelease
  }

  /// `3.1.0`, or `3.1.0-rc.2`.
  public var description: String {
    "\(major).\(minor).\(patch)" + (prerelease.map { "-rc.\($0)" } ?? "")
  }

  /// v3 changed error bodies, search visibility defaults, `duration` and sync request types.
  public var isV3OrLater: Bool { major >= 3 }

  /// The sync request type for the user's own assets: `AssetsV1` was removed in v3.
  public var assetSyncRequestType: String { isV3OrLater ? "AssetsV2" : "AssetsV1" }

  public static func < (a: ServerVersion, b: ServerVersion) -> Bool {
    (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
  }
}

/// `GET /api/server/features` (the flags cairn cares about; the rest are ignored).
public struct ServerFeatures: Decodable, Sendable, Equatable {
  /// False means trashed assets are purged at the next nightly job: cairn refuses to run.
  public var trash: Bool
  public var passwordLogin: Bool?
  public var oauth: Bool?
  public var search: Bool?
}

/// `GET /api/server/config` (the fields cairn cares about).
public struct ServerConfig: Decodable, Sendable, Equatable {
  /// Days a trashed asset stays restorable.
  public var trashDays: Int
  public var maintenanceMode: Bool?
  public var isInitialized: Bool?
}

/// `GET /api/server/about` (needs `server.about`).
public struct ServerAbout: Decodable, Sendable, Equatable {
  /// With a leading `v`: `v3.1.0`.
  public var version: String
  public var versionUrl: String?
  public var licensed: Bool?
}

/// `GET /api/server/ping`.
struct PingAnswer: Decodable {
  var res: String
}

/// `GET /.well-known/immich`.
struct WellKnown: Decodable {
  struct API: Decodable { var endpoint: String }
  var api: API
}

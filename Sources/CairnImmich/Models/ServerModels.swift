/// `GET /api/server/version`. v3 adds `prerelease`; v2 sends only the three numbers.
package struct ServerVersion: Decodable, Sendable, Equatable, Comparable, CustomStringConvertible {
  package var major: Int
  package var minor: Int
  package var patch: Int
  package var prerelease: Int?

  package init(major: Int, minor: Int, patch: Int, prerelease: Int? = nil) {
    self.major = major
    self.minor = minor
    self.patch = patch
    self.prerelease = prerelease
  }

  /// `3.1.0`, or `3.1.0-rc.2`.
  package var description: String {
    "\(major).\(minor).\(patch)" + (prerelease.map { "-rc.\($0)" } ?? "")
  }

  /// v3 changed error bodies, search visibility defaults, `duration` and sync request types.
  package var isV3OrLater: Bool { major >= 3 }

  /// The sync request type for the user's own assets: `AssetsV1` was removed in v3.
  package var assetSyncRequestType: String { isV3OrLater ? "AssetsV2" : "AssetsV1" }

  package static func < (a: ServerVersion, b: ServerVersion) -> Bool {
    (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
  }
}

/// `GET /api/server/features` (the flags cairn cares about; the rest are ignored).
package struct ServerFeatures: Decodable, Sendable, Equatable {
  /// False means trashed assets are purged at the next nightly job: cairn refuses to run.
  package var trash: Bool
  package var passwordLogin: Bool?
  package var oauth: Bool?
  package var search: Bool?
}

/// `GET /api/server/config` (the fields cairn cares about).
package struct ServerConfig: Decodable, Sendable, Equatable {
  /// Days a trashed asset stays restorable.
  package var trashDays: Int
  package var maintenanceMode: Bool?
  package var isInitialized: Bool?
}

/// `GET /api/config` (3.2's `UserConfigDto`; the group cairn cares about).
package struct UserConfig: Decodable, Sendable, Equatable {
  package struct Trash: Decodable, Sendable, Equatable {
    package var enabled: Bool
    package var days: Int
  }
  package var trash: Trash
}

/// `GET /api/server/about` (needs `server.about`).
package struct ServerAbout: Decodable, Sendable, Equatable {
  /// With a leading `v`: `v3.1.0`.
  package var version: String
  package var versionUrl: String?
  package var licensed: Bool?
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

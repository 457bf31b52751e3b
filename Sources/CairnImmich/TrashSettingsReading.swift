/// The server's trash settings and where they were read: cairn's undo depends on them, so
/// a run that cannot read them refuses rather than assume the trash is on.
package struct ServerTrashSettings: Sendable, Equatable {
  /// Where the settings came from.
  package enum Source: Sendable, Equatable {
    /// `GET /api/config` (3.2 on, `userConfig.read`).
    case userConfig
    /// `GET /api/server/features` and `/api/server/config` (before 3.2, where they are
    /// current; deprecated since).
    case serverConfig
    /// The deprecated endpoints on a 3.2 server, because the key lacks `userConfig.read`.
    case serverConfigWithoutPermission
  }

  package var enabled: Bool
  package var days: Int
  package var source: Source

  package init(enabled: Bool, days: Int, source: Source) {
    self.enabled = enabled
    self.days = days
    self.source = source
  }
}

extension ImmichClient {
  /// The permission `GET /api/config` needs.
  package static let userConfigPermission = "userConfig.read"

  /// Reads the trash settings where this server keeps them: `GET /api/config` from 3.2 on,
  /// the deprecated `GET /api/server/features` and `/server/config` before, or when the key
  /// may not read `/config` (403). Any other failure is thrown: the caller refuses.
  package func trashSettings() async throws(ImmichError) -> ServerTrashSettings {
    var fallback = ServerTrashSettings.Source.serverConfig
    if let serverVersion, serverVersion >= SearchDialect.firstStructured {
      do {
        let config = try await userConfig()
        return ServerTrashSettings(
          enabled: config.trash.enabled, days: config.trash.days, source: .userConfig)
      } catch  where error.kind == .forbidden {
        fallback = .serverConfigWithoutPermission
      }
    }
    let features = try await features()
    let config = try await config()
    return ServerTrashSettings(enabled: features.trash, days: config.trashDays, source: fallback)
  }
}

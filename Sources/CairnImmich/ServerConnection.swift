import CairnRecords
import CairnSettings
import CairnSupport
import Foundation

/// A connected Immich server and the user the API key belongs to: the state partition.
///
/// `connect` reads `IMMICH_URL` and the API key (`IMMICH_API_KEY` or its file), finds the API base, asks
/// `GET /api/server/version` (public, so a wrong URL shows before a wrong key) and then
/// `GET /api/users/me`.
package struct ServerConnection: Sendable {
  package let client: ImmichClient
  package let version: ServerVersion
  package let user: UserInfo

  package init(client: ImmichClient, version: ServerVersion, user: UserInfo) {
    self.client = client
    self.version = version
    self.user = user
  }

  /// `(url, userId, version)`: what headers carry and what partitions state.
  package var identity: ServerIdentity {
    ServerIdentity(url: client.apiBase, userId: user.id.lowercased(), version: version.description)
  }

  package var partition: ServerPartition { identity.partition }

  /// Connects and identifies the key's user.
  package static func connect(
    configuration: Configuration, options: ClientOptions? = nil
  ) async throws(ImmichError) -> ServerConnection {
    let (client, version) = try await reach(configuration: configuration, options: options)
    let user = try await client.currentUser()
    return ServerConnection(client: client, version: version, user: user)
  }

  /// Finds the API and learns its version, without asking who the key belongs to
  /// (`cairn-fetch check` goes on from there one check at a time).
  package static func reach(
    configuration: Configuration, options: ClientOptions? = nil
  ) async throws(ImmichError) -> (ImmichClient, ServerVersion) {
    let (url, key) = try settings(configuration)
    let resolvedOptions: ClientOptions
    if let options {
      resolvedOptions = options
    } else {
      do {
        resolvedOptions = try ClientOptions.from(configuration)
      } catch {
        throw ImmichError(.configuration, error.description)
      }
    }
    let transport = HTTPTransport(options: resolvedOptions)
    let apiBase = try await ServerAddress.discover(
      try ServerAddress.normalise(url), transport: transport)
    let client = ImmichClient(apiBase: apiBase, credential: .apiKey(key), transport: transport)
    let version = try await client.version()
    return (client.speaking(version), version)
  }

  /// `IMMICH_URL` and the API key, or a line saying where to set them.
  package static func settings(_ configuration: Configuration) throws(ImmichError)
    -> (url: String, key: Secret)
  {
    var places =
      "set it in the environment, in ./.env or in \(configuration.paths.configFile)"
    if let profile = configuration.profile {
      places = "set it in [profile \(profile)] of \(configuration.paths.configFile)"
    } else if !configuration.profileNames.isEmpty {
      // The shared lines of a file with profiles rarely name a server: say how to pick one.
      places +=
        "; or choose a profile with --profile ("
        + configuration.profileNames.joined(separator: ", ") + ")"
    }
    guard let url = configuration.serverURL else {
      throw ImmichError(
        .configuration, "IMMICH_URL is not set: \(places) (IMMICH_URL=https://photos.example.net)")
    }
    let key: Secret?
    do {
      key = try configuration.apiKey()
    } catch {
      throw ImmichError(.configuration, (error.location.map { "\($0): " } ?? "") + error.message)
    }
    guard let key, !key.isEmpty else {
      throw ImmichError(
        .configuration,
        "IMMICH_API_KEY is not set: \(places), or name a file holding it with IMMICH_API_KEY_FILE"
          + " (create a key in Immich under Account Settings → API Keys)")
    }
    return (url, key)
  }
}

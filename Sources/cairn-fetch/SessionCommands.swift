import CairnImmich
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import Foundation

/// `login` and `logout`: the session the sync stream needs.
struct SessionCommands {
  let configuration: Configuration

  func login(_ emailOption: String?) async throws -> ExitStatus {
    let connection = try await ServerConnection.connect(configuration: configuration)
    guard let email = emailOption ?? configuration.string("IMMICH_EMAIL") else {
      throw CairnError(
        .configuration, "no account email: pass --email or set IMMICH_EMAIL")
    }
    let password: Secret
    if let fromSettings = configuration.string("IMMICH_PASSWORD") {
      password = Secret(fromSettings)
    } else if let typed = Terminal.open()?.readSecret(prompt: "Immich password for \(email): ") {
      password = typed
    } else {
      throw CairnError(
        .configuration, "no password: run login on a terminal or set IMMICH_PASSWORD")
    }
    let result = try await connection.client.login(email: email, password: password)
    let partition = connection.partition
    guard result.userId == connection.identity.userId else {
      try? await connection.client.usingSession(result.accessToken).logout()
      throw CairnError(
        .permission,
        "\(email) is not the user the API key belongs to (\(connection.user.email));"
          + " log in with the key's account")
    }
    let paths = configuration.paths
    if let previous = try? SessionStore.load(paths, partition) {
      try? await connection.client.usingSession(previous.token).logout()
    }
    let session = SavedSession(
      token: result.accessToken, loginId: UUID().uuidString.lowercased(), email: result.userEmail,
      userId: result.userId, createdAt: Date())
    try SessionStore.save(session, paths, partition)
    Diagnostics.info(
      "logged in as \(result.userEmail); listings now refresh from the sync stream"
        + " (session saved in \(SessionStore.path(paths, partition)))")
    return .success
  }

  func logout() async throws -> ExitStatus {
    let connection = try await ServerConnection.connect(configuration: configuration)
    let paths = configuration.paths
    guard let session = try SessionStore.load(paths, connection.partition) else {
      Diagnostics.info("no saved session for \(connection.partition)")
      return .success
    }
    // Ending it on the server matters more than being told it worked: a forgotten but live
    // token is a credential lying around.
    do {
      try await connection.client.usingSession(session.token).logout()
    } catch {
      Diagnostics.warning("the server did not end the session: \(error.message)")
    }
    try SessionStore.remove(paths, connection.partition)
    Diagnostics.info("logged out; listings go page by page again")
    return .success
  }
}

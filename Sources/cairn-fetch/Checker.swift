import CairnImmich
import CairnMarks
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import CairnTool

/// `check`: can cairn run against this server with this key? One line per check on stderr.
struct Checker {
  let configuration: Configuration
  let writer = RecordWriter()
  static let tool = CairnFetch.toolName

  enum Mark {
    case ok, fail, warn, note

    var symbol: String {
      let fancy = Diagnostics.stderrIsTerminal
      switch self {
      case .ok: return fancy ? "✓" : "[ok]  "
      case .fail: return fancy ? "✗" : "[FAIL]"
      case .warn: return fancy ? "!" : "[warn]"
      case .note: return fancy ? "·" : "[info]"
      }
    }
  }

  final class Tally {
    var status = ExitStatus.success
    var checks = 0
    var failed = 0

    /// The most serious status wins: unreachable, then credentials, then a refusal.
    func worsen(_ candidate: ExitStatus) {
      let rank: [ExitStatus: Int] = [
        .success: 0, .refused: 1, .permission: 2, .configuration: 3, .serverFailure: 4,
      ]
      if rank[candidate, default: 4] > rank[status, default: 0] { status = candidate }
    }
  }

  func line(_ mark: Mark, _ text: String, _ tally: Tally) {
    if mark != .note { tally.checks += 1 }
    if mark == .fail { tally.failed += 1 }
    if Diagnostics.verbosity == .quiet && mark != .fail { return }
    Diagnostics.writeStderr("\(mark.symbol) \(text)\n")
  }

  func run() async throws -> ExitStatus {
    let tally = Tally()
    let (checked, identity) = await runChecks(tally)
    let status = reportSettings(tally, checked)
    writer.write(HeaderRecord(tool: Self.tool, server: identity))
    writer.write(
      EndRecord(
        tool: Self.tool, complete: status == .success, errors: tally.failed,
        counts: ["checks": tally.checks, "failed": tally.failed, "status": Int(status.rawValue)]))
    writer.flush()
    return status
  }

  /// The checks in order; a failure that makes the rest meaningless (no settings, no server,
  /// a rejected key) ends them early.
  private func runChecks(_ tally: Tally) async -> (ExitStatus, ServerIdentity?) {
    guard checkSettings(tally) else { return (.configuration, nil) }
    let client: ImmichClient
    let version: ServerVersion
    switch await reachServer(tally) {
    case .success(let reached): (client, version) = reached
    case .failure(let error): return (error.exitStatus, nil)
    }
    let (identity, goOn) = await checkKey(client, version, tally)
    guard goOn else { return (tally.status, nil) }
    noteNewerVersion(version, identity, tally)
    await checkPermissions(client, version, tally)
    await checkTrash(client, tally)
    if let identity {
      await noteExternalLibraries(client, tally)
      checkSession(client, identity, tally)
      await checkSessionWorks(client, identity, tally)
    }
    return (tally.status, identity)
  }

  private func checkSettings(_ tally: Tally) -> Bool {
    do {
      _ = try ServerConnection.settings(configuration)
    } catch {
      line(.fail, error.message, tally)
      return false
    }
    let origin = configuration.origin(of: "IMMICH_URL") ?? "?"
    let key = configuration.apiKeySource?.description ?? "?"
    let profile = configuration.profile.map { " for profile \($0)" } ?? ""
    line(
      .ok, "server URL and API key are set\(profile) (URL from \(origin), key from \(key))", tally)
    return true
  }

  private func reachServer(_ tally: Tally) async -> Result<
    (ImmichClient, ServerVersion), ImmichError
  > {
    let client: ImmichClient
    let version: ServerVersion
    do {
      (client, version) = try await ServerConnection.reach(configuration: configuration)
    } catch {
      line(.fail, error.message, tally)
      return .failure(error)
    }
    let pong = (try? await client.ping()) ?? false
    line(
      pong ? .ok : .warn,
      "server answers at \(client.apiBase): Immich \(version)" + (pong ? "" : " (no pong)"), tally)
    if version < TestedVersions.oldest {
      line(
        .warn,
        "Immich \(version) is older than \(TestedVersions.oldest), the oldest version"
          + " cairn knows", tally)
    }
    return .success((client, version))
  }

  /// The key's user, which names the partition; nil when the server would not say. The
  /// checks go on unless the key was refused or the server failed.
  private func checkKey(_ client: ImmichClient, _ version: ServerVersion, _ tally: Tally) async
    -> (identity: ServerIdentity?, goOn: Bool)
  {
    do {
      let user = try await client.currentUser()
      line(.ok, "API key accepted: user \(user.email) (\(user.id))", tally)
      let identity = ServerIdentity(
        url: client.apiBase, userId: user.id.lowercased(), version: version.description)
      return (identity, true)
    } catch {
      line(.fail, error.message, tally)
      tally.worsen(error.exitStatus)
      return (nil, error.kind != .unauthorized && error.exitStatus != .serverFailure)
    }
  }

  /// A server newer than cairn was tested with: always said here (this is the report the
  /// user asked for), and remembered so the nightly run does not say it again.
  private func noteNewerVersion(
    _ version: ServerVersion, _ identity: ServerIdentity?, _ tally: Tally
  ) {
    guard let warning = TestedVersions.newerWarning(version) else { return }
    line(.warn, warning, tally)
    if let identity {
      _ = NewerVersionNotice.take(version, configuration.paths, identity.partition)
    }
  }

  private func checkPermissions(
    _ client: ImmichClient, _ version: ServerVersion, _ tally: Tally
  ) async {
    let key: APIKeyInfo
    do {
      key = try await client.currentAPIKey()
    } catch {
      line(.fail, "cannot read the key's permissions: \(error.message)", tally)
      tally.worsen(error.exitStatus)
      return
    }
    for permission in CairnPermissions.required {
      if key.grants(permission) {
        line(.ok, "permission \(permission): \(CairnPermissions.purpose(permission))", tally)
      } else {
        line(
          .fail,
          "permission \(permission) missing (needed to \(CairnPermissions.purpose(permission))):"
            + " edit the key in Immich → Account Settings → API Keys", tally)
        tally.worsen(.permission)
      }
    }
    checkReviewPermissions(key, tally)
    for permission in CairnPermissions.optional
    where !key.grants(permission) && !reviewNeeds(permission) {
      line(
        .warn,
        "permission \(permission) missing (optional: to \(CairnPermissions.purpose(permission)))",
        tally)
    }
    checkConfigPermission(key, version, tally)
  }

  /// With review in Immich on, the permissions it adds are needed, not optional: a run that
  /// cannot read the decision tags or set the marks fails.
  private func checkReviewPermissions(_ key: APIKeyInfo, _ tally: Tally) {
    guard (try? ReviewInImmich.isOn(configuration)) == true else { return }
    for permission in CairnPermissions.reviewInImmich {
      if key.grants(permission) {
        line(.ok, "permission \(permission): \(CairnPermissions.reviewPurpose(permission))", tally)
      } else {
        line(
          .fail,
          "permission \(permission) missing (needed with \(ReviewInImmich.setting)=on to "
            + "\(CairnPermissions.reviewPurpose(permission))): edit the key in Immich → Account "
            + "Settings → API Keys", tally)
        tally.worsen(.permission)
      }
    }
  }

  private func reviewNeeds(_ permission: String) -> Bool {
    (try? ReviewInImmich.isOn(configuration)) == true
      && CairnPermissions.reviewInImmich.contains(permission)
  }

  /// `userConfig.read` exists from Immich 3.2 on, where the trash settings moved to
  /// `GET /api/config`; without it cairn reads the deprecated endpoints while they last.
  private func checkConfigPermission(_ key: APIKeyInfo, _ version: ServerVersion, _ tally: Tally) {
    guard version >= CairnPermissions.configPermissionSince else { return }
    let permission = ImmichClient.userConfigPermission
    if key.grants(permission) {
      line(.ok, "permission \(permission): \(CairnPermissions.purpose(permission))", tally)
    } else {
      line(
        .warn,
        "permission \(permission) missing (Immich \(version) keeps the trash settings in"
          + " GET /api/config; cairn reads the deprecated /api/server/config meanwhile, which"
          + " Immich 4 is expected to remove): add it to the key", tally)
    }
  }

  /// The trash must be on and keep what it holds: cairn's undo depends on it.
  private func checkTrash(_ client: ImmichClient, _ tally: Tally) async {
    do {
      let settings = try await client.trashSettings()
      line(.note, "trash settings read from \(Self.describe(settings.source))", tally)
      if settings.enabled {
        line(.ok, "the server's trash is enabled", tally)
      } else {
        line(
          .fail,
          "the server's trash is disabled: trashed assets would be purged at the next nightly"
            + " job, so cairn refuses to run (enable it under Administration → Settings → Trash)",
          tally)
        tally.worsen(.refused)
      }
      if settings.days >= 1 {
        line(.ok, "trashed assets stay restorable for \(settings.days) days", tally)
      } else {
        line(.fail, "trashed assets are kept for 0 days: cairn refuses to run", tally)
        tally.worsen(.refused)
      }
    } catch {
      line(.fail, error.message, tally)
      tally.worsen(error.exitStatus)
    }
  }

  static func describe(_ source: ServerTrashSettings.Source) -> String {
    switch source {
    case .userConfig: return "GET /api/config"
    case .serverConfig: return "GET /api/server/features and /api/server/config"
    case .serverConfigWithoutPermission:
      return "the deprecated GET /api/server/features and /api/server/config (no userConfig.read)"
    }
  }

  private func checkSession(_ client: ImmichClient, _ identity: ServerIdentity, _ tally: Tally) {
    let path = SessionStore.path(configuration.paths, identity.partition)
    if (try? SessionStore.load(configuration.paths, identity.partition)) == nil {
      line(
        .note,
        "no saved session: listings go page by page ('cairn-fetch login' for the"
          + " incremental sync stream)", tally)
    } else {
      line(.note, "saved session: \(path)", tally)
    }
  }

  private func checkSessionWorks(
    _ client: ImmichClient, _ identity: ServerIdentity, _ tally: Tally
  ) async {
    guard let session = try? SessionStore.load(configuration.paths, identity.partition) else {
      return
    }
    do {
      _ = try await client.usingSession(session.token).syncAcks()
      line(.ok, "the saved session is accepted for the sync stream", tally)
    } catch {
      line(.warn, "the saved session is not accepted (\(error.message))", tally)
    }
  }
}

import ArgumentParser
import CairnCore
import CairnImmich

struct CairnFetch: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-fetch",
    abstract: "List the Immich server's assets as asset records",
    usage: """
      cairn-fetch [<options>]
      cairn-fetch <subcommand> [<options>]
      """,
    discussion: """
      Writes a header (with the server and user: the state partition), one asset record per \
      asset the API key's user owns (timeline, archive and hidden; trashed ones flagged; \
      never locked ones, never a partner's), and an end record with the counts. Records are \
      sorted by asset id.

      With a saved session ('cairn-fetch login'), only the changes since the last run are \
      fetched from the sync stream into a local cache; otherwise the server is listed page by \
      page.

      Settings: IMMICH_URL and IMMICH_API_KEY (or IMMICH_API_KEY_FILE, a private file holding \
      it), from the environment, ./.env or $XDG_CONFIG_HOME/cairn/config (the section of \
      --profile NAME there).

      Subcommands replace the listing: 'identity' (the header only), 'check' (can cairn run \
      here?), 'diagnose' (what the listing holds), 'login' and 'logout' (the session).

      Exit status: 0 success, 25 trash disabled (check), 64 usage, 69 server unreachable \
      or failing, 74 local state unwritable, 77 key rejected or permission missing, \
      78 configuration missing.
      """,
    version: CairnVersion.current,
    subcommands: [
      FetchIdentity.self, FetchCheck.self, FetchDiagnose.self, FetchLogin.self, FetchLogout.self,
    ])

  /// The older spellings of the subcommands (`--check` for `check`, …), kept working and
  /// hidden from help.
  @Flag(help: .hidden) var identity = false
  @Flag(help: .hidden) var check = false
  @Flag(help: .hidden) var diagnose = false
  @Flag(help: .hidden) var login = false
  @Flag(help: .hidden) var logout = false
  @Option(help: .hidden) var email: String?

  @Flag(help: "Ignore the cache and list every asset page by page.")
  var full = false

  @Flag(name: .customLong("no-sync"), help: "Never use the sync stream, even with a session.")
  var noSync = false

  @OptionGroup var common: CommonOptions

  func validate() throws {
    let modes = [identity, check, diagnose, login, logout].filter { $0 }.count
    if modes > 1 {
      throw ValidationError(
        "--identity, --check, --diagnose, --login and --logout exclude each other")
    }
    if email != nil && !login {
      throw ValidationError("--email only goes with --login")
    }
  }

  func run() async throws {
    try await action.run(common, full: full, noSync: noSync)
  }

  /// The listing, or what an older spelling asked for instead.
  private var action: FetchAction {
    if check { return .check }
    if login { return .login(email: email) }
    if logout { return .logout }
    if identity { return .identity }
    return diagnose ? .diagnose : .list
  }
}

/// What one cairn-fetch run does: its main job (`list`) or one of its subcommands.
enum FetchAction {
  case list, identity, check, diagnose, logout
  case login(email: String?)

  func run(_ common: CommonOptions, full: Bool = false, noSync: Bool = false) async throws {
    try await Tool.run(CairnFetch.self, common) {
      let configuration = try Configuration.load()
      do {
        switch self {
        case .check: return try await Checker(configuration: configuration).run()
        case .login(let email):
          return try await SessionCommands(configuration: configuration).login(email)
        case .logout: return try await SessionCommands(configuration: configuration).logout()
        case .list, .identity, .diagnose:
          let lister = Lister(
            configuration: configuration, mode: listerMode, useCache: !full,
            useSync: !noSync && !full)
          return try await lister.run()
        }
      } catch let error as ImmichError {
        throw error.cairnError
      }
    }
  }

  /// What the lister writes, for the actions that list.
  private var listerMode: Lister.Mode {
    switch self {
    case .identity: .identity
    case .diagnose: .diagnose
    default: .list
    }
  }
}

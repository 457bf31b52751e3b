import ArgumentParser
import CairnImmich
import CairnSettings
import CairnSupport
import CairnTool

struct CairnFetch: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-fetch",
    abstract: "List the Immich server's assets as asset records",
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
      FetchList.self, FetchIdentity.self, FetchCheck.self, FetchDiagnose.self, FetchLogin.self,
      FetchLogout.self,
    ],
    defaultSubcommand: FetchList.self)
}

/// cairn-fetch's main job, run when no other subcommand is named: the listing.
struct FetchList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "Write a header, an asset record per asset and an end record",
    usage: """
      cairn-fetch [<options>]
      cairn-fetch <subcommand> [<options>]
      """,
    shouldDisplay: false)

  /// The older spellings of the subcommands (`--check` for `check`, …), kept working and
  /// hidden from help.
  @Flag(help: .hidden) var identity = false
  @Flag(help: .hidden) var check = false
  @Flag(help: .hidden) var diagnose = false
  @Flag(help: .hidden) var login = false
  @Flag(help: .hidden) var logout = false
  @Option(help: .hidden) var email: String?

  @OptionGroup var source: ListingSource

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
    if check { return try await FetchCheck.run(common) }
    if login { return try await FetchLogin.run(email: email, common) }
    if logout { return try await FetchLogout.run(common) }
    if identity { return try await FetchIdentity.run(common) }
    if diagnose { return try await FetchDiagnose.run(source, common) }
    try await CairnFetch.run(common) { configuration in
      try await Lister(configuration: configuration, source: source).list()
    }
  }
}

/// Which listing a run reads: the sync stream into the cache when a session allows it, or
/// every page.
struct ListingSource: ParsableArguments {
  @Flag(help: "Ignore the cache and list every asset page by page.")
  var full = false

  @Flag(name: .customLong("no-sync"), help: "Never use the sync stream, even with a session.")
  var noSync = false

  /// Whether the saved session's sync stream may be read.
  var usesSync: Bool { !noSync && !full }
}

extension CairnFetch {
  /// Runs one cairn-fetch job with the configuration, as a tool run; a server's error is
  /// said as cairn says errors.
  static func run(
    _ common: CommonOptions, _ job: (Configuration) async throws -> ExitStatus
  ) async throws {
    try await Tool.run(CairnFetch.self, common) {
      let configuration = try Configuration.load()
      do {
        return try await job(configuration)
      } catch let error as ImmichError {
        throw error.cairnError
      }
    }
  }
}

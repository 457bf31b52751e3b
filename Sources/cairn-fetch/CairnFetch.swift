import ArgumentParser
import CairnCore
import CairnImmich

struct CairnFetch: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-fetch",
    abstract: "List the Immich server's assets as asset records",
    discussion: """
      Writes a header (with the server and user: the state partition), one asset record per \
      asset the API key's user owns (timeline, archive and hidden; trashed ones flagged; \
      never locked ones, never a partner's), and an end record with the counts. Records are \
      sorted by asset id.

      With a saved session (--login), only the changes since the last run are fetched from \
      the sync stream into a local cache; otherwise the server is listed page by page.

      Settings: IMMICH_URL and IMMICH_API_KEY (or IMMICH_API_KEY_FILE, a private file holding \
      it), from the environment, ./.env or $XDG_CONFIG_HOME/cairn/config (the section of \
      --profile NAME there).

      Exit status: 0 success, 25 trash disabled (--check), 64 usage, 69 server unreachable \
      or failing, 74 local state unwritable, 77 key rejected or permission missing, \
      78 configuration missing.
      """,
    version: CairnVersion.current)

  @Flag(help: "Print only the header (with the server identity) and an end record.")
  var identity = false

  @Flag(help: "Check URL, key, permissions and trash settings; one line per check on stderr.")
  var check = false

  @Flag(help: "Report counts per visibility and Live Photo problems on stderr.")
  var diagnose = false

  @Flag(help: "Log in with email and password and save a session for the fast sync stream.")
  var login = false

  @Flag(help: "End the saved session and forget it.")
  var logout = false

  @Option(help: "The account email for --login (default: IMMICH_EMAIL).")
  var email: String?

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
    try await Tool.run(Self.self, common) {
      let configuration = try Configuration.load()
      do {
        if check { return try await Checker(configuration: configuration).run() }
        if login { return try await SessionCommands(configuration: configuration).login(email) }
        if logout { return try await SessionCommands(configuration: configuration).logout() }
        let mode: Lister.Mode = identity ? .identity : diagnose ? .diagnose : .list
        let lister = Lister(
          configuration: configuration, mode: mode, useCache: !full, useSync: !noSync && !full)
        return try await lister.run()
      } catch let error as ImmichError {
        throw error.cairnError
      }
    }
  }
}

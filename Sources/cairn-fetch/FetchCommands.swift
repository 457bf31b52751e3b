import ArgumentParser
import CairnTool

/// `cairn-fetch identity`: the header with the server and user (the state partition), and an
/// end record; what the other tools run to learn the partition.
struct FetchIdentity: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "identity",
    abstract: "Print only the header (with the server identity) and an end record")

  @OptionGroup var common: CommonOptions

  func run() async throws { try await Self.run(common) }

  static func run(_ common: CommonOptions) async throws {
    try await CairnFetch.run(common) { configuration in
      try await Lister(configuration: configuration).identity()
    }
  }
}

/// `cairn-fetch check`: can cairn run against this server with this key?
struct FetchCheck: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Check URL, key, permissions and trash settings; one line per check on stderr")

  @OptionGroup var common: CommonOptions

  func run() async throws { try await Self.run(common) }

  static func run(_ common: CommonOptions) async throws {
    try await CairnFetch.run(common) { configuration in
      try await Checker(configuration: configuration).run()
    }
  }
}

/// `cairn-fetch diagnose`: what the listing holds, for a person.
struct FetchDiagnose: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diagnose",
    abstract: "Report counts per visibility and Live Photo problems on stderr")

  @OptionGroup var common: CommonOptions

  @OptionGroup var source: ListingSource

  func run() async throws { try await Self.run(source, common) }

  static func run(_ source: ListingSource, _ common: CommonOptions) async throws {
    try await CairnFetch.run(common) { configuration in
      try await Lister(configuration: configuration, source: source).diagnose()
    }
  }
}

/// `cairn-fetch login`: a session for the fast sync stream.
struct FetchLogin: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "login",
    abstract: "Log in with email and password and save a session for the fast sync stream")

  @OptionGroup var common: CommonOptions

  @Option(help: "The account email (default: IMMICH_EMAIL).")
  var email: String?

  func run() async throws { try await Self.run(email: email, common) }

  static func run(email: String?, _ common: CommonOptions) async throws {
    try await CairnFetch.run(common) { configuration in
      try await SessionCommands(configuration: configuration).login(email)
    }
  }
}

/// `cairn-fetch logout`: ends the saved session.
struct FetchLogout: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "logout",
    abstract: "End the saved session and forget it")

  @OptionGroup var common: CommonOptions

  func run() async throws { try await Self.run(common) }

  static func run(_ common: CommonOptions) async throws {
    try await CairnFetch.run(common) { configuration in
      try await SessionCommands(configuration: configuration).logout()
    }
  }
}

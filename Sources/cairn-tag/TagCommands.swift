import ArgumentParser
import CairnCore

/// `cairn-tag list`: cairn's runs as the server's run tags tell them.
struct TagList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List cairn's runs from the server's run tags (also the default)")

  @OptionGroup var common: CommonOptions

  func run() async throws {
    try await Tool.run(CairnTag.self, common) { try await ServerHistory().list() }
  }
}

/// `cairn-tag show RUN`: the assets of one run, from the server alone.
struct TagShow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Write the assets of one run, trashed ones included")

  @OptionGroup var common: CommonOptions

  @Argument(help: ArgumentHelp("The run whose assets to write.", valueName: "run-id"))
  var runID: String

  func validate() throws { try Self.validate(runID) }

  /// A run id is checked before the server is asked, for `show` and for `--run-id` alike.
  static func validate(_ runID: String) throws {
    if RunID(runID) == nil {
      throw ValidationError("\(runID) is not a cairn run id (like 2026-11-22T10:15:00Z-3F2A9C1B)")
    }
  }

  func run() async throws {
    try await Tool.run(CairnTag.self, common) { try await ServerHistory().show(runID) }
  }
}

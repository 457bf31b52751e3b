import ArgumentParser
import CairnTool

/// `cairn-restore list`: the runs in the local journal, of every partition.
struct JournalList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the runs in the local journal (no server needed)")

  @OptionGroup var common: CommonOptions

  @OptionGroup var format: ListFormat

  func run() async throws {
    try await Tool.run(CairnRestore.self, common) {
      try JournalView(showRun: nil, table: format.printsTable).run()
    }
  }
}

/// `cairn-restore show RUN`: one run's assets and what happened to each since.
struct JournalShow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show one run from the local journal: its assets and their fate since")

  @OptionGroup var common: CommonOptions

  @OptionGroup var format: ListFormat

  @Argument(help: ArgumentHelp("The run to show.", valueName: "run-id"))
  var runID: String

  func validate() throws { try RunIDArgument.validate(runID) }

  func run() async throws {
    try await Tool.run(CairnRestore.self, common) {
      try JournalView(showRun: runID, table: format.printsTable).run()
    }
  }
}

import ArgumentParser
import CairnCore
import Foundation

struct CairnTag: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-tag",
    abstract: "Show cairn's history from the server's run tags, or tag assets",
    usage: """
      cairn-tag [<options>] [--add <tag> [--dry-run] [<file>]]
      cairn-tag <subcommand> [<arguments>]
      """,
    discussion: """
      Works from the server alone, so it still works when the local journal is lost. \
      'list' (also what cairn-tag does with no subcommand and no --add) writes a run record \
      for every cairn/v1/run/<run-id> tag, with how many assets carry it and how many of them \
      are in the trash. 'show RUN' writes an asset record for each asset of that run, trashed \
      ones included, across every visibility an API key can see. --add TAG tags the assets \
      named by asset, result or candidate records in the file named, or on standard input \
      (PUT /api/tags, then PUT /api/tags/assets).
      """,
    version: CairnVersion.current,
    subcommands: [TagList.self, TagShow.self])

  @OptionGroup var common: CommonOptions

  /// The older spelling of `list`, kept working and hidden from help.
  @Flag(name: .customLong("list"), help: .hidden)
  var list = false

  /// The older spelling of `show RUN`, kept working and hidden from help.
  @Option(name: .customLong("run-id"), help: .hidden)
  var runID: String?

  @Option(
    name: .customLong("add"),
    help: ArgumentHelp(
      "Tag the assets named by the records read with this tag value.", valueName: "tag"))
  var addTag: String?

  @Flag(
    name: .customLong("dry-run"), help: "With --add: show what would be tagged; change nothing.")
  var dryRun = false

  @OptionGroup var input: RecordInput

  func validate() throws {
    let modes = [list, runID != nil, addTag != nil].filter { $0 }.count
    if modes > 1 { throw ValidationError("--list, --run-id and --add exclude each other") }
    if dryRun && addTag == nil { throw ValidationError("--dry-run goes with --add") }
    if input.isNamed && addTag == nil { throw ValidationError("a file of records goes with --add") }
    if let runID { try TagShow.validate(runID) }
    if let addTag, addTag.split(separator: "/").isEmpty {
      throw ValidationError("--add needs a tag value such as holiday/2024")
    }
  }

  func run() async throws {
    try await Tool.run(Self.self, common) {
      let history = ServerHistory()
      if let runID { return try await history.show(runID) }
      if let addTag { return try await history.tag(addTag, dryRun: dryRun, input: input) }
      return try await history.list()
    }
  }
}

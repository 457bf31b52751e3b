import ArgumentParser
import CairnStream
import CairnTool

/// `cairn-tag list`, the main job: cairn's runs as the server's run tags tell them.
struct TagList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List cairn's runs from the server's run tags")

  @OptionGroup var common: CommonOptions

  @OptionGroup var format: ListFormat

  /// The older spellings of `list`, `show RUN` and `add TAG`, kept working and hidden from
  /// help (`--add` was an action in place of the main job; `add` is a subcommand now).
  @Flag(name: .customLong("list"), help: .hidden)
  var list = false
  @Option(name: .customLong("run-id"), help: .hidden)
  var runID: String?
  @Option(name: .customLong("add"), help: .hidden)
  var addTag: String?
  @Flag(name: .customLong("dry-run"), help: .hidden)
  var dryRun = false
  @OptionGroup(visibility: .hidden) var input: RecordInput

  func validate() throws {
    let modes = [list, runID != nil, addTag != nil].filter { $0 }.count
    if modes > 1 { throw ValidationError("--list, --run-id and --add exclude each other") }
    if dryRun && addTag == nil { throw ValidationError("--dry-run goes with --add") }
    if input.isNamed && addTag == nil { throw ValidationError("a file of records goes with --add") }
    if let runID { try RunIDArgument.validate(runID) }
    if let addTag { try TagAdd.validate(addTag, spelled: "--add") }
  }

  func run() async throws {
    try await Tool.run(CairnTag.self, common) {
      let history = ServerHistory(table: format.printsTable)
      if let runID { return try await history.show(runID) }
      if let addTag { return try await history.tag(addTag, dryRun: dryRun, input: input) }
      return try await history.list()
    }
  }
}

/// `cairn-tag show RUN`: the assets of one run, from the server alone.
struct TagShow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "List the assets of one run, trashed ones included")

  @OptionGroup var common: CommonOptions

  @OptionGroup var format: ListFormat

  @Argument(help: ArgumentHelp("The run whose assets to list.", valueName: "run-id"))
  var runID: String

  func validate() throws { try RunIDArgument.validate(runID) }

  func run() async throws {
    try await Tool.run(CairnTag.self, common) {
      try await ServerHistory(table: format.printsTable).show(runID)
    }
  }
}

/// `cairn-tag add TAG`: tag the assets a stream names.
struct TagAdd: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Tag the assets named by the records read",
    discussion: """
      Reads asset, result or candidate records from the file named, or standard input, and \
      gives every asset they name the tag TAG (PUT /api/tags, then PUT /api/tags/assets); \
      writes a result record per asset.
      """)

  @OptionGroup var common: CommonOptions

  @Argument(help: ArgumentHelp("The tag value, such as holiday/2024.", valueName: "tag"))
  var tag: String

  @OptionGroup var dryRun: DryRun

  @OptionGroup var input: RecordInput

  func validate() throws { try Self.validate(tag, spelled: "add") }

  /// A tag value has at least one part between its slashes.
  static func validate(_ tag: String, spelled: String) throws {
    if tag.split(separator: "/").isEmpty {
      throw ValidationError("\(spelled) needs a tag value such as holiday/2024")
    }
  }

  func run() async throws {
    try await Tool.run(CairnTag.self, common) {
      try await ServerHistory().tag(tag, dryRun: dryRun.dryRun, input: input)
    }
  }
}

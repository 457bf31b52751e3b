import ArgumentParser
import CairnStream
import CairnSupport
import CairnTool
import Foundation

struct CairnRestore: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-restore",
    abstract: "Bring assets that cairn trashed back from Immich's trash",
    discussion: """
      Selects assets of cairn runs by run id, by asset id, by a regular expression on the \
      original file name, or from asset, result or candidate records (in the file named, or on \
      standard input when no other selection is given), and restores \
      them with POST /api/trash/restore/assets (both halves of a Live Photo, whichever was \
      named). First reads the selection against the server: what someone else restored, or \
      restored and trashed again, is left as it is; what was purged is reported. A request \
      the server refuses is halved, so one purged asset never blocks the others. Reads back \
      which are active again, journals the restore under the run that trashed it, and \
      excludes the restored checksums so the next run does not trash them again.

      Only runs cairn made are touched: they are found in the local journal, or, when the \
      journal is lost, from the server's cairn/v1/run/<run-id> tags.

      'list' and 'show RUN' read the local journal only (no server needed): the runs of every \
      partition, or one run's assets and what happened to each since, as far as cairn has \
      seen the server.
      """,
    version: CairnVersion.current,
    subcommands: [RestoreAssets.self, JournalList.self, JournalShow.self],
    defaultSubcommand: RestoreAssets.self)
}

/// cairn-restore's main job, run when no other subcommand is named: the restore.
struct RestoreAssets: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Restore the assets selected from Immich's trash",
    usage: """
      cairn-restore [<options>] [<file>]
      cairn-restore <subcommand> [<arguments>]
      """,
    shouldDisplay: false)

  @OptionGroup var common: CommonOptions

  @Option(
    name: .customLong("run-id"),
    help: ArgumentHelp(
      "Restore every asset of this run still in the trash (repeatable).", valueName: "run-id"))
  var runIDs: [String] = []

  @Option(
    name: .customLong("asset-id"), parsing: .upToNextOption,
    help: ArgumentHelp(
      "Restore these assets (and the other half of a Live Photo).", valueName: "id"))
  var assetIDs: [String] = []

  @Option(
    name: .customLong("file-name-matches"),
    help: ArgumentHelp(
      "Restore assets of cairn runs whose original file name matches this regular expression.",
      valueName: "regex"))
  var fileNamePattern: String?

  @OptionGroup var dryRun: DryRun

  /// The older spelling of `list`, kept working and hidden from help.
  @Flag(name: .customLong("list"), help: .hidden)
  var list = false

  /// The older spelling of `show RUN`, kept working and hidden from help.
  @Option(name: .customLong("show"), help: .hidden)
  var show: String?

  @OptionGroup var input: RecordInput

  func validate() throws {
    for runID in runIDs { try RunIDArgument.validate(runID) }
    if let show { try RunIDArgument.validate(show) }
    if let pattern = fileNamePattern {
      do { _ = try NSRegularExpression(pattern: pattern) } catch {
        throw ValidationError("--file-name-matches: not a regular expression: \(pattern)")
      }
    }
    if list && show != nil { throw ValidationError("--list and --show exclude each other") }
    if (list || show != nil) && input.isNamed {
      throw ValidationError("--list and --show read the journal, not a file of records")
    }
  }

  func run() async throws {
    try await Tool.run(CairnRestore.self, common) {
      if list || show != nil {
        return try JournalView(showRun: show, table: ListFormat.terminalPrintsTable).run()
      }
      return try await Restore(
        runIDs: runIDs, assetIDs: assetIDs, fileNamePattern: fileNamePattern,
        dryRun: dryRun.dryRun,
        input: input
      ).run()
    }
  }
}

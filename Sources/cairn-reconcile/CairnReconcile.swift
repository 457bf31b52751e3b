import ArgumentParser
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

struct CairnReconcile: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-reconcile",
    abstract: "Find the server assets whose local files are gone",
    discussion: """
      Reads a scan (cairn-hash or cairn-observe output) on standard input and the server's \
      assets (a live cairn-fetch, or --server FILE), and writes one candidate record per \
      server asset whose bytes were seen in the library and are gone from it, bucketed \
      delete, pending or held.

      Only roots this scan covered completely can make anything gone. A scan with error \
      records, an empty or missing root, or without its end record is refused (exit 25 or \
      65) and nothing is recorded, unless --skip-incomplete-roots says to leave those roots \
      out. When the scan did not pass through cairn-observe, it is recorded in the observed \
      store first, and the trash folders are searched for deletion signals as cairn-observe \
      would; Android's trash (.trashed-<expires>-<name>) is looked for beside the photos that \
      are gone either way. The first-missing time of every gone checksum is recorded too. \
      Nothing else is: reconcile changes nothing on the server and decides nothing for good.
      """,
    version: CairnVersion.current)

  @OptionGroup var common: CommonOptions
  @OptionGroup var settings: CandidateSettingsOptions

  // The threshold is cairn-gate's rail, and a flag of an earlier stage must not reach it
  // through the stream. These spellings once were accepted here and never applied; they are
  // kept only to say so, not as aliases.
  @Option(name: .customLong("threshold"), help: .hidden) var misplacedThreshold: String?
  @Option(name: .customLong("floor"), help: .hidden) var misplacedFloor: String?

  @Option(
    name: .customLong("server"),
    help: ArgumentHelp(
      "Read the server's assets from FILE (cairn-fetch output) instead of running cairn-fetch.",
      valueName: "file"),
    completion: .file())
  var serverFile: String?

  @Flag(
    help:
      "Go on when some roots are incomplete, empty or missing: nothing under them counts as gone.")
  var skipIncompleteRoots = false

  @Flag(
    help:
      "Do not look for deletion signals: in trash folders, and in Android's trash beside the photos."
  )
  var noTrash = false

  @OptionGroup var input: RecordInput

  func run() async throws {
    try await Tool.run(Self.self, common) {
      try refuseRailFlags()
      var run = try Reconcile(options: self)
      return try run.run()
    }
  }
}

extension CairnReconcile {
  /// `--threshold` or `--floor` here is a usage error (64) that says where they belong.
  func refuseRailFlags() throws(CairnError) {
    let given = [("threshold", misplacedThreshold), ("floor", misplacedFloor)]
      .filter { $0.1 != nil }.map { "--\($0.0)" }
    guard !given.isEmpty else { return }
    let them = given.count == 1 ? "it" : "them"
    throw CairnError(
      .usage,
      "\(given.joined(separator: " and ")): the threshold rail is cairn-gate's; give \(them) "
        + "to cairn-gate (cairn-reconcile never applied \(them))")
  }
}

import ArgumentParser
import CairnSupport
import CairnTool

struct CairnObserve: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-observe",
    abstract: "Record what the library holds, and inspect or manage that memory",
    discussion: """
      With no subcommand (or 'record'), reads a scan (cairn-hash output) on standard input, \
      records every file's checksum under its root in the partition's observed store, \
      collects positive deletion signals from trash folders, and passes every line through \
      unchanged, so it can sit anywhere in a pipeline:

        cairn-hash ~/Photos | cairn-observe | cairn-reconcile | cairn-gate | cairn-trash

      The partition (server URL and user) comes from the stream's header, else --server FILE, \
      else 'cairn-fetch identity'. Only a complete scan of a root can later make anything \
      under it gone; a partial scan only adds observations.
      """,
    version: CairnVersion.current,
    subcommands: [
      RecordCommand.self, List.self, Show.self, Exclude.self, Include.self, Import.self, Reset.self,
      Watch.self,
    ],
    defaultSubcommand: RecordCommand.self)
}

/// How the partition is chosen when the input does not say.
struct PartitionOptions: ParsableArguments {
  @Option(
    name: .customLong("server"),
    help: ArgumentHelp(
      "Take the server and user from FILE's header (cairn-fetch output) instead of running "
        + "'cairn-fetch identity'.", valueName: "file"),
    completion: .file())
  var serverFile: String?
}

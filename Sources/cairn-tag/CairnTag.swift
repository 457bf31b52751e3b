import ArgumentParser
import CairnSupport
import CairnTool
import Foundation

struct CairnTag: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-tag",
    abstract: "Show cairn's history from the server's run tags, or tag assets",
    discussion: """
      Works from the server alone, so it still works when the local journal is lost. \
      'list' (also what cairn-tag does with no subcommand) lists every cairn/v1/run/<run-id> \
      tag, with how many assets carry it and how many of them are in the trash. 'show RUN' \
      writes an asset record for each asset of that run, trashed ones included, across every \
      visibility an API key can see. 'add TAG' tags the assets named by asset, result or \
      candidate records in the file named, or on standard input (PUT /api/tags, then PUT \
      /api/tags/assets).
      """,
    version: CairnVersion.current,
    subcommands: [TagList.self, TagShow.self, TagAdd.self],
    defaultSubcommand: TagList.self)
}

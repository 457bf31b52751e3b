import ArgumentParser
import CairnStream
import CairnSupport
import CairnTool
import Foundation

struct CairnTrash: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-trash",
    abstract: "Move the assets of an approved plan to Immich's trash, tagged and journalled",
    discussion: """
      Reads cairn-gate's output from the file named or standard input (a header, candidates, and an end record \
      whose plan digest must match the candidates). Upserts the run tag cairn/v1/run/<run-id>, \
      tags every asset and its Live Photo motion video, then moves them to the trash with \
      DELETE /api/assets (force:false, batches of at most 1000), journalling every step. \
      Writes a result record per asset and an end record with the run id and counts.

      Trusts nothing else its input says: the plan must name the latest recorded scan and be \
      the one cairn-gate passed for it; the gate's rails are run again from the partition's \
      state; every item must be a candidate cairn-reconcile computed from that scan, observed \
      and found gone by it. Any failure refuses the whole plan (exit 25) before anything \
      changes. After the DELETEs it reads back what the server moved: an asset left where it \
      was is reported failed (exit 1) and planned again next time.

      The first run on a partition is a dry run whatever the flags. A real run asks for \
      confirmation on the terminal, or takes --yes; without a terminal and without --yes it \
      refuses. A run that was interrupted (crash, kill, lost connection) is settled by the \
      next one before anything else: a DELETE that may still be in the server's hands is \
      waited for (CAIRN_SETTLE_WAIT), never sent again; what the server trashed is kept and \
      journalled, the rest is untagged and left for the current plan.
      """,
    version: CairnVersion.current)

  @OptionGroup var common: CommonOptions

  @OptionGroup var dryRun: DryRun

  @OptionGroup var confirmation: Confirmation

  @Option(
    name: .customLong("batch-size"),
    help: ArgumentHelp("Assets per DELETE request, 2 to 1000.", valueName: "n"))
  var batchSize = 1000

  @OptionGroup var input: RecordInput

  func validate() throws {
    guard (2...1000).contains(batchSize) else {
      throw ValidationError("--batch-size must be from 2 to 1000")
    }
  }

  func run() async throws {
    try await Tool.run(Self.self, common) {
      try await Trash(
        input: input, dryRun: dryRun.dryRun, yes: confirmation.yes, batchSize: batchSize
      ).run()
    }
  }
}

import ArgumentParser
import CairnSafety
import CairnSettings
import CairnStream
import CairnSupport
import CairnTool
import Foundation

struct CairnGate: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-gate",
    abstract: "Check the safety rails, preview the plan and pass on what may be trashed",
    discussion: """
      Reads cairn-reconcile's candidates from the file named or standard input. Refuses (exit 25, nothing on \
      standard output) when a safety rail trips: an incomplete or error-carrying stream, an \
      empty or vanished root, an empty server where the last run matched many assets, or more \
      candidates than the threshold allows. Otherwise previews the plan on standard error and \
      writes a header, the approved candidates (the delete bucket plus approved pending ones) \
      and an end record carrying the plan digest, for cairn-trash.

      Decisions are stored per partition: --approve and --exclude take an asset id, a \
      checksum, or all-pending; --exclude also takes burst (every deletion of a burst of 50 or \
      more confirmed at once). Exclusions protect a checksum forever.

      --review FILE writes the whole plan (every bucket, whether or not the rails pass) as one \
      HTML page with Immich's thumbnails; its boxes build a cairn-gate command line carrying \
      --plan, which refuses (exit 25, storing nothing) any other plan.
      """,
    version: CairnVersion.current)

  @OptionGroup var common: CommonOptions

  @Option(
    name: .customLong("approve"),
    help: ArgumentHelp(
      "Approve a pending or held candidate: an asset id, a checksum, or all-pending (repeatable).",
      valueName: "id|checksum|all-pending"))
  var approve: [String] = []

  @Option(
    name: .customLong("exclude"),
    help: ArgumentHelp(
      "Protect a candidate forever: an asset id, a checksum, all-pending or burst (repeatable).",
      valueName: "id|checksum|all-pending|burst"))
  var exclude: [String] = []

  @Option(
    name: .customLong("override-threshold"),
    help: ArgumentHelp(
      "Let exactly this plan through the threshold rail (the digest the refusal printed).",
      valueName: "digest"))
  var overrideThreshold: String?

  @OptionGroup var rails: RailOptions

  @Option(
    name: .customLong("plan"),
    help: ArgumentHelp(
      "Act only if the stream's plan has this digest (the review page's command carries it).",
      valueName: "digest"))
  var plan: String?

  @Option(
    name: .customLong("review"),
    help: ArgumentHelp(
      "Write the whole plan as a self-contained HTML page with Immich's thumbnails to this file.",
      valueName: "file"),
    completion: .file(extensions: ["html"]))
  var review: String?

  @Option(
    name: .customLong("review-deadline"),
    help: ArgumentHelp(
      "Stop fetching thumbnails for --review after this many seconds (default 60).",
      valueName: "seconds"))
  var reviewDeadline: Int = 60

  @Flag(
    name: .customLong("all"), help: "List every item in the preview, not the first 20 per section.")
  var listAll = false

  @OptionGroup var input: RecordInput

  func validate() throws {
    if let digest = overrideThreshold, !PlanDigest.isWellFormed(digest) {
      throw ValidationError(
        "--override-threshold takes the 64-hex-digit plan digest the threshold refusal printed")
    }
    if let digest = plan, !PlanDigest.isWellFormed(digest) {
      throw ValidationError("--plan takes the 64-hex-digit plan digest the review page shows")
    }
    if !(1...3600).contains(reviewDeadline) {
      throw ValidationError("--review-deadline takes a number of seconds from 1 to 3600")
    }
  }

  func run() async throws {
    try await Tool.run(Self.self, common) {
      try await Gate(
        input: input, decisions: GateDecisions(approve: approve, exclude: exclude),
        overrideDigest: overrideThreshold, rails: rails, listAll: listAll || common.verbose,
        expectedPlan: plan,
        review: review.map { ReviewWriter(path: $0, deadline: .seconds(reviewDeadline)) }
      ).run()
    }
  }
}

import CairnRecords
import CairnSettings
import CairnStream
import Foundation

/// The safety rails of DESIGN-NOTES, as pure checks: each looks at the stream, the plan and the
/// stored state, and either passes or names itself and says how to go on.
///
/// `cairn-gate` runs the stream rails before it shows a plan; `cairn-trash` runs them again on
/// what reaches it, plus the server's trash setting. A refusal exits 25 and changes nothing.
package enum SafetyRails {
  /// The numbers the rails compare, gathered by the caller.
  package struct Inputs: Sendable {
    package var header: HeaderRecord
    /// nil when the stream had no end record.
    package var end: EndRecord?
    /// `error` records the stream carried.
    package var errorRecords: Int
    /// Candidates the plan would trash (delete bucket plus approved pending).
    package var planned: Int
    /// Server assets whose checksum is observed (`end.counts["matched"]`), when known.
    package var matched: Int?
    /// Server assets listed in this run (`end.counts["serverAssets"]`), when known.
    package var serverAssets: Int?
    /// How many assets the last passing run matched (stored per partition).
    package var lastMatched: Int?
    package var settings: Settings
    /// The plan's digest and the digest a person named with `--override-threshold`.
    package var planDigest: String
    package var overrideDigest: String?

    package init(
      header: HeaderRecord, end: EndRecord?, errorRecords: Int, planned: Int,
      matched: Int? = nil, serverAssets: Int? = nil, lastMatched: Int? = nil,
      settings: Settings = Settings(), planDigest: String, overrideDigest: String? = nil
    ) {
      self.header = header
      self.end = end
      self.errorRecords = errorRecords
      self.planned = planned
      self.matched = matched ?? end?.counts[CountKey.matched]
      self.serverAssets = serverAssets ?? end?.counts[CountKey.serverAssets]
      self.lastMatched = lastMatched
      self.settings = settings
      self.planDigest = planDigest
      self.overrideDigest = overrideDigest
    }
  }

  /// Threshold and floor, as the settings give them (`RailSettings`).
  package typealias Settings = RailSettings

  /// The `end.counts` keys the rails read.
  package enum CountKey {
    package static let matched = "matched"
    package static let serverAssets = "serverAssets"
  }

  package enum Rail: String, Sendable, CaseIterable {
    case incompleteStream = "incomplete-stream"
    case errorRecords = "error-records"
    case root = "root"
    case threshold = "threshold"
    case emptyServer = "empty-server"
    case trashDisabled = "trash-disabled"
    case planMismatch = "plan-digest"
    case scan = "scan"
    case gatePass = "gate-pass"
    case pointOfAction = "point-of-action"
  }

  /// Why a rail refused, and what the person can do about it.
  package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    package let rail: Rail
    package let reason: String
    package let remedy: String

    package init(_ rail: Rail, _ reason: String, _ remedy: String) {
      self.rail = rail
      self.reason = reason
      self.remedy = remedy
    }

    /// The one line a tool prints: which rail, why, how to proceed.
    package var description: String { "refused by the \(rail.rawValue) rail: \(reason); \(remedy)" }

    package var error: CairnError { CairnError(.refused, description) }
  }

  /// Every stream rail in order; the first refusal wins.
  package static func check(_ inputs: Inputs) -> Refusal? {
    stream(inputs) ?? roots(inputs) ?? emptyServer(inputs) ?? threshold(inputs)
  }

  /// Rail 3: a missing or incomplete trailer, or error records, means the scan is partial.
  package static func stream(_ inputs: Inputs) -> Refusal? {
    guard let end = inputs.end else {
      return Refusal(
        .incompleteStream, "the input has no end record (an upstream stage stopped early)",
        "rerun the whole pipeline and check the first stage's errors")
    }
    guard end.complete else {
      return Refusal(
        .incompleteStream, "\(end.tool) reported its output incomplete",
        "fix what it reported on stderr and rerun the pipeline")
    }
    let errors = max(end.errors, inputs.errorRecords)
    guard errors == 0 else {
      return Refusal(
        .errorRecords, "the input carries \(errors) error record(s), so the scan may be partial",
        "fix the files or folders they name (or scan only complete roots) and rerun")
    }
    return nil
  }

  /// Rail 3: a root that vanished, is empty or was read only in part can't prove anything gone.
  package static func roots(_ inputs: Inputs) -> Refusal? {
    guard let end = inputs.end else { return nil }
    for root in end.roots {
      if !root.complete {
        return Refusal(
          .root,
          "root \(root.path) was not scanned completely"
            + (root.problem.map { " (\($0))" } ?? ""),
          "mount or fix it, or leave it out of the scan")
      }
      if root.files == 0 {
        return Refusal(
          .root, "root \(root.path) is empty" + (root.problem.map { " (\($0))" } ?? ""),
          "an empty root looks like an unmounted volume: mount it, or leave it out of the scan")
      }
    }
    let reported = Set(end.roots.map(\.path))
    if !end.roots.isEmpty,
      let missing = inputs.header.roots.first(where: { !reported.contains($0) })
    {
      return Refusal(
        .root, "root \(missing) has no scan status (did it vanish?)",
        "check that it exists and rerun the pipeline")
    }
    return nil
  }

  /// Rail 4: an empty server listing when the last run matched many assets is a wrong URL, a
  /// wrong account or a server restored from an empty backup, not a mass deletion.
  package static func emptyServer(_ inputs: Inputs) -> Refusal? {
    guard let server = inputs.serverAssets, server == 0, let last = inputs.lastMatched,
      last >= max(inputs.settings.floor, 1)
    else { return nil }
    return Refusal(
      .emptyServer, "the server listed no assets, but the last run matched \(last)",
      "check IMMICH_URL and the API key's user; nothing is trashed until the server lists assets")
  }

  /// Rail 2: more candidates than the threshold allows, unless under the floor or explicitly
  /// approved by digest.
  package static func threshold(_ inputs: Inputs) -> Refusal? {
    let planned = inputs.planned
    let settings = inputs.settings
    if planned < settings.floor { return nil }
    let matched = inputs.matched ?? 0
    let allowed = settings.thresholdPercent / 100 * Double(matched)
    if Double(planned) <= allowed { return nil }
    if let override = inputs.overrideDigest {
      if override == inputs.planDigest { return nil }
      return Refusal(
        .threshold,
        "--override-threshold names plan \(override), but this plan is \(inputs.planDigest)",
        "the plan changed since you approved it: review the preview, then override with the new "
          + "digest")
    }
    let percent = matched > 0 ? Double(planned) * 100 / Double(matched) : 100
    return Refusal(
      .threshold,
      "\(planned) candidates are \(String(format: "%.1f", percent))% of \(matched) matched assets "
        + "(limit \(formatPercent(settings.thresholdPercent))%, floor \(settings.floor))",
      "review the preview, then approve exactly this plan with "
        + "--override-threshold \(inputs.planDigest)")
  }

  /// Rail 1: with trash disabled the server purges trashed assets at its next nightly job.
  package static func trash(enabled: Bool, days: Int?) -> Refusal? {
    if !enabled {
      return Refusal(
        .trashDisabled, "the server's trash is disabled, so trashed assets would be purged tonight",
        "enable the trash in Immich (Administration > Settings > Trash) and rerun")
    }
    if let days, days <= 0 {
      return Refusal(
        .trashDisabled, "the server keeps trashed assets for \(days) days",
        "set Immich's trash retention to at least one day and rerun")
    }
    return nil
  }

  /// The digest `cairn-trash` recomputed against the one `cairn-gate` wrote.
  package static func planDigest(stated: String?, computed: String) -> Refusal? {
    guard let stated else {
      return Refusal(
        .planMismatch, "the input's end record carries no plan digest",
        "feed cairn-trash the output of cairn-gate")
    }
    guard stated == computed else {
      return Refusal(
        .planMismatch, "the candidates don't match the plan cairn-gate approved (\(stated))",
        "don't edit gate output; rerun cairn-gate")
    }
    return nil
  }

  /// A plan is bound to the scan it was computed from (`HeaderRecord.scan`): one from another
  /// scan than the latest recorded (`latest`) describes a library that has changed since.
  package static func scanBinding(stated: String?, latest: String?) -> Refusal? {
    let rerun = "rerun the whole pipeline (cairn-hash ... | cairn-reconcile | cairn-gate | ...)"
    guard let stated else {
      return Refusal(
        .scan, "the plan names no scan it was computed from (made by hand, or by an older cairn)",
        rerun)
    }
    guard let latest else {
      return Refusal(.scan, "no scan is recorded for this partition", rerun)
    }
    guard stated == latest else {
      return Refusal(
        .scan,
        "the plan was made from an older scan (\(stated)) than the latest recorded one "
          + "(\(latest))", rerun)
    }
    return nil
  }

  static func formatPercent(_ value: Double) -> String {
    SettingRule<Double>.formatPercent(value)
  }
}

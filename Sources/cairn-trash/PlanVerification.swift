import CairnImmich
import CairnRecords
import CairnSafety
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// What cairn-trash checks before it changes anything, against the partition's state at that
/// moment rather than against its input: the plan is the one cairn-gate passed for the latest
/// recorded scan, every rail of the gate still holds, and every item passes `ActionCheck`.
/// Each failure is a refusal (exit 25) that names the check and what to run; nothing has been
/// sent to the server or written to the journal when it is thrown.
struct PlanVerification {
  let state: PartitionAccess
  let configuration: Configuration

  /// The scan binding, the gate's pass and the gate's rails, re-run from the state. `partOf`
  /// is the whole plan's digest when the stream is a filtered part of it (`digest` being the
  /// part's): every item must then be one of the plan the gate passed, as it passed it.
  func verifyPlan(
    header: HeaderRecord, end: EndRecord?, errorRecords: Int, candidates: [CandidateRecord],
    digest: String, partOf: String? = nil
  ) throws(CairnError) {
    let binding = state.store.binding
    if let refusal = SafetyRails.scanBinding(
      stated: header.scan, latest: try binding.latestScan())
    {
      throw refusal.error
    }
    let named = partOf ?? digest
    guard let pass = try binding.gatePass(), pass.scan == header.scan, pass.plan == named else {
      throw SafetyRails.Refusal(
        .gatePass,
        "this plan (\(named.prefix(12))) is not the one cairn-gate passed for the "
          + "latest scan", "feed cairn-trash the output of cairn-gate, run just now"
      ).error
    }
    if partOf != nil { try verifyPart(candidates, of: try binding.passedPlan()) }
    guard let reconciled = try binding.reconciled() else {
      throw SafetyRails.Refusal(
        .scan, "no cairn-reconcile run is recorded for the latest scan",
        "rerun the whole pipeline"
      ).error
    }
    // The threshold and floor the gate ran with when a person gave it its own for that run;
    // otherwise the configuration's.
    let rails: SafetyRails.Settings
    if let given = pass.rails {
      rails = given
    } else {
      rails = try ReconciliationSettings(configuration).rails
    }
    let inputs = SafetyRails.Inputs(
      header: header, end: end, errorRecords: errorRecords,
      planned: Self.trashItems(candidates).count,
      matched: reconciled.matched, serverAssets: reconciled.serverAssets,
      lastMatched: try state.store.meta.int(.lastMatchedCount),
      settings: rails, planDigest: pass.plan, overrideDigest: pass.overrideDigest)
    if let refusal = SafetyRails.check(inputs) { throw refusal.error }
  }

  /// A filtered part of a plan: each item must be in the plan the gate passed, with the same
  /// checksum and bucket. A part can then only trash or restore less than the plan the gate
  /// showed and its rails passed (the threshold rail is re-run on the part's count, with the
  /// override the gate accepted for the whole).
  private func verifyPart(
    _ candidates: [CandidateRecord], of passed: [String: ScanBinding.Proposal]
  ) throws(CairnError) {
    var seen: Set<String> = []
    for candidate in candidates {
      let member = passed[candidate.assetId.lowercased()]
      // A filter only leaves lines out: an item twice was not filtered, it was written.
      guard let member, member.checksum == candidate.checksum,
        member.bucket == candidate.bucket.rawValue, seen.insert(member.assetId).inserted
      else {
        throw SafetyRails.Refusal(
          .planMismatch,
          "\(candidate.originalFileName ?? candidate.assetId) is not in the plan cairn-gate "
            + "passed (or not as it passed it); a filtered plan may only leave items out",
          "filter cairn-gate's output, not a stream made or edited by hand"
        ).error
      }
    }
  }

  /// The items the trash stage acts on: the delete bucket, and the pending, held and kept
  /// buckets (which `ActionCheck` passes only when approved). (`restore` is the put-back's
  /// business and never reaches `ActionCheck`.)
  static func trashItems(_ candidates: [CandidateRecord]) -> [CandidateRecord] {
    candidates.filter { [Bucket.delete, .pending, .held, .kept].contains($0.bucket) }
  }

  /// Checks every item against the state; the Live Photo video each still is sent with is the
  /// one cairn-reconcile found linked on the server, whatever the stream says. Returns the
  /// candidates with that video filled in.
  func checkItems(_ candidates: [CandidateRecord], server: ImmichRunServer) async throws(CairnError)
    -> [CandidateRecord]
  {
    var check = try ActionCheck(store: state.store)
    check.ignoredPaths = try ReconciliationSettings.ignoredPaths(configuration)
    try check.prepare(candidates)
    let excluded = state.exclusions
    var refusals: [String] = []
    var checked: [CandidateRecord] = []
    for var candidate in candidates {
      let name = candidate.originalFileName ?? candidate.assetId
      // Excluded items are skipped with a result of their own (`TrashPlan`), not refused.
      if excluded.contains(candidate.checksum) {
        checked.append(candidate)
        continue
      }
      if let reason = try check.refusal(for: candidate) {
        refusals.append("\(name): \(reason)")
        continue
      }
      candidate.livePhotoVideoId =
        check.proposals[candidate.assetId.lowercased()]?
        .livePhotoVideoId
      if let video = candidate.livePhotoVideoId {
        let asset = try await server.asset(id: video)
        // The video's bytes are the server's word, not the stream's.
        candidate.livePhotoVideoChecksum = asset?.checksum
        if let checksum = asset?.checksum, let reason = check.refusal(forVideo: checksum) {
          // cairn-reconcile puts a still whose video stays up for review; approved, it goes
          // alone. A still proposed for the trash with its video may not lose it here.
          guard check.proposals[candidate.assetId.lowercased()]?.bucket != Bucket.delete.rawValue
          else {
            refusals.append("\(name): \(reason)")
            continue
          }
          candidate.livePhotoVideoId = nil
          candidate.livePhotoVideoKept = true
        }
      }
      checked.append(candidate)
    }
    guard refusals.isEmpty else {
      for line in refusals.prefix(20) { Diagnostics.error(line) }
      throw SafetyRails.Refusal(
        .pointOfAction,
        "\(refusals.count) item(s) of the plan fail the check against this partition's state "
          + "(first: \(refusals[0]))",
        "nothing was changed; rerun the whole pipeline (cairn-hash ... | cairn-reconcile | "
          + "cairn-gate | cairn-trash)"
      ).error
    }
    return checked
  }
}

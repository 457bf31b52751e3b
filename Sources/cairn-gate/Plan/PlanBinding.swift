import CairnRecords
import CairnSafety
import CairnState
import CairnStream

/// `--plan DIGEST`: decisions made on a review page apply only to the plan it showed.
///
/// The page shows `PlanDigest.of` every candidate in the stream as it arrived, before any
/// stored decision, so approving on the page does not change it. Excluding does change later
/// streams: `cairn-reconcile` no longer proposes an excluded checksum. So when the page's
/// command stores its decisions, the gate records what plan D became (`PlanShapeStore`), and
/// a later stream is still plan D when it is exactly that: the page's command then works again
/// after its own exclusions, a dry run or a refusal, and refuses any plan that changed
/// otherwise (a new deletion, a photo back, another bucket).
struct PlanBinding {
  let candidates: [CandidateRecord]
  let state: GateStateStore
  /// The digest a review page made from this stream shows.
  let streamDigest: String

  init(_ candidates: [CandidateRecord], state: GateStateStore) {
    self.candidates = candidates
    self.state = state
    streamDigest = PlanDigest.of(candidates)
  }

  /// True when `digest` names this stream's plan as a review page showed it: the stream's own
  /// digest, or a plan the person shaped with stored exclusions that this stream now is.
  func names(_ digest: String) throws(CairnError) -> Bool {
    let digest = digest.lowercased()
    if digest == streamDigest { return true }
    guard let shaped = try state.shapedPlan(digest) else { return false }
    return shaped == GatePlan.shapedDigest(candidates, exclusions: try state.exclusions())
  }

  /// Refuses (exit 25) when the stream's plan is not `expected`; called before any decision
  /// is stored.
  func check(_ expected: String?) throws(CairnError) {
    guard let expected, try !names(expected) else { return }
    throw CairnError(
      .refused,
      "refused by --plan: this stream's plan is \(streamDigest), not \(expected) nor what the "
        + "decisions stored from that page made of it; nothing was stored (the library, the "
        + "server or the stored decisions changed since the page was made: make a new one with "
        + "--review)")
  }

  /// After the decisions of a command bound to `expected` are stored: remembers what they made
  /// of that plan, so the command is recognised on the next stream.
  func recordShape(_ expected: String?) throws(CairnError) {
    guard let expected else { return }
    try state.recordShape(
      reviewed: expected.lowercased(),
      shaped: GatePlan.shapedDigest(candidates, exclusions: try state.exclusions()))
  }
}

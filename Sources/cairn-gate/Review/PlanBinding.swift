import CairnCore

/// `--plan DIGEST`: decisions made on a review page apply only to the plan it showed. The
/// digest is `PlanDigest.of` every candidate in the stream as it arrives, before any stored
/// decision, so approving on the page does not change it.
enum PlanBinding {
  /// Refuses (exit 25) when the stream's plan is not `expected`; called before any decision
  /// is stored.
  static func check(_ expected: String?, _ candidates: [CandidateRecord]) throws(CairnError) {
    guard let expected else { return }
    let actual = PlanDigest.of(candidates)
    guard actual != expected.lowercased() else { return }
    throw CairnError(
      .refused,
      "refused by --plan: this stream's plan is \(actual), not \(expected); nothing was stored "
        + "(the review page was made for another plan: make a new one with --review)")
  }
}

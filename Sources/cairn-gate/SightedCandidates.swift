import CairnRecords
import CairnState
import CairnSupport

extension Gate.Stream {
  /// The stream with every candidate cairn-reconcile matched to a file the watcher saw but
  /// never hashed (a `sighted` proposal, read from the state) that the stream puts in the
  /// delete or restore bucket back in the pending one: such a stream was edited, and such a candidate goes only with a person's
  /// approval, which the plan then applies as to any pending one. (`cairn-trash` checks the
  /// same against the state at the point of action.)
  func keepingSightingsPending(_ proposals: [String: ScanBinding.Proposal]) -> Gate.Stream {
    var moved = 0
    let candidates = self.candidates.map { candidate in
      guard proposals[candidate.assetId.lowercased()]?.sighted == true,
        candidate.bucket == .delete || candidate.bucket == .restore
      else { return candidate }
      moved += 1
      var waiting = candidate
      waiting.bucket = .pending
      waiting.reason = CandidateReason.seenUnhashed.rawValue
      return waiting
    }
    guard moved > 0 else { return self }
    Diagnostics.warning(
      "\(moved) candidate(s) matched to a file cairn-observe watch saw but never hashed are "
        + "not pending in this stream, as cairn-reconcile proposed them; they wait for "
        + "your approval")
    return Gate.Stream(
      header: header, end: end, errorRecords: errorRecords, candidates: candidates,
      passThrough: passThrough, server: server)
  }
}

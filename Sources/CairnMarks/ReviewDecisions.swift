/// What the decision tags a person set in Immich mean for one run: pure, so every case is a
/// one-line test.
///
/// A tag decides only for an asset that cairn's state records as a pending or held candidate
/// of this partition now; on anything else it changes nothing and is reported. Both tags on
/// one asset: keep wins, as the decision that can be undone.
package struct ReviewDecisions: Sendable, Equatable {
  /// A candidate as the state records it: what a decision is stored under.
  package struct Candidate: Sendable, Equatable {
    package var assetId: String
    package var checksum: String

    package init(assetId: String, checksum: String) {
      self.assetId = assetId
      self.checksum = checksum
    }
  }

  /// Candidates the person approved in Immich, to record as `--approve` would.
  package var approvals: [Candidate] = []
  /// Candidates the person kept in Immich, to record as `--exclude` would.
  package var keeps: [Candidate] = []
  /// Tagged asset ids that are no pending or held candidate now, in order.
  package var ignored: [String] = []

  package init(approvals: [Candidate] = [], keeps: [Candidate] = [], ignored: [String] = []) {
    self.approvals = approvals
    self.keeps = keeps
    self.ignored = ignored
  }

  /// Reads the tagged asset ids against `waiting`, the pending and held candidates by
  /// lower-case asset id. `keptAlready` and `approvedAlready` name the tagged assets whose
  /// decision of that kind the state already holds (a kept asset keeps its tag, and is no
  /// candidate any more): neither recorded again nor reported.
  package static func read(
    approveTagged: [String], keepTagged: [String], waiting: [String: Candidate],
    keptAlready: Set<String> = [], approvedAlready: Set<String> = []
  ) -> ReviewDecisions {
    let kept = Set(keepTagged.map { $0.lowercased() })
    let keptAlready = Set(keptAlready.map { $0.lowercased() })
    let approvedAlready = Set(approvedAlready.map { $0.lowercased() })
    var decisions = ReviewDecisions()
    var ignored: Set<String> = []
    for id in kept.sorted() where !keptAlready.contains(id) {
      if let candidate = waiting[id] {
        decisions.keeps.append(candidate)
      } else {
        ignored.insert(id)
      }
    }
    for id in Set(approveTagged.map { $0.lowercased() }).sorted()
    where !kept.contains(id) && !approvedAlready.contains(id) {
      if let candidate = waiting[id] {
        decisions.approvals.append(candidate)
      } else {
        ignored.insert(id)
      }
    }
    decisions.ignored = ignored.sorted()
    return decisions
  }
}

/// What the review mark must change on the server: pure.
package struct ReviewMarks: Sendable, Equatable {
  /// Waiting candidates that lack the mark.
  package var mark: [String]
  /// Assets that carry the mark but no longer wait for a decision.
  package var unmark: [String]

  package init(mark: [String], unmark: [String]) {
    self.mark = mark
    self.unmark = unmark
  }

  /// `waiting`: the asset ids that should carry the mark; `marked`: those that do.
  package static func plan(waiting: Set<String>, marked: Set<String>) -> ReviewMarks {
    let waiting = Set(waiting.map { $0.lowercased() })
    let marked = Set(marked.map { $0.lowercased() })
    return ReviewMarks(
      mark: waiting.subtracting(marked).sorted(), unmark: marked.subtracting(waiting).sorted())
  }

  package var isEmpty: Bool { mark.isEmpty && unmark.isEmpty }
}

import CairnEngine
import CairnRecords
import Foundation

/// The gate's decision about one candidate stream: what would be trashed, what waits for a
/// person, what is protected — after stored exclusions and approvals are applied.
package struct GatePlan: Sendable {
  /// What `cairn-trash` receives: the `delete` bucket plus approved pending and held items.
  package var toTrash: [CandidateRecord] = []
  /// Pending or held items a person approved (a subset of `toTrash`).
  package var approved: [CandidateRecord] = []
  /// Pending items still waiting for a decision.
  package var pending: [CandidateRecord] = []
  /// Held items (quarantine) still waiting.
  package var held: [CandidateRecord] = []
  /// Gone photos the age window keeps (bucket `kept`) and nobody approved: never trashed,
  /// never waiting for review.
  package var kept: [CandidateRecord] = []
  /// Candidates whose checksum is excluded: never trashed.
  package var excluded: [CandidateRecord] = []
  /// Assets to bring back from the trash (`restore` bucket): never trashed, never counted
  /// against the threshold.
  package var toRestore: [CandidateRecord] = []
  /// Confirmed deletions that arrived together (see `GatePlan.burstSize`).
  package var burst: [CandidateRecord] = []
  package var digest: String

  /// A burst is at least this many confirmed deletions within `burstWindow` of one another, as
  /// when a person offloads photos to free space: worth a look before anything is trashed.
  package static let burstSize = 50
  package static let burstWindow: TimeInterval = 15 * 60

  /// Applies `exclusions` (checksums) and `approvals` (checksums or asset ids) to `candidates`.
  /// A Live Photo is decided whole: an approval of either half approves both, and a half whose
  /// other half is excluded waits for a person rather than going alone.
  package init(candidates: [CandidateRecord], exclusions: Set<String>, approvals: Set<String>) {
    let halves = LivePhotoHalves(candidates)
    for var candidate in candidates {
      if candidate.bucket == .restore {
        // Undoing cairn's own deletion of bytes that are back: an exclusion asks for the same.
        toRestore.append(candidate)
        continue
      }
      if exclusions.contains(candidate.checksum) {
        excluded.append(candidate)
        continue
      }
      Self.keepExcludedVideo(&candidate, exclusions)
      Self.keepWithExcludedStill(&candidate, halves, exclusions)
      switch candidate.bucket {
      case .restore:
        continue
      case .delete:
        toTrash.append(candidate)
      case .pending, .held, .kept:
        if halves.isApproved(
          assetId: candidate.assetId, checksum: candidate.checksum, approvals: approvals,
          exclusions: exclusions)
        {
          approved.append(candidate)
          toTrash.append(candidate)
        } else if candidate.bucket == .held {
          held.append(candidate)
        } else if candidate.bucket == .kept {
          kept.append(candidate)
        } else {
          pending.append(candidate)
        }
      }
    }
    burst = Self.bursts(in: candidates.filter { !exclusions.contains($0.checksum) })
    digest = PlanDigest.of(toTrash + toRestore)
  }

  /// The digest of `candidates` as `exclusions` leave them, before any approval: every
  /// candidate not excluded, in the bucket the gate puts it in. A stream reconciled after the
  /// exclusions were stored has this digest too (`cairn-reconcile` no longer proposes an
  /// excluded checksum, and keeps the still of an excluded motion video for review, as
  /// `keepExcludedVideo` does here), which is how a review page's plan is recognised once the
  /// person's own exclusions have shaped it.
  package static func shapedDigest(_ candidates: [CandidateRecord], exclusions: Set<String>)
    -> String
  {
    let plan = GatePlan(candidates: candidates, exclusions: exclusions, approvals: [])
    return PlanDigest.of(plan.toTrash + plan.pending + plan.held + plan.kept + plan.toRestore)
  }

  /// A Live Photo still whose motion video was excluded since the stream was made (by this
  /// very gate, say) keeps its video and waits for a person, as the engine would have decided.
  static func keepExcludedVideo(_ candidate: inout CandidateRecord, _ exclusions: Set<String>) {
    guard let video = candidate.livePhotoVideoChecksum, exclusions.contains(video),
      candidate.livePhotoVideoKept != true
    else { return }
    candidate.livePhotoVideoKept = true
    if candidate.bucket == .delete {
      candidate.bucket = .pending
      candidate.reason = CandidateReason.liveVideoKept.rawValue
    }
    candidate.detail =
      (candidate.detail ?? "") + "; its motion video is excluded, so the still waits for your "
      + "approval and goes alone"
  }

  /// A motion video whose still was excluded since the stream was made waits for a person, as
  /// the engine would have decided (`CandidateReason.liveStillKept`).
  static func keepWithExcludedStill(
    _ candidate: inout CandidateRecord, _ halves: LivePhotoHalves, _ exclusions: Set<String>
  ) {
    guard candidate.bucket == .delete, let still = halves.other(of: candidate.assetId),
      !still.isVideo, exclusions.contains(still.checksum)
    else { return }
    candidate.bucket = .pending
    candidate.reason = CandidateReason.liveStillKept.rawValue
    candidate.detail =
      (candidate.detail ?? "") + "; its still is excluded, so the motion video waits for your "
      + "approval rather than going alone"
  }

  /// Counts for the `end` record (`kept` only when the age window kept something).
  package var counts: [String: Int] {
    var counts = [
      "candidates": toTrash.count, "delete": toTrash.count - approved.count,
      "approved": approved.count, "pending": pending.count, "held": held.count,
      "excluded": excluded.count, "restore": toRestore.count,
    ]
    if !kept.isEmpty { counts["kept"] = kept.count }
    return counts
  }

  /// Confirmed candidates that fall in clusters of at least `burstSize`.
  static func bursts(in candidates: [CandidateRecord]) -> [CandidateRecord] {
    let confirmed = candidates.filter { $0.confirmedAt != nil }
      .sorted { ($0.confirmedAt ?? .distantPast) < ($1.confirmedAt ?? .distantPast) }
    var result: [CandidateRecord] = []
    var cluster: [CandidateRecord] = []
    func close() {
      if cluster.count >= burstSize { result.append(contentsOf: cluster) }
      cluster = []
    }
    for candidate in confirmed {
      if let last = cluster.last?.confirmedAt, let time = candidate.confirmedAt,
        time.timeIntervalSince(last) > burstWindow
      {
        close()
      }
      cluster.append(candidate)
    }
    close()
    return result
  }
}

/// What a person asked the gate to decide (`--approve`, `--exclude`), resolved against the
/// candidates in the stream into checksums to store.
package struct GateDecisions: Sendable, Equatable {
  package var approve: [String] = []
  package var exclude: [String] = []

  package init(approve: [String] = [], exclude: [String] = []) {
    self.approve = approve
    self.exclude = exclude
  }

  /// Checksums to approve and to exclude, and the arguments that matched nothing.
  package struct Resolved: Sendable, Equatable {
    package var approvals: [String] = []
    package var exclusions: [String] = []
    package var unmatched: [String] = []
  }

  /// `all-pending` means every pending (not held) candidate; `burst` (for `--exclude`) every
  /// candidate in a burst; otherwise an asset id or a checksum. A checksum that is not in the
  /// stream is still stored (a person may protect a file before it goes missing).
  package func resolve(_ candidates: [CandidateRecord]) -> Resolved {
    var resolved = Resolved()
    func match(_ argument: String, allowBurst: Bool) -> [String]? {
      switch argument {
      case "all-pending":
        return candidates.filter { $0.bucket == .pending }.map(\.checksum)
      case "burst" where allowBurst:
        return GatePlan.bursts(in: candidates).map(\.checksum)
      default:
        let lower = argument.lowercased()
        let hits = candidates.filter { $0.assetId.lowercased() == lower || $0.checksum == argument }
        if !hits.isEmpty { return hits.map(\.checksum) }
        return Self.looksLikeChecksum(argument) ? [argument] : nil
      }
    }
    for argument in approve {
      if let found = match(argument, allowBurst: false) {
        resolved.approvals.append(contentsOf: found)
      } else {
        resolved.unmatched.append(argument)
      }
    }
    for argument in exclude {
      if let found = match(argument, allowBurst: true) {
        resolved.exclusions.append(contentsOf: found)
      } else {
        resolved.unmatched.append(argument)
      }
    }
    // What a person keeps of a Live Photo, they keep whole.
    resolved.exclusions = LivePhotoHalves(candidates).whole(resolved.exclusions)
    return resolved
  }

  /// Base64 of 20 bytes (Immich's form) or 40 hex digits.
  package static func looksLikeChecksum(_ text: String) -> Bool {
    if text.count == 28, text.hasSuffix("=") {
      return text.dropLast().allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" }
    }
    return text.count == 40 && text.allSatisfy(\.isHexDigit)
  }
}

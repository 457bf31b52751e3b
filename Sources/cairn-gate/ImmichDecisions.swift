import CairnImmich
import CairnMarks
import CairnRecords
import CairnRuns
import CairnSafety
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// Review inside Immich (`CAIRN_REVIEW_IN_IMMICH=on`): reads the decision tags a person set in
/// Immich (`ReviewTags.approve`, `ReviewTags.keep`) with GET and search requests only, and
/// records them exactly as `--approve` and `--exclude` would, before the rails run. A decision
/// counts only for an asset the state records as a pending or held candidate now, so a tag on
/// anything else changes nothing, and a recorded approval still goes through every rail and
/// cairn-trash's point-of-action check.
struct ImmichDecisions {
  let state: GateStateStore
  let partition: ServerPartition
  /// The stream's candidates: an approval is stored for the plan they make, as `--approve`'s.
  let candidates: [CandidateRecord]

  /// How many ignored asset ids are named before the rest are only counted.
  static let namedIgnored = 5

  func read(_ configuration: Configuration) async throws(CairnError) {
    let server = try await connect(configuration)
    let tags = try await server.tags()
    let approveTagged = try await tagged(ReviewTags.approve, tags, server)
    let keepTagged = try await tagged(ReviewTags.keep, tags, server)
    guard !approveTagged.isEmpty || !keepTagged.isEmpty else { return }
    let decisions = ReviewDecisions.read(
      approveTagged: approveTagged.map(\.id), keepTagged: keepTagged.map(\.id),
      waiting: try waiting(), keptAlready: try keptAlready(keepTagged),
      approvedAlready: try approvedAlready(approveTagged))
    try record(decisions)
  }

  /// The configured server, which must be the one the stream was made for.
  private func connect(_ configuration: Configuration) async throws(CairnError) -> ImmichRunServer {
    let connection = try await ServerConnection.open(configuration)
    guard connection.partition == partition else {
      throw SafetyRails.Refusal(
        .planMismatch,
        "the stream was made for \(partition), but the configuration points at "
          + "\(connection.partition)", "rerun the pipeline against this server and user"
      ).error
    }
    return connection.runServer
  }

  /// The assets carrying the tag `value`; none when the user has no such tag.
  private func tagged(_ value: String, _ tags: [ServerTag], _ server: ImmichRunServer)
    async throws(CairnError) -> [RunAsset]
  {
    guard let tag = tags.first(where: { $0.value == value }) else { return [] }
    return try await server.assets(taggedWith: tag.id)
  }

  /// The keep-tagged assets whose checksum the state already excludes.
  private func keptAlready(_ tagged: [RunAsset]) throws(CairnError) -> Set<String> {
    let excluded = try state.exclusions()
    return Set(tagged.filter { $0.checksum.map(excluded.contains) ?? false }.map(\.id))
  }

  /// The approve-tagged assets the state already approves, by id or checksum.
  private func approvedAlready(_ tagged: [RunAsset]) throws(CairnError) -> Set<String> {
    let approved = try state.approvals()
    return Set(
      tagged.filter {
        approved.contains($0.id.lowercased()) || ($0.checksum.map(approved.contains) ?? false)
      }.map(\.id))
  }

  /// The pending and held candidates of the latest reconciliation, as the state records them.
  private func waiting() throws(CairnError) -> [String: ReviewDecisions.Candidate] {
    var waiting: [String: ReviewDecisions.Candidate] = [:]
    for proposal in try state.store.binding.proposals().values
    where proposal.bucket == Bucket.pending.rawValue || proposal.bucket == Bucket.held.rawValue {
      waiting[proposal.assetId] = ReviewDecisions.Candidate(
        assetId: proposal.assetId, checksum: proposal.checksum)
    }
    return waiting
  }

  private func record(_ decisions: ReviewDecisions) throws(CairnError) {
    if !decisions.keeps.isEmpty {
      // A person sees the still of a Live Photo; keeping it keeps the Live Photo whole.
      let livePhotos = ScanBinding.livePhotos(among: try state.store.binding.proposals())
      try state.store.exclusions.add(
        livePhotos.whole(decisions.keeps.map(\.checksum)),
        reason: "kept with \(ReviewTags.keep) in Immich", at: Date())
      Diagnostics.info(
        "kept \(decisions.keeps.count) candidate(s) for good (tagged \(ReviewTags.keep) in Immich)")
    }
    if !decisions.approvals.isEmpty {
      let plan = PlanDigest.of(candidates)
      try state.store.approvals.add(
        decisions.approvals.map {
          Approval(assetId: $0.assetId, checksum: $0.checksum, plan: plan, approvedAt: Date())
        })
      Diagnostics.info(
        "approved \(decisions.approvals.count) candidate(s) (tagged \(ReviewTags.approve) in "
          + "Immich)")
    }
    if !decisions.ignored.isEmpty {
      let named = decisions.ignored.prefix(Self.namedIgnored).joined(separator: ", ")
      let more = decisions.ignored.count - Self.namedIgnored
      Diagnostics.warning(
        "\(decisions.ignored.count) asset(s) carry a decision tag but are no pending or held "
          + "candidate; nothing changed for them: \(named)"
          + (more > 0 ? " and \(more) more" : ""), evenWhenQuiet: true)
    }
  }
}

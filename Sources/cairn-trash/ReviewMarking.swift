import CairnImmich
import CairnMarks
import CairnRecords
import CairnRuns
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// Review inside Immich (`CAIRN_REVIEW_IN_IMMICH=on`): puts cairn's mark
/// (`ReviewTags.review`) on every pending and held candidate that waits for a decision, takes
/// it off what no longer waits, and takes a consumed approve tag off what was approved.
///
/// What waits is read from the state (cairn-reconcile's proposals for the latest scan, less
/// what a person excluded or approved), never from the stream. Nothing here is journalled:
/// every run computes the whole wanted set again and sets the server to it, so a run stopped
/// between two tag requests is finished by the next one, and a mark never moves an asset.
struct ReviewMarking {
  let server: ImmichRunServer
  let state: PartitionAccess

  /// Tag requests carry at most this many ids.
  static let batchSize = 500

  /// Sets the marks; a dry run sends no mutating request and says what it would change.
  func run(dryRun: Bool) async throws(CairnError) {
    let waiting = try waitingAssetIDs()
    let tags = try await server.tags()
    let reviewTag = tags.first { $0.value == ReviewTags.review }?.id
    let approveTag = tags.first { $0.value == ReviewTags.approve }?.id
    let marked = try await taggedIDs(reviewTag)
    let marks = ReviewMarks.plan(waiting: waiting, marked: marked)
    let consumed = try await consumedApprovals(approveTag)
    if dryRun {
      Diagnostics.info(
        "dry run: would mark \(marks.mark.count) and unmark \(marks.unmark.count) candidate(s) "
          + "for review in Immich (\(ReviewTags.review)); nothing changed")
      return
    }
    if !waiting.isEmpty {
      try await offerDecisionTags(tags)
    }
    if !marks.mark.isEmpty {
      // Upserted even when it exists: that repairs a tag made without its closure rows, which
      // tag search would not find (docs/IMMICH-API.md §6.2).
      let tagID = try await server.upsertTag(ReviewTags.review)
      for batch in Self.batches(marks.mark) {
        try await server.tagAssets(tagID: tagID, assetIDs: batch)
      }
    }
    if let reviewTag {
      for batch in Self.batches(marks.unmark) {
        try await server.untagAssets(tagID: reviewTag, assetIDs: batch)
      }
    }
    if let approveTag {
      for batch in Self.batches(consumed) {
        try await server.untagAssets(tagID: approveTag, assetIDs: batch)
      }
    }
    if !marks.isEmpty || !consumed.isEmpty {
      Diagnostics.info(
        "review in Immich: marked \(marks.mark.count), unmarked \(marks.unmark.count) "
          + "candidate(s) (\(ReviewTags.review))"
          + (consumed.isEmpty ? "" : "; \(consumed.count) approve tag(s) consumed"))
    }
    if !waiting.isEmpty {
      Diagnostics.info(
        "\(waiting.count) candidate(s) wait for a decision: "
          + ReviewTags.webPage(ReviewTags.review, serverURL: server.client.apiBase))
    }
  }

  /// Creates the approve and keep tags the user lacks, so that Immich's tag picker offers
  /// them and a person picks rather than types them (a typo would be a tag cairn never reads).
  private func offerDecisionTags(_ tags: [ServerTag]) async throws(CairnError) {
    for value in [ReviewTags.approve, ReviewTags.keep]
    where !tags.contains(where: { $0.value == value }) {
      _ = try await server.upsertTag(value)
    }
  }

  /// The pending and held candidates of the latest reconciliation that no decision settled.
  private func waitingAssetIDs() throws(CairnError) -> Set<String> {
    let excluded = state.exclusions
    let approved = try approvedIDs()
    let proposals = try state.store.binding.proposals()
    // An approval of either half of a Live Photo settles both.
    let livePhotos = ScanBinding.livePhotos(among: proposals)
    let waiting = proposals.values.filter {
      ($0.bucket == Bucket.pending.rawValue || $0.bucket == Bucket.held.rawValue)
        && !excluded.contains($0.checksum)
        && !livePhotos.isApproved(
          assetId: $0.assetId, checksum: $0.checksum, approvals: approved, exclusions: excluded)
    }
    return Set(waiting.map(\.assetId))
  }

  /// Approved asset ids and checksums, whichever plan they were approved for.
  private func approvedIDs() throws(CairnError) -> Set<String> {
    var approved: Set<String> = []
    for approval in try state.store.approvals.all() {
      approved.insert(approval.assetId.lowercased())
      approved.insert(approval.checksum)
    }
    return approved
  }

  /// The assets carrying the approve tag whose approval the state has recorded: acted on, so
  /// the tag has done its work. An approve tag cairn did not consume stays, and cairn-gate
  /// keeps reporting it.
  private func consumedApprovals(_ approveTag: String?) async throws(CairnError) -> [String] {
    let tagged = try await taggedIDs(approveTag)
    guard !tagged.isEmpty else { return [] }
    let approved = try approvedIDs()
    return tagged.filter { approved.contains($0) }.sorted()
  }

  private func taggedIDs(_ tagID: String?) async throws(CairnError) -> Set<String> {
    guard let tagID else { return [] }
    return Set(try await server.assets(taggedWith: tagID).map { $0.id.lowercased() })
  }

  static func batches(_ ids: [String]) -> [[String]] {
    stride(from: 0, to: ids.count, by: batchSize).map {
      Array(ids[$0..<min($0 + batchSize, ids.count)])
    }
  }
}

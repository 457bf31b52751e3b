import CairnCore
import Foundation

/// Everything the review page shows: the gate's whole plan (every bucket, after the stored
/// decisions), the digest that binds the page's command line to this stream, what the rails
/// said, and the thumbnails fetched for it. Holds no credential: the page is made only from this.
package struct ReviewInput: Sendable {
  package var plan: GatePlan
  /// `PlanDigest.of` every candidate in the stream, as `cairn-gate --plan` checks it.
  package var streamDigest: String
  /// The Immich web app (`https://photos.example.net`) for links to assets; nil for none.
  package var webBase: String?
  /// The rail's refusal line, when the plan was refused.
  package var refusal: String?
  /// True when the threshold rail refused: the page then offers to add
  /// `--override-threshold` with the page's digest to its command.
  package var overThreshold: Bool
  /// By lower-case asset id; an id without an entry is shown as `notFetched`.
  package var thumbnails: [String: ThumbnailOutcome]
  /// Lines for the summary (why no thumbnails were fetched, say).
  package var notes: [String]
  package var generatedAt: Date

  package init(
    plan: GatePlan, streamDigest: String, webBase: String?, refusal: String?,
    overThreshold: Bool = false, thumbnails: [String: ThumbnailOutcome], notes: [String] = [],
    generatedAt: Date = Date()
  ) {
    self.overThreshold = overThreshold
    self.plan = plan
    self.streamDigest = streamDigest
    self.webBase = webBase
    self.refusal = refusal
    self.thumbnails = thumbnails
    self.notes = notes
    self.generatedAt = generatedAt
  }

  /// The assets whose thumbnails the page wants: every candidate and each Live Photo's video.
  package static func wantedThumbnails(_ plan: GatePlan) -> [String] {
    var seen: Set<String> = []
    var ids: [String] = []
    let items =
      plan.toTrash + plan.pending + plan.held + plan.kept + plan.excluded + plan.toRestore
    for id in items.flatMap({ [$0.assetId] + ($0.livePhotoVideoId.map { [$0] } ?? []) }) {
      let lower = id.lowercased()
      if HTMLText.isAssetId(lower), seen.insert(lower).inserted { ids.append(lower) }
    }
    return ids
  }

  /// Every candidate of the plan, bucket by bucket.
  var everything: [CandidateRecord] {
    plan.toTrash + plan.pending + plan.held + plan.kept + plan.excluded + plan.toRestore
  }

  /// Motion videos that are candidates beside their still, by lower-case id: a Live Photo is one
  /// tile, the still's, showing both halves.
  var motionHalves: [String: CandidateRecord] {
    let videos = Set(everything.compactMap { $0.livePhotoVideoId?.lowercased() })
    var halves: [String: CandidateRecord] = [:]
    for candidate in everything where videos.contains(candidate.assetId.lowercased()) {
      halves[candidate.assetId.lowercased()] = candidate
    }
    return halves
  }

  /// How many tiles the page shows.
  package var tileCount: Int { everything.count - motionHalves.count }

  /// Tiles without a picture, by reason (a Live Photo's video is not counted: the still is the
  /// tile's picture).
  package var missing: [(MissingThumbnail, Int)] {
    var counts: [MissingThumbnail: Int] = [:]
    let halves = motionHalves
    for candidate in everything where halves[candidate.assetId.lowercased()] == nil {
      if case .missing(let why) = thumbnails[candidate.assetId.lowercased()]
        ?? .missing(.notFetched)
      {
        counts[why, default: 0] += 1
      }
    }
    return MissingThumbnail.allCases.compactMap { why in counts[why].map { (why, $0) } }
  }
}

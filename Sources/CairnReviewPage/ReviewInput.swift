import CairnRecords
import CairnSafety
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
  /// The partition's exclusions that protect nothing in this stream: decisions made earlier,
  /// listed with the command that lifts each.
  package var earlierExclusions: [EarlierExclusion]
  /// The most bytes of embedded image data (as `data:` URIs) the page carries; thumbnails past
  /// it, in page order, become tiles with a link to Immich. Nil: what `pageBudget` leaves
  /// after the page's own markup (`ReviewPage.pictureBudget`).
  package var imageBudget: Int?

  /// The page's size cap, 15 MB: a page any browser opens at once. The markup takes about 1.4
  /// kB a tile (7 MB at 5,000 candidates); pictures get the rest. Immich's thumbnails (WebP,
  /// about 250 pixels) run 5 to 15 kB, so at 5,000 candidates some 500 to 1,500 of them fit.
  package static let pageBudget = 15_000_000

  package init(
    plan: GatePlan, streamDigest: String, webBase: String?, refusal: String?,
    overThreshold: Bool = false, thumbnails: [String: ThumbnailOutcome], notes: [String] = [],
    generatedAt: Date = Date(), earlierExclusions: [EarlierExclusion] = [],
    imageBudget: Int? = nil
  ) {
    self.earlierExclusions = earlierExclusions
    self.imageBudget = imageBudget
    self.overThreshold = overThreshold
    self.plan = plan
    self.streamDigest = streamDigest
    self.webBase = webBase
    self.refusal = refusal
    self.thumbnails = thumbnails
    self.notes = notes
    self.generatedAt = generatedAt
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

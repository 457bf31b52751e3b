import CairnRecords

/// A Live Photo is decided whole. Immich files only the still in an album, marks only the still
/// a favourite, and never cascades a trash: a motion video trashed on its own is purged when
/// the trash period ends, and the photo a person protected loses its motion. So whatever makes
/// one half wait (an album, a favourite, review, quarantine, the age window) makes the other
/// wait with it, and a motion video whose still stays on the server waits for a person rather
/// than going alone.
extension ReconciliationEngine {
  /// Gives both halves of every Live Photo whose halves are both candidates the bucket of the
  /// half that waits longest (kept, then held, then pending), and puts a motion video whose
  /// still is on the server and no candidate up for review.
  static func settleLivePhotoPairs(
    _ candidates: inout [CandidateRecord], _ input: ReconciliationInput
  ) throws(ListingReadBackError) {
    var at: [String: Int] = [:]
    for index in candidates.indices { at[candidates[index].assetId.lowercased()] = index }
    var paired: Set<Int> = []
    for still in candidates.indices {
      guard let videoId = candidates[still].livePhotoVideoId?.lowercased(),
        let video = at[videoId], video != still
      else { continue }
      decideWhole(&candidates, still: still, video: video)
      paired.formUnion([still, video])
    }
    let lone = candidates.indices.filter { !paired.contains($0) && isMotionVideo(candidates[$0]) }
    guard !lone.isEmpty else { return }
    let stills = try input.assets.stillIndices(
      ofVideos: Set(lone.map { candidates[$0].assetId.lowercased() }))
    for video in lone {
      guard let index = stills[candidates[video].assetId.lowercased()] else { continue }
      waitForKeptStill(&candidates[video], still: try input.assets.record(index))
    }
  }

  /// Whether `candidate` may be a Live Photo's motion video: Immich lists those as videos
  /// (hidden); any other asset is never one.
  static func isMotionVideo(_ candidate: CandidateRecord) -> Bool {
    candidate.assetType == "VIDEO" && candidate.bucket != .restore
  }

  /// How long a bucket makes a candidate wait: the pair takes the longer wait of its halves.
  /// The age window keeps whatever else the rules said; a quarantine holds a favourite or an
  /// album photo until it ends (see `settleFavourite`).
  static func waitRank(_ bucket: Bucket) -> Int {
    switch bucket {
    case .delete, .restore: return 0
    case .pending: return 1
    case .held: return 2
    case .kept: return 3
    }
  }

  /// Both halves of one Live Photo: the half that waits less takes the other's bucket and
  /// reason (and, held, its end of quarantine when that is later).
  static func decideWhole(_ candidates: inout [CandidateRecord], still: Int, video: Int) {
    let s = candidates[still]
    let v = candidates[video]
    guard s.bucket != .restore, v.bucket != .restore else { return }
    if waitRank(s.bucket) > waitRank(v.bucket) {
      follow(&candidates[video], s, as: "its still \(name(of: s))")
    } else if waitRank(v.bucket) > waitRank(s.bucket) {
      follow(&candidates[still], v, as: "its motion video \(name(of: v))")
    } else if s.bucket == .held, let later = [s.eligibleAt, v.eligibleAt].compactMap({ $0 }).max() {
      candidates[still].eligibleAt = later
      candidates[video].eligibleAt = later
    }
  }

  /// `candidate` waits with `other`, the other half of its Live Photo.
  static func follow(_ candidate: inout CandidateRecord, _ other: CandidateRecord, as who: String) {
    candidate.bucket = other.bucket
    candidate.reason = other.reason
    if other.bucket == .held, let eligible = other.eligibleAt {
      candidate.eligibleAt = max(eligible, candidate.eligibleAt ?? eligible)
    }
    candidate.detail =
      (candidate.detail ?? candidate.paths.first ?? "")
      + "; it waits with \(who) (\(other.reason)): "
      + "a Live Photo is decided whole"
  }

  /// A motion video whose still is on the server and goes nowhere (in the library still,
  /// excluded, never gone): trashed alone it would leave the still without its motion, so
  /// only a person decides.
  static func waitForKeptStill(_ video: inout CandidateRecord, still: AssetRecord) {
    if video.bucket == .delete {
      video.bucket = .pending
      video.reason = CandidateReason.liveStillKept.rawValue
    }
    video.detail =
      (video.detail ?? video.paths.first ?? "")
      + "; it is the motion video of \(still.originalFileName ?? still.id.lowercased()), which "
      + "stays on the server, so it waits for your approval rather than going alone"
  }

  static func name(of candidate: CandidateRecord) -> String {
    candidate.originalFileName ?? candidate.assetId
  }
}

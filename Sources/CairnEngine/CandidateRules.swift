import CairnJSON
import CairnRecords
import Foundation

/// The per-asset half of the engine: which server assets become candidates, in which bucket.
extension ReconciliationEngine {
  /// Every candidate, sorted (bucket, checksum, asset id), with `summary`'s matched and bucket
  /// counts filled in.
  static func candidates(
    _ input: ReconciliationInput, present: [Bool], gone: Set<String>,
    sighted: [CandidateRecord] = [], summary: inout ReconciliationSummary
  ) throws(ListingReadBackError) -> [CandidateRecord] {
    var candidates = try goneCandidates(input, present: present, gone: gone, summary: &summary)
    candidates += sighted
    try settleLivePhotoVideos(&candidates, input, gone: gone)
    try settleLivePhotoPairs(&candidates, input)
    keepSightingsPending(&candidates, Set(sighted.map(\.assetId)))
    candidates += try putBacks(input, present: present)
    candidates.sort { a, b in
      if a.bucket != b.bucket { return a.bucket < b.bucket }
      if a.checksum != b.checksum { return a.checksum < b.checksum }
      return a.assetId < b.assetId
    }
    count(candidates, into: &summary)
    return candidates
  }

  /// A sighted asset waits for a person whatever its Live Photo's other half says: a half
  /// that would make it go (`delete`) does not, and it keeps its reason.
  static func keepSightingsPending(_ candidates: inout [CandidateRecord], _ sighted: Set<String>) {
    guard !sighted.isEmpty else { return }
    for at in candidates.indices
    where sighted.contains(candidates[at].assetId) && candidates[at].bucket == .delete {
      candidates[at].bucket = .pending
      candidates[at].reason = CandidateReason.seenUnhashed.rawValue
    }
  }

  /// Fills in `summary`'s bucket counts.
  static func count(_ candidates: [CandidateRecord], into summary: inout ReconciliationSummary) {
    for candidate in candidates {
      switch candidate.bucket {
      case .delete: summary.delete += 1
      case .pending: summary.pending += 1
      case .held: summary.held += 1
      case .restore: summary.restore += 1
      case .kept: summary.kept += 1
      }
    }
  }

  /// The assets, not trashed, whose checksum is gone, each in the bucket the rules give it;
  /// counts the matched assets and the excluded checksums.
  static func goneCandidates(
    _ input: ReconciliationInput, present: [Bool], gone: Set<String>,
    summary: inout ReconciliationSummary
  ) throws(ListingReadBackError) -> [CandidateRecord] {
    // With `observedCount`, a scanned checksum is observed without an entry of its own.
    let presentIsObserved = input.observedCount != nil
    var candidates: [CandidateRecord] = []
    var excludedChecksums = Set<String>()
    let assets = input.assets
    for index in 0..<assets.count where !assets.isTrashed(index) {
      if presentIsObserved && present[index] {
        // Observed (this scan was recorded) and present, so never gone.
        summary.matched += 1
        continue
      }
      let checksum = assets.checksum(index)
      guard let entry = input.observed[checksum] else { continue }
      summary.matched += 1
      guard gone.contains(checksum) else { continue }
      if input.exclusions.contains(checksum) {
        excludedChecksums.insert(checksum)
        continue
      }
      let asset = try assets.record(index)
      if asset.libraryId != nil {
        // An external library's checksum hashes the file's path, never its bytes (so it cannot
        // match a scan but by accident), and Immich trashes such an asset itself when the file
        // goes: never cairn's to trash, and not part of what the threshold measures.
        summary.matched -= 1
        continue
      }
      candidates.append(goneCandidate(asset, entry, input))
    }
    summary.excluded = excludedChecksums.count
    return candidates
  }

  /// The candidate for one gone asset: held while a confirmed deletion is in quarantine,
  /// pending when strict mode wants a person or the user marked it favourite, delete otherwise.
  static func goneCandidate(
    _ asset: AssetRecord, _ entry: ObservedEntry, _ input: ReconciliationInput
  ) -> CandidateRecord {
    let missingSince = input.missingSince[asset.checksum] ?? input.now
    var candidate = CandidateRecord(
      assetId: asset.id.lowercased(), checksum: asset.checksum, bucket: .delete,
      reason: CandidateReason.gone.rawValue,
      paths: entry.paths, originalFileName: asset.originalFileName,
      assetType: asset.assetType, visibility: asset.visibility, ownerId: asset.ownerId,
      fileCreatedAt: asset.fileCreatedAt, livePhotoVideoId: asset.livePhotoVideoId?.lowercased(),
      isFavorite: asset.isFavorite ? true : nil, missingSince: missingSince)
    let place = entry.paths.first ?? "the library"
    if let confirmation = input.confirmations[asset.checksum] {
      settleConfirmed(&candidate, confirmation, place: place, input)
    } else if input.settings.strictness == .strict {
      candidate.bucket = .pending
      candidate.reason = CandidateReason.unconfirmed.rawValue
      candidate.detail =
        "\(place) is gone (missing since \(missingSince.iso8601)) and no trash recorded its "
        + "deletion; strict mode asks a person to review it"
    } else {
      candidate.detail =
        "\(place) is gone from a complete scan (missing since \(missingSince.iso8601))"
    }
    if asset.isFavorite { settleFavourite(&candidate, place: place) }
    if asset.inAlbum { settleInAlbum(&candidate, place: place) }
    settleAgeWindow(&candidate, input)
    return candidate
  }

  /// A photo taken more than `maxAgeDays` ago (`fileCreatedAt`, Immich's taken date:
  /// docs/IMMICH-API.md §3.1, §3.4) is kept whatever else the rules said: for someone who set
  /// the window, deleting an old photo locally frees space rather than asks to lose it.
  /// Exactly `maxAgeDays` old still goes; a photo without a taken date is not judged by age.
  static func settleAgeWindow(_ candidate: inout CandidateRecord, _ input: ReconciliationInput) {
    guard let days = input.settings.maxAgeDays, let taken = candidate.fileCreatedAt else { return }
    let limit = input.now.addingTimeInterval(-TimeInterval(days) * 86_400)
    guard taken < limit else { return }
    candidate.bucket = .kept
    candidate.reason = CandidateReason.ageWindow.rawValue
    candidate.detail =
      (candidate.detail ?? "") + "; taken \(String(taken.iso8601.prefix(10))), more than "
      + "\(days) days ago (CAIRN_MAX_AGE_DAYS), so it stays on the server unless you approve it"
  }

  /// A confirmed deletion: Android's trash waits for a person; any other is held for its
  /// quarantine, then deleted.
  static func settleConfirmed(
    _ candidate: inout CandidateRecord, _ confirmation: DeletionConfirmation, place: String,
    _ input: ReconciliationInput
  ) {
    let quarantine = TimeInterval(input.settings.quarantineDays) * 86_400
    let eligible = confirmation.confirmedAt.addingTimeInterval(quarantine)
    candidate.confirmedAt = confirmation.confirmedAt
    candidate.confirmedBy = confirmation.source
    candidate.eligibleAt = eligible
    let how = describe(confirmation)
    if confirmation.source == DeletionConfirmation.androidSource {
      // The Immich app's "Free up space" leaves the very name a gallery's delete does, for
      // photos the user wants kept on the server: no quarantine can tell them apart.
      candidate.bucket = .pending
      candidate.reason = CandidateReason.androidTrash.rawValue
      candidate.detail =
        "\(place) \(how) on \(confirmation.confirmedAt.iso8601), as a gallery's delete or "
        + "the Immich app's \"Free up space\" leaves it; a person decides"
    } else if confirmation.source == DeletionConfirmation.watcherSource
      && input.settings.strictness == .trusting
    {
      // Trusting mode trashes a deletion nobody saw as soon as a scan finds it gone; one the
      // watcher saw happen is no weaker, so it does not wait longer (the quarantine is what
      // strict mode asks instead of a person).
      candidate.reason = CandidateReason.confirmed.rawValue
      candidate.eligibleAt = confirmation.confirmedAt
      candidate.detail =
        "\(place) \(how) on \(confirmation.confirmedAt.iso8601); trusting mode trashes it as "
        + "it would a deletion a scan found, without a quarantine"
    } else if input.now >= eligible {
      candidate.reason = CandidateReason.confirmed.rawValue
      candidate.detail =
        "\(place) \(how) on \(confirmation.confirmedAt.iso8601); its "
        + "\(input.settings.quarantineDays)-day quarantine ended \(eligible.iso8601)"
    } else {
      candidate.bucket = .held
      candidate.reason = CandidateReason.quarantine.rawValue
      candidate.detail =
        "\(place) \(how) on \(confirmation.confirmedAt.iso8601); held until \(eligible.iso8601)"
    }
  }

  /// A favourite is a person's word that the photo matters: whatever the local library says,
  /// and in either strictness, only a person trashes it. (Held stays held: it waits either
  /// way, and is a favourite still when its quarantine ends.)
  static func settleFavourite(_ candidate: inout CandidateRecord, place: String) {
    if candidate.bucket != .held && candidate.knownReason != .androidTrash {
      candidate.bucket = .pending
      candidate.reason = CandidateReason.favorite.rawValue
    }
    candidate.detail = (candidate.detail ?? place) + "; marked favourite on Immich"
  }

  /// A photo in an album is one a person filed on Immich: like a favourite, only a person
  /// trashes it, in either strictness. A favourite's reason stays (it says the same, and was
  /// the rule first); held stays held, and waits for a person when its quarantine ends.
  static func settleInAlbum(_ candidate: inout CandidateRecord, place: String) {
    if candidate.bucket == .delete || candidate.knownReason == .unconfirmed {
      candidate.bucket = .pending
      candidate.reason = CandidateReason.inAlbum.rawValue
    }
    candidate.detail = (candidate.detail ?? place) + "; in an album on Immich"
  }

  /// Fills in each Live Photo still's motion-video checksum from the listing and decides
  /// whether the video goes with the still: a video whose bytes are in this scan, that is
  /// excluded, or that is observed and not gone stays (`livePhotoVideoKept`), and the still
  /// waits for a person (`live-video-kept`) rather than being trashed without it on its own.
  /// A video the listing does not hold (locked, another user's) is never sent either.
  static func settleLivePhotoVideos(
    _ candidates: inout [CandidateRecord], _ input: ReconciliationInput, gone: Set<String>
  ) throws(ListingReadBackError) {
    let wanted = Set(candidates.compactMap(\.livePhotoVideoId))
    guard !wanted.isEmpty else { return }
    let videos = try input.assets.indices(ofIds: wanted)
    for at in candidates.indices {
      guard let videoId = candidates[at].livePhotoVideoId else { continue }
      guard let index = videos[videoId] else {
        candidates[at].livePhotoVideoKept = true
        candidates[at].detail =
          (candidates[at].detail ?? "") + "; its motion video is not in the listing and stays"
        continue
      }
      let checksum = input.assets.checksum(index)
      candidates[at].livePhotoVideoChecksum = checksum
      guard let why = videoStays(checksum, input, gone: gone) else { continue }
      candidates[at].livePhotoVideoKept = true
      if candidates[at].bucket == .delete {
        candidates[at].bucket = .pending
        candidates[at].reason = CandidateReason.liveVideoKept.rawValue
      }
      candidates[at].detail =
        (candidates[at].detail ?? "") + "; its motion video \(why), so the still waits for "
        + "your approval and goes alone"
    }
  }

  /// Why a motion video with `checksum` stays on the server, or nil when it goes with its
  /// still (gone like it, or never in the library at all).
  static func videoStays(
    _ checksum: String, _ input: ReconciliationInput, gone: Set<String>
  ) -> String? {
    if input.scan.contains(checksum) { return "is still in the library" }
    if input.exclusions.contains(checksum) { return "is excluded" }
    if input.observed[checksum] != nil && !gone.contains(checksum) {
      return "may still be in the library (not gone from a complete scan)"
    }
    return nil
  }

  /// Trashed assets that a cairn run trashed and whose bytes this scan has again: the person
  /// undid the deletion, so cairn undoes its own. A trashed asset no cairn run trashed is left
  /// where it is, whatever the library holds: cairn does not second-guess other deletions.
  static func putBacks(_ input: ReconciliationInput, present: [Bool])
    throws(ListingReadBackError) -> [CandidateRecord]
  {
    guard !input.trashedByRuns.isEmpty else { return [] }
    let assets = input.assets
    var candidates: [CandidateRecord] = []
    for index in 0..<assets.count where assets.isTrashed(index) && present[index] {
      let asset = try assets.record(index)
      let id = asset.id.lowercased()
      guard let run = input.trashedByRuns[id], asset.libraryId == nil else { continue }
      candidates.append(
        CandidateRecord(
          assetId: id, checksum: asset.checksum, bucket: .restore,
          reason: CandidateReason.putBack.rawValue,
          detail: "back in the library after run \(run) trashed it; restored from the trash",
          originalFileName: asset.originalFileName, assetType: asset.assetType,
          visibility: asset.visibility, ownerId: asset.ownerId,
          fileCreatedAt: asset.fileCreatedAt,
          livePhotoVideoId: asset.livePhotoVideoId?.lowercased(),
          isFavorite: asset.isFavorite ? true : nil))
    }
    return candidates
  }
}

import CairnRecords
import Foundation

/// The approved candidates turned into what a trash run will send: owned, unlocked assets not
/// already in the trash, each still with its Live Photo motion video when the video may go, in
/// batches that never split a pair and never exceed the server-friendly batch size.
///
/// A motion video goes with its still only when the candidate names its checksum, does not say
/// it stays, and the checksum is neither excluded nor in the library now: whatever the stream
/// says, bytes the library holds are never trashed. Otherwise the still goes alone (Immich
/// does not cascade trash, so the video stays active, hidden behind no still).
///
/// A motion video that is a candidate of its own goes in its still's unit. When its still does
/// not go in this run (left out by a filter, skipped), neither does the video: a Live Photo is
/// trashed whole, and a video trashed alone is purged while the still stays. Only a video whose
/// still is already in the trash may go on its own.
package struct TrashPlan: Sendable {
  /// One still (or plain asset) and, for a Live Photo, its motion video.
  package struct Unit: Sendable, Equatable {
    package var candidate: CandidateRecord
    package var videoID: String?

    package var assetID: String { candidate.assetId.lowercased() }
    package var ids: [String] { [assetID] + (videoID.map { [$0] } ?? []) }
  }

  package var units: [Unit]
  /// Candidates left out, with the reason (a `skipped` result each).
  package var skipped: [(candidate: CandidateRecord, reason: String)]

  /// Screens `candidates` for the user `userID`. `inTrash` maps asset ids the journal says are
  /// in the trash (trashed by an earlier run, not restored) to that run's id.
  /// `excluded` holds checksums a person protected (never trashed, whatever the plan says);
  /// `inLibrary` says whether a checksum's bytes are (or may be) in the library now. Candidates
  /// in the `restore` bucket are left to the put-back (they are never trashed). `stillOf` maps
  /// the lower-case id of a motion video that is a candidate to its still's, when the still is
  /// a candidate too (from cairn's state, not from the stream).
  package init(
    candidates: [CandidateRecord], userID: String, inTrash: [String: String],
    excluded: Set<String> = [], inLibrary: (String) -> Bool = { _ in false },
    stillOf: [String: String] = [:]
  ) {
    var units: [Unit] = []
    var skipped: [(CandidateRecord, String)] = []
    var seen: Set<String> = []
    var withTheirStill: [CandidateRecord] = []
    let user = userID.lowercased()
    for candidate in candidates where candidate.bucket != .restore {
      let id = candidate.assetId.lowercased()
      if seen.contains(id) { continue }
      if let owner = candidate.ownerId, owner.lowercased() != user {
        skipped.append((candidate, "owned by another user (a partner's asset is never trashed)"))
        continue
      }
      if candidate.ownerId == nil {
        skipped.append((candidate, "the candidate doesn't say who owns it"))
        continue
      }
      if candidate.visibility == "locked" {
        skipped.append((candidate, "in the locked folder (cairn never touches it)"))
        continue
      }
      if excluded.contains(candidate.checksum) {
        skipped.append((candidate, "excluded (a person asked to keep it)"))
        continue
      }
      if let run = inTrash[id] {
        skipped.append((candidate, "already in the trash (run \(run))"))
        continue
      }
      if stillOf[id] != nil {
        withTheirStill.append(candidate)
        continue
      }
      var video = Self.videoToSend(candidate, excluded: excluded, inLibrary: inLibrary)
      if let v = video, seen.contains(v) || inTrash[v] != nil { video = nil }
      seen.insert(id)
      if let video { seen.insert(video) }
      units.append(Unit(candidate: candidate, videoID: video))
    }
    for video in withTheirStill {
      let id = video.assetId.lowercased()
      guard let still = stillOf[id], !seen.contains(id) else { continue }
      seen.insert(id)
      if let unit = units.firstIndex(where: { $0.assetID == still }) {
        if units[unit].videoID == nil && units[unit].candidate.livePhotoVideoKept != true
          && !excluded.contains(video.checksum) && !inLibrary(video.checksum)
        {
          units[unit].videoID = id
          units[unit].candidate.livePhotoVideoChecksum = video.checksum
        } else {
          skipped.append((video, "its still goes to the trash alone (its motion video stays)"))
        }
      } else if inTrash[still] != nil {
        units.append(Unit(candidate: video, videoID: nil))
      } else {
        skipped.append(
          (
            video,
            "its still does not go to the trash in this run, and a Live Photo goes whole "
              + "(a motion video trashed alone is purged while its still stays)"
          ))
      }
    }
    self.units = units
    self.skipped = skipped
  }

  /// The motion video to send with `candidate`'s still, if it may go (see the type).
  static func videoToSend(
    _ candidate: CandidateRecord, excluded: Set<String>, inLibrary: (String) -> Bool
  ) -> String? {
    guard let video = candidate.livePhotoVideoId?.lowercased(),
      let checksum = candidate.livePhotoVideoChecksum, candidate.livePhotoVideoKept != true,
      !excluded.contains(checksum), !inLibrary(checksum)
    else { return nil }
    return video
  }

  /// Every asset id the plan acts on.
  package var assetCount: Int { units.reduce(0) { $0 + ($1.videoID == nil ? 1 : 2) } }

  /// Units grouped so each batch holds at most `size` ids (a pair always travels together).
  package func batches(size: Int) -> [[Unit]] {
    var batches: [[Unit]] = []
    var current: [Unit] = []
    var count = 0
    for unit in units {
      if count + unit.ids.count > max(size, 2), !current.isEmpty {
        batches.append(current)
        current = []
        count = 0
      }
      current.append(unit)
      count += unit.ids.count
    }
    if !current.isEmpty { batches.append(current) }
    return batches
  }

  /// The journal's view of the plan: every asset, motion videos naming their still.
  package var journalAssets: [JournalAsset] {
    units.flatMap { unit -> [JournalAsset] in
      var assets = [
        JournalAsset(
          id: unit.assetID, checksum: unit.candidate.checksum,
          originalFileName: unit.candidate.originalFileName)
      ]
      if let video = unit.videoID {
        assets.append(
          JournalAsset(
            id: video, checksum: unit.candidate.livePhotoVideoChecksum, stillID: unit.assetID))
      }
      return assets
    }
  }
}

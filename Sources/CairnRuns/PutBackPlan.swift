import CairnRecords

/// The `restore` candidates of a stream turned into what a run will bring back from the
/// trash: assets a person put back in the library after a cairn run trashed them.
///
/// Restoring destroys nothing, so no rail but ownership applies (not the threshold, not the
/// first-run dry run, not the confirmation). What the stream says is checked again at the
/// moment of acting: the asset is the user's and not locked, the journal says a cairn run
/// trashed it and did not restore it, and its bytes are in the latest recorded scan. A Live
/// Photo comes back whole: its motion video too, when a cairn run trashed it.
package struct PutBackPlan: Sendable {
  package var targets: [RestoreRun.Target]
  /// Candidates left out, with the reason (a `skipped` result each).
  package var skipped: [(candidate: CandidateRecord, reason: String)]

  /// Screens `candidates` (those in the `restore` bucket) for the user `userID`. `inTrash`
  /// maps the asset ids the journal says cairn runs trashed (and did not restore) to the run;
  /// `inLibrary` says whether a checksum is in the latest recorded scan.
  package init(
    candidates: [CandidateRecord], userID: String, inTrash: [String: String],
    inLibrary: (String) -> Bool
  ) {
    var targets: [RestoreRun.Target] = []
    var skipped: [(CandidateRecord, String)] = []
    var seen: Set<String> = []
    let user = userID.lowercased()
    for candidate in candidates where candidate.bucket == .restore {
      let id = candidate.assetId.lowercased()
      if seen.contains(id) { continue }
      guard candidate.ownerId?.lowercased() == user else {
        skipped.append((candidate, "not owned by this user (cairn restores only its own runs)"))
        continue
      }
      if candidate.visibility == "locked" {
        skipped.append((candidate, "in the locked folder (cairn never touches it)"))
        continue
      }
      guard let run = inTrash[id] else {
        skipped.append(
          (candidate, "no cairn run trashed it (cairn undoes only its own deletions)"))
        continue
      }
      guard inLibrary(candidate.checksum) else {
        skipped.append((candidate, "its bytes are not in the latest recorded scan"))
        continue
      }
      seen.insert(id)
      targets.append(
        RestoreRun.Target(
          id: id, runID: run, checksum: candidate.checksum,
          originalFileName: candidate.originalFileName))
      if let video = candidate.livePhotoVideoId?.lowercased(), !seen.contains(video),
        let videoRun = inTrash[video]
      {
        seen.insert(video)
        targets.append(RestoreRun.Target(id: video, runID: videoRun, livePhotoVideo: true))
      }
    }
    self.targets = targets
    self.skipped = skipped
  }
}

extension RunHistory {
  /// Every asset the runs trashed and did not restore, lower-case id to the run's id.
  package static func inTrash(_ runs: [RunHistory]) -> [String: String] {
    var result: [String: String] = [:]
    for run in runs { for id in run.inTrash { result[id.lowercased()] = run.runID } }
    return result
  }
}

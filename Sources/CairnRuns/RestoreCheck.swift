import CairnStream
import Foundation

/// The selection of a restore read against the server as it is now, before anything is sent.
///
/// The journal says what cairn did; the server says what happened since. An asset found
/// active again that cairn did not restore was restored by someone else (learned into the
/// ledger, so it stays known); one trashed again after that is theirs, not cairn's to restore,
/// and so is one the server says went to the trash after its run put it there (`TrashedAgain`);
/// one the server no longer has was purged. A Live Photo is restored whole: the other half of
/// every selected still or motion video comes along when it is still in cairn's trash.
package struct RestoreCheck {
  package let server: any RunServer
  package let history: [RunHistory]
  /// The latest run that trashed each asset, by index in `history`.
  private let latest: [String: Int]

  package init(server: any RunServer, history: [RunHistory]) {
    self.server = server
    self.history = history
    latest = FateLedger.latestRuns(history)
  }

  package struct Result: Sendable {
    /// What to restore, Live Photos whole.
    package var targets: [RestoreRun.Target] = []
    /// Selected assets the server no longer has, with why: reported as failed.
    package var purged: [RestoreRun.Target] = []
    /// Why something selected was left out, for stderr.
    package var notes: [String] = []

    package init() {}
  }

  package func check(
    _ selected: [RestoreRun.Target], ledger: inout FateLedger, at now: Date
  ) async throws(CairnError) -> Result {
    var sightings = ServerSightings()
    try await sightings.read(selected.map(\.wanted), on: server)
    let whole = try await wholeLivePhotos(selected, &sightings)
    var seen: [String: ServerSighting] = [:]
    for target in whole { seen[target.id] = sightings.sighting(target.id) }
    let again = try await TrashedAgain.read(
      seen.filter { $0.value == .trashed }.keys, history: history, ledger: ledger, on: server)
    ledger.learn(seen, trashedAgain: again, history: history, at: now)

    var result = Result()
    for target in whole {
      let sighting = seen[target.id] ?? .absent
      let fate = latest[target.id].flatMap { ledger.fate(of: target.id, in: history[$0]) }
      let name = target.originalFileName ?? target.id
      switch (fate, sighting) {
      case (.restoredElsewhere?, _), (nil, .active):
        result.notes.append("\(name): already restored (by someone else); left as it is")
      case (.restoredByCairn?, _):
        result.notes.append("\(name): already restored by cairn")
      case (.trashedElsewhere?, _):
        result.notes.append(
          "\(name): restored and trashed again by someone else since run \(target.runID); "
            + "theirs, not cairn's to restore")
      case (_, .absent):
        result.purged.append(target)
      default:
        result.targets.append(target)
      }
    }
    return result
  }

  /// `selected` with the other half of each Live Photo in it, when that half is in cairn's
  /// trash: a still's motion video (its `livePhotoVideoId`), a motion video's still (found in
  /// its run's listing). Each half follows the one it belongs to.
  private func wholeLivePhotos(
    _ selected: [RestoreRun.Target], _ sightings: inout ServerSightings
  ) async throws(CairnError) -> [RestoreRun.Target] {
    let chosen = Set(selected.map(\.id))
    var stillOf = Self.stills(sightings)
    // A motion video's still is found only by listing its run: list those runs.
    let orphanVideos = selected.filter {
      sightings.seen[$0.id]?.visibility == "hidden" && stillOf[$0.id] == nil
    }
    let runTags = Set(orphanVideos.compactMap(\.tagID))
    if !runTags.isEmpty {
      try await sightings.read(orphanVideos.map(\.wanted), on: server, listedAlways: runTags)
      stillOf = Self.stills(sightings)
    }
    var whole: [RestoreRun.Target] = []
    var added: Set<String> = []
    for target in selected {
      whole.append(target)
      let other =
        sightings.seen[target.id]?.livePhotoVideoID?.lowercased() ?? stillOf[target.id]
      guard let other, !chosen.contains(other), added.insert(other).inserted else { continue }
      if sightings.seen[other] == nil {
        try await sightings.read([.init(id: other, tagID: nil, runSize: 0)], on: server)
      }
      guard let half = otherHalf(other, of: target, sightings) else { continue }
      whole.append(half)
    }
    return whole
  }

  /// The still of each motion video seen, by the video's id.
  private static func stills(_ sightings: ServerSightings) -> [String: String] {
    var stillOf: [String: String] = [:]
    for asset in sightings.seen.values {
      if let video = asset.livePhotoVideoID { stillOf[video.lowercased()] = asset.id.lowercased() }
    }
    return stillOf
  }

  /// The other half `id` of `target`'s Live Photo as a target, when cairn trashed it and it
  /// is still in cairn's trash (or, for a run the journal doesn't know, carries a run tag).
  private func otherHalf(
    _ id: String, of target: RestoreRun.Target, _ sightings: ServerSightings
  ) -> RestoreRun.Target? {
    guard let asset = sightings.seen[id], asset.isTrashed else { return nil }
    if let index = latest[id] {
      let run = history[index]
      guard run.inTrash.contains(id) else { return nil }
      let journalled = run.asset(id)
      return RestoreRun.Target(
        id: id, runID: run.runID, checksum: journalled?.checksum ?? asset.checksum,
        originalFileName: journalled?.originalFileName ?? asset.originalFileName,
        livePhotoVideo: asset.visibility == "hidden", tagID: run.tagID,
        runSize: run.planned.count)
    }
    guard sightings.carriesRunTag(id) else { return nil }
    return RestoreRun.Target(
      id: id, runID: target.runID, checksum: asset.checksum,
      originalFileName: asset.originalFileName, livePhotoVideo: asset.visibility == "hidden",
      tagID: target.tagID, runSize: target.runSize)
  }
}

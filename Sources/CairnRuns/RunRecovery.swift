import CairnJSON
import CairnStream
import CairnSupport
import Foundation

/// Settles a run that a crash, a kill or a lost connection left without `completed`.
///
/// What the server did is kept, what it didn't is undone, and nothing is sent twice:
/// - A batch whose `DELETE` was sent with no outcome journalled (`RunHistory.inDoubt`) may still
///   be in the server's hands: a slow request outlives the process that sent it. Sending it
///   again would restart Immich's trash clock; untagging it now would let it land in the trash
///   with no tag and no journal entry. So the server is asked about each of those assets, again
///   and again, until every one is in the trash or `inFlightWait` has passed since the request
///   was sent (the dead run itself would have waited no longer for an answer). Each found in
///   the trash is adopted: tagged again if its tag went missing, and journalled `trashed`.
/// - Every other asset carrying the run's tag that the server has in its trash is journalled
///   `trashed`; every tagged asset still active gets the tag removed and is journalled
///   `untagged` (after the wait, an in-doubt asset still active was not moved).
/// Then the run is closed with `completed` (`recovered: true`). Nothing is trashed here: the
/// interrupted run's approval is stale, and whatever is still wanted comes back in the current
/// plan, which a person approved just now.
package struct RunRecovery {
  package let server: any RunServer
  package let journal: Journal
  /// How long after a `DELETE` was sent its answer may still be coming.
  package var inFlightWait: TimeInterval
  /// Between two questions to the server while waiting.
  package var pollInterval: TimeInterval = 0.5

  package init(server: any RunServer, journal: Journal, inFlightWait: TimeInterval = 35) {
    self.server = server
    self.journal = journal
    self.inFlightWait = inFlightWait
  }

  /// What settling one run found.
  package struct Settled: Sendable, Equatable {
    package var runID: String
    package var confirmedTrashed: [String] = []
    package var untagged: [String] = []
    /// In-doubt assets found in the trash (their tag restored where it was missing).
    package var adopted: [String] = []
  }

  /// Settles every unfinished run in `history`, oldest first.
  package func settle(_ history: [RunHistory]) async throws(CairnError) -> [Settled] {
    var settled: [Settled] = []
    for run in history where run.isUnfinished {
      settled.append(try await settle(run))
    }
    return settled
  }

  package func settle(_ run: RunHistory) async throws(CairnError) -> Settled {
    var result = Settled(runID: run.runID)
    var tagID = run.tagID
    if tagID == nil, let runID = RunID(run.runID) {
      let value = RunTag(runID).value
      tagID = try await server.tags().first { $0.value == value }?.id
    }
    var known = run.trashed
    if let tagID, !run.inDoubt.isEmpty {
      result.adopted = try await adopt(run, tagID: tagID)
      known.formUnion(result.adopted)
    }
    if let tagID {
      let planned = Set(run.planned.map(\.id))
      let onServer = try await server.assets(taggedWith: tagID)
      let ours = onServer.filter { planned.contains($0.id) }
      result.confirmedTrashed = ours.filter { $0.isTrashed && !known.contains($0.id) }
        .map(\.id).sorted()
      if !result.confirmedTrashed.isEmpty {
        let serverTime = await server.trashBound(
          of: result.confirmedTrashed, taggedWith: tagID)
        try journal.append(
          JournalEntry(
            .trashed, runID: run.runID, tagID: tagID, assetIDs: result.confirmedTrashed,
            recovered: true, serverTime: serverTime))
      }
      result.untagged = ours.filter { !$0.isTrashed && !known.contains($0.id) }
        .map(\.id).sorted()
      for batch in result.untagged.chunked(1000) {
        try await server.untagAssets(tagID: tagID, assetIDs: batch)
        try journal.append(
          JournalEntry(.untagged, runID: run.runID, tagID: tagID, assetIDs: batch, recovered: true))
      }
    }
    let trashed = run.trashed.count + result.adopted.count + result.confirmedTrashed.count
    try journal.append(
      JournalEntry(
        .completed, runID: run.runID,
        message: "closed by a later run: kept what the server trashed, untagged the rest",
        counts: ["trashed": trashed, "untagged": result.untagged.count], interrupted: true,
        recovered: true))
    return result
  }

  /// Waits until the server's answer to the run's in-doubt `DELETE`s is knowable, then tags and
  /// journals the assets it moved. Returns them.
  func adopt(_ run: RunHistory, tagID: String) async throws(CairnError) -> [String] {
    let ids = run.inDoubt.sorted()
    let deadline = (run.lastSentAt ?? .distantPast).addingTimeInterval(inFlightWait)
    let tagValue = RunID(run.runID).map { RunTag($0).value }
    var waited = false
    var inTrash: [String] = []
    var untaggedInTrash: [String] = []
    while true {
      inTrash = []
      untaggedInTrash = []
      var active = 0
      for id in ids {
        guard let asset = try await server.asset(id: id) else { continue }
        guard asset.isTrashed else {
          active += 1
          continue
        }
        inTrash.append(id)
        if let tagValue, asset.tagValues?.contains(tagValue) != true { untaggedInTrash.append(id) }
      }
      if active == 0 || Date() >= deadline { break }
      if !waited {
        Diagnostics.info(
          "run \(run.runID): a DELETE of \(active) asset(s) may still be in the server's hands; "
            + "waiting until \(deadline.iso8601) for its outcome rather than sending it again")
        waited = true
      }
      do {
        try await Task.sleep(nanoseconds: UInt64(pollInterval * 1_000_000_000))
      } catch {
        throw CairnError(.interrupted, "run \(run.runID): cancelled while waiting for the server")
      }
    }
    guard !inTrash.isEmpty else { return [] }
    // The tag may have been taken off (by an older cairn's recovery): put it back, so that
    // restoring by run id finds every asset the run trashed.
    if !untaggedInTrash.isEmpty {
      try await server.tagAssets(tagID: tagID, assetIDs: untaggedInTrash)
    }
    let serverTime = await server.trashBound(of: inTrash, taggedWith: tagID)
    try journal.append(
      JournalEntry(
        .trashed, runID: run.runID, tagID: tagID, assetIDs: inTrash,
        message: "adopted: the interrupted run's DELETE was applied", recovered: true,
        serverTime: serverTime))
    return inTrash
  }
}

extension Array {
  /// Consecutive slices of at most `size` elements.
  package func chunked(_ size: Int) -> [[Element]] {
    guard size > 0 else { return [self] }
    return stride(from: 0, to: count, by: size).map {
      Array(self[$0..<Swift.min($0 + size, count)])
    }
  }
}

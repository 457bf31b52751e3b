import Foundation

/// Settles a run that a crash, a kill or a lost connection left without `completed`.
///
/// What the server did is kept, what it didn't is undone: every asset carrying the run's tag that
/// the server has in its trash is journalled `trashed` (the DELETE went through before the run
/// could write it down); every tagged asset still active gets the tag removed and is journalled
/// `untagged`. Then the run is closed with `completed` (`recovered: true`). Nothing is trashed
/// here: the interrupted run's approval is stale, and whatever is still wanted comes back in the
/// current plan, which a person approved just now.
public struct RunRecovery {
  public let server: any RunServer
  public let journal: Journal

  public init(server: any RunServer, journal: Journal) {
    self.server = server
    self.journal = journal
  }

  /// What settling one run found.
  public struct Settled: Sendable, Equatable {
    public var runID: String
    public var confirmedTrashed: [String] = []
    public var untagged: [String] = []
  }

  /// Settles every unfinished run in `history`, oldest first.
  public func settle(_ history: [RunHistory]) async throws -> [Settled] {
    var settled: [Settled] = []
    for run in history where run.isUnfinished {
      settled.append(try await settle(run))
    }
    return settled
  }

  public func settle(_ run: RunHistory) async throws -> Settled {
    var result = Settled(runID: run.runID)
    var tagID = run.tagID
    if tagID == nil, let runID = RunID(run.runID) {
      let value = RunTag(runID).value
      tagID = try await server.tags().first { $0.value == value }?.id
    }
    if let tagID {
      let planned = Set(run.planned.map(\.id))
      let onServer = try await server.assets(taggedWith: tagID)
      let ours = onServer.filter { planned.contains($0.id) }
      result.confirmedTrashed = ours.filter { $0.isTrashed && !run.trashed.contains($0.id) }
        .map(\.id).sorted()
      if !result.confirmedTrashed.isEmpty {
        try journal.append(
          JournalEntry(
            .trashed, runID: run.runID, tagID: tagID, assetIDs: result.confirmedTrashed,
            recovered: true))
      }
      result.untagged = ours.filter { !$0.isTrashed && !run.trashed.contains($0.id) }
        .map(\.id).sorted()
      for batch in result.untagged.chunked(1000) {
        try await server.untagAssets(tagID: tagID, assetIDs: batch)
        try journal.append(
          JournalEntry(.untagged, runID: run.runID, tagID: tagID, assetIDs: batch, recovered: true))
      }
    }
    let trashed = run.trashed.count + result.confirmedTrashed.count
    try journal.append(
      JournalEntry(
        .completed, runID: run.runID,
        message: "closed by a later run: kept what the server trashed, untagged the rest",
        counts: ["trashed": trashed, "untagged": result.untagged.count], interrupted: true,
        recovered: true))
    return result
  }
}

extension Array {
  /// Consecutive slices of at most `size` elements.
  public func chunked(_ size: Int) -> [[Element]] {
    guard size > 0 else { return [self] }
    return stride(from: 0, to: count, by: size).map {
      Array(self[$0..<Swift.min($0 + size, count)])
    }
  }
}

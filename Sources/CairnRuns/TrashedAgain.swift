import CairnStream
import Foundation

/// Which assets a cairn run put in the trash are in the trash now because someone restored
/// them and trashed them again, though no look of cairn's found them active in between.
///
/// Immich keeps when an asset went to the trash (`deletedAt`: a trash sets it, a restore clears
/// it) and searches by it. A run records the server's clock once its assets were in the trash
/// (`RunHistory.trashedByServerTime`); one of them trashed later than that was trashed again,
/// by someone else. Both times are the server's: this machine's clock never enters.
package enum TrashedAgain {
  /// Room for the HTTP `Date` header: whole seconds, and a value a server may cache for a
  /// second or more. A person who restores and trashes again within this much of cairn's run
  /// is not told apart; cairn never takes its own trash for someone else's.
  package static let slack: TimeInterval = 60

  /// The ids among `trashed` (seen in the trash now) that went there after the latest run that
  /// trashed them, asked of the server once per run (`RunServer.trashed(since:taggedWith:)`,
  /// by the run's tag). Skipped: ids the ledger already knows are not in cairn's trash, and
  /// runs that recorded no server clock or tag.
  package static func read(
    _ trashed: some Sequence<String>, history: [RunHistory], ledger: FateLedger,
    on server: any RunServer
  ) async throws(CairnError) -> Set<String> {
    let latest = FateLedger.latestRuns(history)
    var asked: [Int: Set<String>] = [:]
    for id in trashed {
      guard let index = latest[id], ledger.fate(of: id, in: history[index]) == .inCairnTrash
      else { continue }
      asked[index, default: []].insert(id)
    }
    var again: Set<String> = []
    for (index, ids) in asked.sorted(by: { $0.key < $1.key }) {
      let run = history[index]
      guard let time = run.trashedByServerTime, let tag = run.tagID else { continue }
      let since = try await server.trashed(since: time + slack, taggedWith: tag)
      again.formUnion(ids.intersection(since))
    }
    return again
  }
}

extension RunServer {
  /// The server's clock now, as the bound a run records on when its assets `ids` (carrying
  /// `tagID`) went to the trash, once the server agrees with it: none of them is found trashed
  /// after it. A `Date` header behind the server's database (a cached date under load, a
  /// proxy's, another host's clock) would otherwise make cairn's own trash read as someone
  /// else's; without a bound nothing is told apart, as before. One search more per run.
  package func trashBound(of ids: some Sequence<String>, taggedWith tagID: String) async -> Date? {
    guard let time = try? await clock(),
      let later = try? await trashed(since: time + TrashedAgain.slack, taggedWith: tagID),
      later.isDisjoint(with: ids.map { $0.lowercased() })
    else { return nil }
    return time
  }
}

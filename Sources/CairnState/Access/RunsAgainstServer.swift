import CairnEngine
import CairnRuns
import CairnStream
import Foundation

/// The journal's runs read against the server as it is now, before a stage judges or acts:
/// what the server shows of the assets cairn trashed is learned into the partition's state
/// (`FateStore`), and the stage gets cairn's own trash and the checksums to keep from it.
package struct RunsAgainstServer: Sendable {
  /// The assets still in the trash cairn put them in, lower-case id to run id.
  package var inCairnTrash: [String: String]
  /// Checksums of assets someone restored in Immich after a cairn run trashed them, whose
  /// bytes no scan has found since: never candidates, never trashed again until the file comes
  /// back and goes again.
  package var keptOnServer: Set<String>
  /// What was learned: those restored by someone else, trashed again by someone else and
  /// purged since the last look, for a line on stderr.
  package var learned: [AssetFate: Int]
}

extension PartitionStore {
  /// Reads `history` against the server's listing `assets` (every asset of the user, trashed
  /// ones included) and the scan (`isPresent`), records what it teaches, and says what follows.
  package func readRuns(
    _ history: [RunHistory], against assets: any AssetListing, isPresent: (String) -> Bool,
    at now: Date
  ) throws(CairnError) -> RunsAgainstServer {
    let latest = FateLedger.latestRuns(history)
    let asked = Set(latest.filter { history[$0.value].inTrash.contains($0.key) }.keys)
    var sightings: [String: ServerSighting] = [:]
    if !asked.isEmpty {
      let found: [String: Int]
      do { found = try assets.indices(ofIds: asked) } catch {
        throw CairnError(.malformedInput, error.message)
      }
      for id in asked {
        sightings[id] = found[id].map { assets.isTrashed($0) ? .trashed : .active } ?? .absent
      }
    }
    return try readRuns(history, sightings: sightings, isPresent: isPresent, at: now)
  }

  /// Reads `history` against `sightings` (what the server says now of some of its assets,
  /// and which of those in the trash went there after their run, `TrashedAgain`), records what
  /// they teach, and says what follows.
  package func readRuns(
    _ history: [RunHistory], sightings: [String: ServerSighting],
    trashedAgain: Set<String> = [], isPresent: (String) -> Bool = { _ in false }, at now: Date
  ) throws(CairnError) -> RunsAgainstServer {
    var ledger = try fates.ledger()
    let before = ledger
    ledger.learn(sightings, trashedAgain: trashedAgain, history: history, at: now)
    ledger.noteFilesSeenAgain(history: history, at: now, isPresent: isPresent)
    try fates.save(ledger)
    var learned: [AssetFate: Int] = [:]
    let latest = FateLedger.latestRuns(history)
    for entry in ledger.changed {
      guard let index = latest[entry.assetID], history[index].runID == entry.runID,
        let fate = ledger.fate(of: entry.assetID, in: history[index]),
        fate != before.fate(of: entry.assetID, in: history[index])
      else { continue }
      learned[fate, default: 0] += 1
    }
    return RunsAgainstServer(
      inCairnTrash: ledger.cairnsTrash(history), keptOnServer: ledger.keptOnServer(history),
      learned: learned)
  }
}

extension RunsAgainstServer {
  /// One line saying what the server showed that the journal did not know, or nil.
  package var summary: String? {
    let parts = [AssetFate.restoredElsewhere, .trashedElsewhere, .purged].compactMap {
      fate -> String? in
      guard let count = learned[fate], count > 0 else { return nil }
      return "\(count) \(fate.description)"
    }
    guard !parts.isEmpty else { return nil }
    return "since cairn last looked, of the assets its runs trashed: "
      + parts.joined(separator: ", ")
  }
}

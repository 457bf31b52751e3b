import CairnImmich
import CairnRuns
import CairnState
import CairnStream
import CairnSupport
import Foundation

extension PartitionAccess {
  /// The journal's runs read against the server at the point of action: each of `ids` the
  /// journal says is in cairn's trash is asked about (`GET /api/assets/:id`), and those in the
  /// trash about when they went there (`TrashedAgain`), so an asset someone restored or
  /// trashed again since is known before it is trashed or restored. What the answers teach is
  /// kept in the partition's state.
  func readRuns(
    _ history: [RunHistory], about ids: Set<String>, on server: ImmichRunServer
  ) async throws(CairnError) -> RunsAgainstServer {
    let latest = FateLedger.latestRuns(history)
    let asked = ids.map { $0.lowercased() }.filter { id in
      latest[id].map { history[$0].inTrash.contains(id) } ?? false
    }
    var sightings = ServerSightings()
    try await sightings.read(
      asked.sorted().map { ServerSightings.Wanted(id: $0, tagID: nil, runSize: 0) }, on: server)
    var seen: [String: ServerSighting] = [:]
    for id in asked { seen[id] = sightings.sighting(id) }
    let again = try await TrashedAgain.read(
      seen.filter { $0.value == .trashed }.keys, history: history, ledger: try store.fates.ledger(),
      on: server)
    let runs = try store.readRuns(history, sightings: seen, trashedAgain: again, at: Date())
    if let summary = runs.summary { Diagnostics.info(summary) }
    return runs
  }
}

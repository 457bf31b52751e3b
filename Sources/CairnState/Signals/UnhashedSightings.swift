import CairnEngine
import CairnStream
import Foundation
import GRDB

/// The arrivals the watcher could not hash, as the engine judges them
/// (`ReconciliationEngine.sightingCandidates`), and their lifetime. A row lives until a
/// complete scan of its root has judged it and it is done with:
/// - a scan or an arrival hashed its path since it was seen: it is a file like any other, and
///   the row goes (`unhashedSightings`);
/// - it matched no asset, or several, or its one asset went to the trash or was excluded: it
///   goes (`forgetSightings`, from what the engine said);
/// - it matched exactly one asset, which waits for a person: it stays, and is judged again at
///   the next complete scan, so the candidate is proposed until it is decided.
/// A row seen after the scan began, or under a root this run did not scan completely, waits.
extension PartitionStore {
  /// The unhashed arrivals seen before `scanStartedAt` whose path no scan or arrival hashed
  /// since (those are removed here), oldest first.
  package func unhashedSightings(before scanStartedAt: Date) throws(CairnError)
    -> [UnhashedSighting]
  {
    try database.write { db in
      guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM unhashedArrival)") == true
      else { return [] }
      try db.execute(
        sql: """
          DELETE FROM unhashedArrival
          WHERE EXISTS (
            SELECT 1 FROM observedPath p JOIN observed o ON o.checksum = p.checksum
            WHERE p.root = unhashedArrival.root AND p.path = unhashedArrival.path
              AND o.lastSeen >= unhashedArrival.seenAt)
          """)
      return try Row.fetchAll(
        db,
        sql: """
          SELECT rowid, root, path, name, size, modifiedAt, seenAt, reason
          FROM unhashedArrival WHERE seenAt < ? ORDER BY seenAt, rowid
          """, arguments: [scanStartedAt.stateValue]
      ).map {
        UnhashedSighting(
          key: $0[0], root: $0[1], path: $0[2], name: $0[3], size: $0[4],
          modifiedAt: ($0[5] as Double?).map(Date.init(stateValue:)),
          seenAt: Date(stateValue: $0[6]), reason: $0[7])
      }
    }
  }

  /// Removes the sightings with `keys`: judged, and done with.
  package func forgetSightings(_ keys: [Int64]) throws(CairnError) {
    guard !keys.isEmpty else { return }
    try database.write { db in
      let delete = try db.cachedStatement(sql: "DELETE FROM unhashedArrival WHERE rowid = ?")
      for key in keys { try delete.execute(arguments: [key]) }
    }
  }
}

import CairnEngine
import CairnRecords
import CairnStream
import Foundation
import GRDB

/// Every checksum cairn has seen in the library, the roots it was seen under and where.
///
/// A checksum's last-seen time is the later of its row's and, when the last recorded scan's
/// snapshot lists it, that scan's time: recording an unchanged library rewrites no rows
/// (see `PartitionStore.recordScan`).
package struct ObservedStore: Sendable {
  let database: StateDatabase
  let snapshots: ScanSnapshotStore
  init(_ database: StateDatabase, snapshots: ScanSnapshotStore) {
    self.database = database
    self.snapshots = snapshots
  }

  /// Everything remembered, keyed by checksum: the engine's input.
  package func snapshot() throws(CairnError) -> [String: ObservedEntry] {
    var entries = try rows()
    if let last = try snapshots.loadLatest() {
      for checksum in last.scan.checksums() {
        if let seen = entries[checksum.string]?.lastSeen, seen < last.time {
          entries[checksum.string]?.lastSeen = last.time
        }
      }
    }
    return entries
  }

  private func rows() throws(CairnError) -> [String: ObservedEntry] {
    try database.read { db in try Self.entries(db) }
  }

  /// The observed rows `selection` picks (an SQL condition on `checksum`; nil for every row),
  /// each with the roots and paths of the path rows `pathSelection` picks, sorted by root, then
  /// path (the table's key order, so the sort is free). The one reading of the observed tables:
  /// for the whole store, one checksum, and the engine's lean input (`reconciliationInput`).
  /// `arguments` are bound to both conditions alike.
  static func entries(
    _ db: Database, where selection: String? = nil, pathsWhere pathSelection: String? = nil,
    arguments: StatementArguments = []
  ) throws -> [String: ObservedEntry] {
    var entries: [String: ObservedEntry] = [:]
    let rows = try Row.fetchCursor(
      db, sql: "SELECT checksum, firstSeen, lastSeen FROM observed" + condition(selection),
      arguments: arguments)
    while let row = try rows.next() {
      let checksum: String = row[0]
      entries[checksum] = ObservedEntry(
        checksum: checksum, roots: [], paths: [], firstSeen: Date(stateValue: row[1]),
        lastSeen: Date(stateValue: row[2]))
    }
    let paths = try Row.fetchCursor(
      db,
      sql: "SELECT checksum, root, path FROM observedPath" + condition(pathSelection)
        + " ORDER BY checksum, root, path", arguments: arguments)
    while let row = try paths.next() {
      let checksum: String = row[0]
      entries[checksum]?.roots.insert(row[1])
      entries[checksum]?.paths.append(row[2])
    }
    return entries
  }

  private static func condition(_ selection: String?) -> String {
    selection.map { " WHERE " + $0 } ?? ""
  }

  /// Whether `checksum` was ever seen. (Its row alone: `entry` also reads the last scan's
  /// snapshot to date it, a hundred megabytes at a million files, which a caller asking about
  /// many checksums must not pay each time.)
  package func contains(_ checksum: String) throws(CairnError) -> Bool {
    try database.read { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM observed WHERE checksum = ?)",
        arguments: [checksum]) ?? false
    }
  }

  /// One checksum's entry, or nil when it was never seen.
  package func entry(_ checksum: String) throws(CairnError) -> ObservedEntry? {
    guard var entry = try row(checksum) else { return nil }
    if let last = try snapshots.loadLatest(), entry.lastSeen < last.time,
      last.scan.lists(checksum: checksum)
    {
      entry.lastSeen = last.time
    }
    return entry
  }

  private func row(_ checksum: String) throws(CairnError) -> ObservedEntry? {
    try database.read { db in
      try Self.entries(
        db, where: "checksum = ?", pathsWhere: "checksum = ?", arguments: [checksum]
      )[checksum]
    }
  }

  /// How many checksums are remembered.
  package func count() throws(CairnError) -> Int {
    try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM observed") ?? 0 }
  }

  /// The checksum last seen at `path`, if any (for excluding by path).
  package func checksums(atPath path: String) throws(CairnError) -> [String] {
    try database.read { db in
      try String.fetchAll(
        db, sql: "SELECT DISTINCT checksum FROM observedPath WHERE path = ?", arguments: [path])
    }
  }

  /// Adds checksums without paths or roots (an imported list). They are remembered but in no
  /// scope until a scan sees them under a root, so an import alone never makes anything gone.
  @discardableResult
  package func importChecksums(_ checksums: [String], at now: Date) throws(CairnError) -> Int {
    try database.write { db in
      let statement = try db.cachedStatement(
        sql: "INSERT INTO observed VALUES (?, ?, ?) ON CONFLICT(checksum) DO NOTHING")
      var added = 0
      for checksum in checksums {
        try statement.execute(arguments: [checksum, now.stateValue, now.stateValue])
        added += db.changesCount
      }
      return added
    }
  }

  /// Forgets every observation, missing time, signal and anchor; exclusions, approvals, runs and
  /// meta stay. The next scan re-seeds the store without flagging anything.
  package func reset() throws(CairnError) {
    try database.write { db in
      try db.execute(
        sql: """
          DELETE FROM observedPath; DELETE FROM observed; DELETE FROM missing;
          DELETE FROM confirmation; DELETE FROM anchor; DELETE FROM scanSnapshot;
          """)
    }
    // The last scan's paths go too (the database no longer matches them anyway).
    snapshots.discard()
  }
}

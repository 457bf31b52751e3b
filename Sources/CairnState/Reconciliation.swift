import CairnCore
import Foundation
import GRDB

extension PartitionStore {
  /// Loads this partition's memory and runs the engine on it: the engine's input from the store,
  /// the scan and the server listing. Call after the scan has been recorded.
  ///
  /// The store's memory is loaded only as far as the engine reads it, which gives the same
  /// output as loading all of it (a million files would otherwise cost a million path strings,
  /// root sets and anchors the engine never looks at):
  /// - `observed` has every checksum (the engine counts them and matches assets against them),
  ///   but roots and paths only for checksums absent from this scan: the engine reads roots
  ///   only to decide whether an absent checksum is gone, and paths only for gone candidates.
  /// - `anchors` has only the anchors of files in this scan whose original is absent from it:
  ///   the engine uses an anchor only when its file exists, to keep its original from being
  ///   gone, and an original present in the scan is never gone anyway.
  /// SQLite compares bytes where Swift sets compare canonically equivalent strings as equal, so
  /// "present" here implies present for the engine; the converse gap only loads more.
  public func reconciliationInput(
    files: [ScannedFile], roots: [RootStatus], assets: [AssetRecord],
    settings: ReconciliationSettings, now: Date
  ) throws(CairnError) -> ReconciliationInput {
    let (observed, anchors) = try database.write(scan: files) { db in
      (try Self.observedForEngine(db), try Self.anchorsForEngine(db))
    }
    return ReconciliationInput(
      files: files, roots: roots, observed: observed,
      missingSince: try signals.missing(), confirmations: try signals.confirmations(),
      anchors: anchors, exclusions: try exclusions.checksums(), assets: assets,
      settings: settings, now: now)
  }

  /// Runs the engine and records what it found gone (first-missing times) and when.
  public func reconcile(
    files: [ScannedFile], roots: [RootStatus], assets: [AssetRecord],
    settings: ReconciliationSettings, now: Date
  ) throws(CairnError) -> ReconciliationOutput {
    let input = try reconciliationInput(
      files: files, roots: roots, assets: assets, settings: settings, now: now)
    let output = ReconciliationEngine.reconcile(input)
    try signals.recordMissing(output.gone, at: now)
    try meta.set(.lastReconcileAt, now)
    return output
  }

  private static func observedForEngine(_ db: Database) throws -> [String: ObservedEntry] {
    var entries: [String: ObservedEntry] = [:]
    entries.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM observed") ?? 0)
    let rows = try Row.fetchCursor(db, sql: "SELECT checksum, firstSeen, lastSeen FROM observed")
    while let row = try rows.next() {
      let checksum: String = row[0]
      entries[checksum] = ObservedEntry(
        checksum: checksum, roots: [], paths: [], firstSeen: Date(stateValue: row[1]),
        lastSeen: Date(stateValue: row[2]))
    }
    // Sorted by root, then path, within a checksum, as `ObservedStore.snapshot` gives them.
    let paths = try Row.fetchCursor(
      db,
      sql: """
        SELECT checksum, root, path FROM observedPath
        WHERE checksum NOT IN (SELECT checksum FROM temp.scanFile)
        ORDER BY checksum, root, path
        """)
    while let row = try paths.next() {
      let checksum: String = row[0]
      entries[checksum]?.roots.insert(row[1])
      entries[checksum]?.paths.append(row[2])
    }
    return entries
  }

  private static func anchorsForEngine(_ db: Database) throws -> [EditAnchor] {
    var anchors: [EditAnchor] = []
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT identity, firstChecksum, currentChecksum, root, path FROM anchor
        WHERE identity IN (SELECT identity FROM temp.scanFile)
          AND firstChecksum NOT IN (SELECT checksum FROM temp.scanFile)
        """)
    while let row = try rows.next() {
      anchors.append(
        EditAnchor(
          identity: FileIdentity(key: row[0]), firstChecksum: row[1], currentChecksum: row[2],
          root: row[3], path: row[4]))
    }
    return anchors
  }
}

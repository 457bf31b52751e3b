import CairnEngine
import CairnRecords
import CairnSealedFiles
import CairnSettings
import CairnStream
import Foundation
import GRDB

extension PartitionStore {
  /// Loads this partition's memory and runs the engine on it: the engine's input from the store,
  /// the scan and the server listing. Call after the scan has been recorded.
  ///
  /// The store's memory is loaded only as far as the engine reads it, which gives the same
  /// output as loading all of it (a million files would otherwise cost a million entries,
  /// path strings, root sets and anchors the engine never looks at):
  /// - `observed` has only the checksums absent from this scan, with `observedCount` the
  ///   store's total: recording the scan made every scanned checksum observed, so the engine
  ///   counts those as observed without an entry (verified here; if it ever fails, every
  ///   entry is loaded). Its entries have roots and paths: the engine reads roots only to
  ///   decide whether an absent checksum is gone, and paths only for gone candidates.
  /// - `anchors` has only the anchors of files in this scan whose original is observed and
  ///   absent from it: the engine uses an anchor only when its file exists, to keep its
  ///   original from being gone, and only an observed checksum absent from the scan can be.
  /// SQLite compares bytes where Swift sets compare canonically equivalent strings as equal, so
  /// "present" here implies present for the engine; the converse gap only loads more.
  ///
  /// `scan` is how the engine reads `files` (a faster reading made by the caller); nil: the
  /// plain reading, `PlainScan(files)`. `scanStartedAt`, when the scan began (its header's
  /// time): the watcher's unhashed arrivals seen before it are the engine's to judge; nil,
  /// none are (a file seen while the walk ran may have arrived behind it).
  package func reconciliationInput(
    files: ScanFiles, scan: (any ScanContents)? = nil, roots: [RootStatus],
    assets: any AssetListing, settings: ReconciliationSettings, now: Date,
    scanStartedAt: Date? = nil
  ) throws(CairnError) -> ReconciliationInput {
    // Right after this scan was recorded (nothing written since), its absent checksums are
    // collected and every scanned checksum is known to be in the store. So they are when the
    // store still matches the snapshot of this very scan, recorded by an earlier stage
    // (`cairn-observe`): the snapshot lists the absent checksums.
    let justRecorded = try snapshots.justRecorded(files)
    let snapshot = justRecorded ? nil : try snapshotOfThisScan(files)
    let scanIsRecorded = justRecorded || snapshot != nil
    let load = { (db: Database) in
      (
        try Self.observedForEngine(db, scanIsRecorded: scanIsRecorded),
        try Self.anchorsForEngine(db, files: files, scanIsRecorded: scanIsRecorded)
      )
    }
    let (observed, anchors) =
      if justRecorded {
        try database.write(load)
      } else if let snapshot {
        try database.write { db in
          guard try ScanSnapshotStore.row(db) == snapshot.record else {
            throw CairnError(.busy, "the state changed during this run; try again")
          }
          try ScanTable.replaceAbsent(db, with: snapshot.absent)
          return try load(db)
        }
      } else {
        try snapshots.withScanTables(files) { db in
          try ScanTable.collectAbsent(db)
          return try load(db)
        }
      }
    return ReconciliationInput(
      scan: scan ?? PlainScan(files), roots: roots, observed: observed.entries,
      observedCount: observed.count,
      missingSince: try signals.missing(), confirmations: try trustedConfirmations(now: now),
      anchors: anchors, exclusions: try exclusions.checksums(), assets: assets,
      settings: settings, now: now,
      unhashed: try scanStartedAt.map { (started) throws(CairnError) in
        try unhashedSightings(before: started)
      } ?? [])
  }

  /// The absent checksums of the current snapshot, when it holds exactly `files`.
  private func snapshotOfThisScan(_ files: ScanFiles) throws(CairnError) -> (
    record: ScanSnapshotStore.Row, absent: [String]
  )? {
    guard let record = try snapshots.row(), record.current,
      let previous = snapshots.load(record), previous.count == files.count,
      let delta = ScanDelta(files: files, previous: previous),
      delta.changed.isEmpty, delta.replaced.isEmpty
    else { return nil }
    return (record, previous.absent)
  }

  /// Runs the engine and records what it found gone (first-missing times) and when.
  /// `scan`: see `reconciliationInput`.
  package func reconcile(
    files: ScanFiles, scan: (any ScanContents)? = nil, roots: [RootStatus],
    assets: any AssetListing, settings: ReconciliationSettings, now: Date,
    scanStartedAt: Date? = nil
  ) throws(CairnError) -> ReconciliationOutput {
    try reconcile(
      try reconciliationInput(
        files: files, scan: scan, roots: roots, assets: assets, settings: settings, now: now,
        scanStartedAt: scanStartedAt))
  }

  /// Runs the engine on `input`, loaded by `reconciliationInput` with nothing written since,
  /// and records what it found gone (first-missing times) and when. A listing line that could
  /// not be read again (its file changed meanwhile) fails the run inside the engine, before
  /// anything is recorded.
  package func reconcile(_ input: ReconciliationInput) throws(CairnError) -> ReconciliationOutput {
    let output: ReconciliationOutput
    do {
      output = try ReconciliationEngine.reconcile(input)
    } catch {
      throw CairnError(.malformedInput, error.message)
    }
    try signals.recordMissing(output.gone, at: input.now)
    try forgetSightings(output.forgottenSightings)
    try closeWatchGaps(completeRoots: output.completeRoots, scannedAt: input.now)
    try meta.set(.lastReconcileAt, input.now)
    return output
  }

  /// Entries for the checksums absent from the scan, and the store's total; every entry (and
  /// nil) should a scanned checksum not be in the store, which recording the scan rules out
  /// (checked unless `scanIsRecorded` says it was just recorded).
  private static func observedForEngine(_ db: Database, scanIsRecorded: Bool) throws -> (
    entries: [String: ObservedEntry], count: Int?
  ) {
    let unrecorded =
      scanIsRecorded
      ? 0
      : try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM temp.scanKey
          WHERE checksum NOT IN (SELECT checksum FROM observed)
          """) ?? 0
    let compact = unrecorded == 0
    let absent = "checksum IN (SELECT checksum FROM temp.absentChecksum)"
    let entries = try ObservedStore.entries(
      db, where: compact ? absent : nil, pathsWhere: absent)
    let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM observed") ?? 0
    return (entries, compact ? count : nil)
  }

  /// The anchors the engine needs (see `reconciliationInput`): those whose original is in the
  /// small absent table, of which those whose file is in the scan.
  ///
  /// When the store holds this very scan (`scanIsRecorded`), recording it made each scanned
  /// file's anchor current with the file's checksum, which is present: an anchor whose
  /// original is absent and whose file is in the scan was edited (first <> current), and the
  /// few edited anchors are indexed. Otherwise every anchor is looked at.
  private static func anchorsForEngine(
    _ db: Database, files: ScanFiles, scanIsRecorded: Bool
  ) throws -> [EditAnchor] {
    let candidates = try Row.fetchAll(
      db,
      sql: """
        SELECT identity, firstChecksum, currentChecksum, root, path FROM anchor
        WHERE \(scanIsRecorded ? "firstChecksum <> currentChecksum AND" : "")
          firstChecksum IN (SELECT checksum FROM temp.absentChecksum)
        """)
    var scan = ScanQuery(files: files)
    scan.find(checksums: [], identities: Set(candidates.map { ByteKey($0[0] as String) }))
    return candidates.compactMap { row in
      let identity: String = row[0]
      guard scan.identityCount[ByteKey(identity)] != nil else { return nil }
      return EditAnchor(
        identity: FileIdentity(key: identity), firstChecksum: row[1], currentChecksum: row[2],
        root: row[3], path: row[4])
    }
  }
}

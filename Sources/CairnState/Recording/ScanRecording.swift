import CairnEngine
import CairnSealedFiles
import CairnStream
import Foundation
import GRDB

/// What recording a scan changed.
package struct ScanRecordingSummary: Sendable, Equatable {
  /// Files in the scan.
  package var files = 0
  /// Checksums never seen before.
  package var newChecksums = 0
  /// Checksums that were missing or signalled and are back.
  package var reappeared = 0
  /// Intermediate edit versions retired into quarantine.
  package var retiredEdits = 0
}

extension PartitionStore {
  /// Records one scan in one transaction: observations, last known paths, edit anchors.
  ///
  /// - Every file's checksum is remembered under its root; first seen is kept, last seen moves.
  /// - Under a root in `completeRoots`, a checksum seen now keeps only its current paths there;
  ///   a checksum not seen keeps its last known paths. A partial scan only adds.
  /// - A checksum seen again loses its first-missing time and any positive signal: it is back.
  /// - Edit anchors: the first checksum of a file identity stays; when a file's bytes change
  ///   away from an intermediate version (not the anchor), that version is retired with a
  ///   positive signal dated `now` (source `edit`), so it goes through quarantine. A new
  ///   identity inherits the anchor of an identity absent from this scan whose current bytes
  ///   it has (a move across file systems), or else whose path it has while those bytes are
  ///   nowhere in the scan (a replace by rename: see `AbsentAnchors`). Anchors of identities
  ///   absent from a complete root and inherited by none are dropped: the file was deleted, and
  ///   its original is no longer protected. An edited file's deletion is remembered
  ///   (`deletedVersion`), so its original follows the signal of its last bytes.
  ///
  /// When the scan covers the same complete roots as the last one recorded and the store has
  /// not changed since (`ScanSnapshot`), only the files that differ from that scan are
  /// compared with the store (`recordDelta`), with the same result; otherwise the whole scan
  /// is (`recordWhole`). Either way, a scan of complete roots only leaves a snapshot for the
  /// next one, and the snapshot dates what it lists: a checksum's last-seen time is the later
  /// of `observed.lastSeen` and the snapshot's time when the snapshot lists it (see
  /// `ObservedStore`), so an unchanged million files cost no million-row update.
  ///
  /// `scopedRoots`: roots scanned completely apart from folders out of scope (a volume away).
  /// They are recorded as a partial scan, which only adds (the paths and anchors last seen on
  /// the volume stay), yet the scan leaves a snapshot over them, so the point-of-action check
  /// can act on what the engine found gone in the rest of such a root. Always recorded whole.
  /// `preloaded`: the snapshot read ahead, if the caller did.
  @discardableResult
  package func recordScan(
    _ files: ScanFiles, completeRoots: Set<String>, scopedRoots: Set<String> = [], at now: Date,
    preloaded: ScanSnapshotPreload? = nil
  ) throws(CairnError) -> ScanRecordingSummary {
    let time = now.stateValue
    snapshots.invalidate()
    let roots = Set(completeRoots.map(ByteKey.init))
    let snapshotRoots = completeRoots.union(scopedRoots)
    let snapshotKeys = Set(snapshotRoots.map(ByteKey.init))
    let snapshotted = !snapshotKeys.isEmpty && files.allRoots { snapshotKeys.contains(ByteKey($0)) }
    let last = snapshotted ? try lastScan(preloaded) : nil
    let recorded: Recorded
    if scopedRoots.isEmpty, let last, let delta = comparison(of: files, with: last, roots: roots) {
      recorded = try recordByDifference(
        files, from: last, delta: delta, completeRoots: roots, time: time)
    } else {
      recorded = try recordWhole(
        files, completeRoots: completeRoots, snapshotRoots: snapshotted ? snapshotRoots : nil,
        last: last, time: time)
    }
    // The engine's input, if it is loaded next, need not look for the absent checksums again.
    snapshots.remember(
      recorded.snapshots, files: snapshotted || !completeRoots.isEmpty ? files : nil,
      changes: recorded.changes)
    return recorded.summary
  }

  /// What one recording did: its summary, the snapshots it compared with and wrote, and the
  /// writing connection's count of changed rows when it committed.
  private struct Recorded {
    var summary: ScanRecordingSummary
    var snapshots = ScanSnapshotStore.Recording()
    var changes: Int
  }

  /// The row of the last recorded scan and its snapshot (the one read ahead when it is that
  /// file), if the file is intact.
  private func lastScan(_ preloaded: ScanSnapshotPreload?) throws(CairnError) -> (
    row: ScanSnapshotStore.Row, scan: ScanSnapshot?
  )? {
    guard let row = try snapshots.row() else { return nil }
    return (row, snapshots.load(row, readAhead: preloaded))
  }

  /// How `files` differs from the last scan, when it can be recorded by that difference: the
  /// store still matches the last scan's snapshot, which covered the same complete roots.
  private func comparison(
    of files: ScanFiles, with last: (row: ScanSnapshotStore.Row, scan: ScanSnapshot?),
    roots: Set<ByteKey>
  ) -> ScanDelta? {
    guard last.row.current, let previous = last.scan, snapshots.options.comparesWithLastScan,
      Set(previous.roots.map(ByteKey.init)) == roots
    else { return nil }
    return ScanDelta(files: files, previous: previous)
  }

  /// Records `files` by its difference from the last scan (`recordDelta`) and writes its
  /// snapshot, over the last one's when that is small.
  private func recordByDifference(
    _ files: ScanFiles, from last: (row: ScanSnapshotStore.Row, scan: ScanSnapshot?),
    delta: ScanDelta, completeRoots roots: Set<ByteKey>, time: Double
  ) throws(CairnError) -> Recorded {
    guard let previous = last.scan else { preconditionFailure("compared without a snapshot") }
    return try database.write { db in
      // The partition lock keeps other runs out; this guards against a bug, not a race.
      guard try ScanSnapshotStore.row(db) == last.row else {
        throw CairnError(.busy, "the state changed during this run; try again")
      }
      let (summary, next, listed) = try recordDelta(
        db, files: files, previous: previous, delta: delta, completeRoots: roots,
        lastScan: last.row.scannedAt, time: time)
      let written = try snapshots.patch(
        db, next, at: time, over: previous, sources: delta.sources(count: files.count))
      try ScanBinding.recordScan(db, written: written)
      if written == nil {
        // No snapshot to date the unchanged files: date them here.
        try db.execute(
          sql: """
            UPDATE observed SET lastSeen = ?
            WHERE checksum NOT IN (SELECT checksum FROM temp.absentChecksum)
            """, arguments: [time])
      }
      return Recorded(
        summary: summary,
        snapshots: ScanSnapshotStore.Recording(
          previous: last.row.key, listed: listed, written: written),
        changes: db.totalChangesCount)
    }
  }

  /// Records `files` whole (`recordWholeScan`) and, with `snapshotRoots`, writes its snapshot
  /// over those roots as a full file, first dating what the last one listed and this scan does
  /// not.
  private func recordWhole(
    _ files: ScanFiles, completeRoots: Set<String>, snapshotRoots: Set<String>?,
    last: (row: ScanSnapshotStore.Row, scan: ScanSnapshot?)?, time: Double
  ) throws(CairnError) -> Recorded {
    try snapshots.withScanTables(files) { db in
      let summary = try recordWholeScan(
        db, files: files, completeRoots: completeRoots,
        collectsAbsent: snapshotRoots != nil || !completeRoots.isEmpty, time: time)
      var recorded = Recorded(summary: summary, changes: 0)
      if let snapshotRoots {
        if let last, let previous = last.scan {
          try Self.retireLastSeen(db, previous: previous, at: last.row.scannedAt, except: files)
        }
        let absent = try String.fetchAll(db, sql: "SELECT checksum FROM temp.absentChecksum")
        let shared = try String.fetchAll(
          db, sql: "SELECT identity FROM temp.scanFile GROUP BY identity HAVING count(*) > 1")
        // (The whole comparison dated every scanned checksum: a failure to write it loses
        // nothing.)
        recorded.snapshots.written = try snapshots.record(
          db,
          ScanSnapshot.Contents(
            roots: snapshotRoots.sorted(), files: files, absent: absent,
            sharedIdentities: shared), at: time)
      }
      try ScanBinding.recordScan(db, written: recorded.snapshots.written)
      recorded.changes = db.totalChangesCount
      return recorded
    }
  }

  /// Dates the checksums of the last recorded scan (`previous`, recorded at `time`) that
  /// `files` does not list, before a new snapshot replaces the file that dated them. (Those
  /// it lists get the new scan's time.)
  private static func retireLastSeen(
    _ db: Database, previous: ScanSnapshot, at time: Double, except files: ScanFiles
  ) throws {
    let listed = Set(
      files.indices.map { index in
        ByteKey(files.withChecksum(index) { String(decoding: $0, as: UTF8.self) })
      })
    let date = try db.cachedStatement(
      sql: "UPDATE observed SET lastSeen = max(lastSeen, ?) WHERE checksum = ?")
    var done = Set<ByteKey>()
    for index in 0..<previous.count {
      let checksum = ByteKey(String(decoding: previous.bytes(index, 1), as: UTF8.self))
      guard !listed.contains(checksum), done.insert(checksum).inserted else { continue }
      try date.execute(arguments: [time, checksum.string])
    }
  }

  /// Records the whole scan, every comparison with the store a join with the scan tables.
  /// (The watcher's arrivals are recorded through it too, as a partial scan: `recordArrivals`.)
  func recordWholeScan(
    _ db: Database, files: ScanFiles, completeRoots: Set<String>, collectsAbsent: Bool,
    time: Double
  ) throws -> ScanRecordingSummary {
    var summary = ScanRecordingSummary()
    summary.files = files.count
    summary.newChecksums = try Self.observeScanned(db, time: time)
    if collectsAbsent { try ScanTable.collectAbsent(db) }
    for root in completeRoots.sorted() { try Self.dropStalePaths(db, under: root) }
    summary.retiredEdits = try updateAnchors(
      db, files: files, completeRoots: completeRoots, time: time)
    summary.reappeared = try Self.endSignalsOfScanned(db)
    return summary
  }

  /// Every checksum seen now: first seen is kept, last seen moves; every path seen now (a path
  /// already known is left as it is). Returns how many checksums are new.
  private static func observeScanned(_ db: Database, time: Double) throws -> Int {
    // In checksum order (the index's), so the observed b-tree is visited in order.
    try db.execute(
      sql: """
        INSERT INTO observed SELECT DISTINCT checksum, ?1, ?1 FROM temp.scanKey WHERE true
        ORDER BY checksum
        ON CONFLICT(checksum) DO UPDATE SET lastSeen = ?1
        """, arguments: [time])
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO observedPath SELECT DISTINCT checksum, root, path
        FROM temp.scanKey ORDER BY checksum, root, path
        """)
    return try Int.fetchOne(
      db, sql: "SELECT count(*) FROM observed WHERE firstSeen = ?", arguments: [time]) ?? 0
  }

  /// Under a complete root, a checksum seen now is where it is now, not where it was: its
  /// known paths under that root that this scan did not list are stale. (Paths inserted by
  /// `observeScanned` are all listed, so testing the table after the insert deletes exactly
  /// what was known before and not seen now, as a comparison with the pre-scan paths would.)
  private static func dropStalePaths(_ db: Database, under root: String) throws {
    // The root's stored paths are those of checksums in the scan, which include every path
    // listed there (inserted above), and those of checksums absent from it, which are kept.
    // When the counts add up, the first kind holds only listed paths: nothing is stale. The
    // common case, and three counts cost less than the comparison below.
    let stored =
      try Int.fetchOne(
        db, sql: "SELECT count(*) FROM observedPath WHERE root = ?", arguments: [root]) ?? 0
    let listed =
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM (SELECT DISTINCT checksum, path FROM temp.scanKey
          WHERE root = ?)
          """, arguments: [root]) ?? 0
    let keptAbsent =
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM observedPath WHERE root = ?
          AND checksum IN (SELECT checksum FROM temp.absentChecksum)
          """, arguments: [root]) ?? 0
    if stored == listed + keptAbsent { return }
    try db.execute(
      sql: """
        DELETE FROM observedPath WHERE root = ?1
        AND checksum IN (SELECT checksum FROM temp.scanKey WHERE root = ?1)
        AND NOT EXISTS (
          SELECT 1 FROM temp.scanKey AS s
          WHERE s.checksum = observedPath.checksum AND s.root = ?1
            AND s.path = observedPath.path)
        """, arguments: [root])
  }

  /// Back in the library: no longer missing, and an old signal must not fire later. Returns
  /// how many checksums came back.
  private static func endSignalsOfScanned(_ db: Database) throws -> Int {
    // (The `+` makes SQLite walk these small tables and look each checksum up in the scan,
    // not the other way round: a probe per scanned file.)
    let reappeared =
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM (SELECT checksum FROM missing UNION SELECT checksum FROM
          confirmation) WHERE +checksum IN (SELECT checksum FROM temp.scanKey)
          """) ?? 0
    try db.execute(
      sql: """
        DELETE FROM missing WHERE +checksum IN (SELECT checksum FROM temp.scanKey);
        DELETE FROM confirmation WHERE +checksum IN (SELECT checksum FROM temp.scanKey);
        """)
    return reappeared
  }

  /// Maintains edit anchors (see `recordScan`). Only files whose anchor would change are
  /// handled in Swift (`changingAnchors`); anchors absent from the scan are collected first
  /// (`absentAnchors`), for new identities to inherit and for the deletion at the end.
  private func updateAnchors(
    _ db: Database, files: ScanFiles, completeRoots: Set<String>, time: Double
  ) throws -> Int {
    let absent = try Self.absentAnchors(db)
    let (changing, anchors) = try Self.changingAnchors(db, files: files)
    let changes = try applyAnchorRules(
      db, files: files, changing: changing, stored: anchors, absent: absent, time: time)
    try Self.dropDeletedFilesAnchors(
      db, completeRoots: completeRoots, inherited: changes.inherited, time: time)
    try Self.forgetVersionsScanned(db)
    return changes.retired.count
  }

  /// Anchors whose file was not seen in this scan (kept in `temp.absentAnchor` for the
  /// deletion at the end, which then looks up these few instead of probing the scan for
  /// every anchor again): by current bytes, what a moved file's new identity inherits; by
  /// path, when those bytes are nowhere in the scan; and the originals of deleted edited
  /// files whose last bytes are back.
  private static func absentAnchors(_ db: Database) throws -> AbsentAnchors {
    try db.execute(
      sql: """
        CREATE TEMP TABLE IF NOT EXISTS absentAnchor (
          identity TEXT PRIMARY KEY NOT NULL, currentChecksum TEXT NOT NULL,
          firstChecksum TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL) WITHOUT ROWID;
        DELETE FROM temp.absentAnchor;
        INSERT INTO temp.absentAnchor
        SELECT identity, currentChecksum, firstChecksum, root, path FROM anchor
        WHERE identity NOT IN (SELECT identity FROM temp.scanFile);
        """)
    var absent = AbsentAnchors()
    let absentRows = try Row.fetchCursor(
      db,
      sql: """
        SELECT identity, currentChecksum, firstChecksum, path,
          currentChecksum IN (SELECT checksum FROM temp.scanKey)
        FROM temp.absentAnchor ORDER BY identity
        """)
    while let row = try absentRows.next() {
      let anchor = AbsentAnchor(identity: row[0], first: row[2], current: row[1])
      absent.byCurrent[anchor.current] = anchor
      let listed: Bool = row[4]
      if !listed { absent.atPath[ByteKey(row[3])] = anchor }
    }
    let restored = try Row.fetchCursor(
      db,
      sql: """
        SELECT lastChecksum, originalChecksum FROM deletedVersion
        WHERE lastChecksum IN (SELECT checksum FROM temp.scanKey)
        ORDER BY lastChecksum, originalChecksum
        """)
    while let row = try restored.next() { absent.restored[row[0]] = row[1] }
    return absent
  }

  /// The files whose anchor may change, in scan order, and the stored anchors of their
  /// identities. A file whose identity appears once in the scan and whose stored anchor
  /// already has its checksum, root and path is skipped by the rules without any effect, so
  /// SQLite leaves it out. (SQL compares bytes, Swift compares canonically equivalent strings
  /// as equal: SQL may select a file Swift then skips, never the reverse.) Files sharing an
  /// identity (hard links) are all selected, processed in scan order as before.
  private static func changingAnchors(_ db: Database, files: ScanFiles) throws -> (
    changing: [Int], anchors: [String: StoredAnchor]
  ) {
    var anchors: [String: StoredAnchor] = [:]
    var changing: [Int] = []
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT s.seq, a.firstChecksum, a.currentChecksum, a.root, a.path
        FROM temp.scanFile AS s LEFT JOIN anchor AS a ON a.identity = s.identity
        WHERE a.identity IS NULL OR a.currentChecksum != s.checksum OR a.root != s.root
          OR a.path != s.path
          OR s.identity IN (SELECT identity FROM temp.scanFile GROUP BY identity
            HAVING count(*) > 1)
        ORDER BY s.seq
        """)
    while let row = try rows.next() {
      let seq: Int = row[0]
      changing.append(seq)
      let identity = files[seq].identity.key
      if anchors[identity] == nil, let first: String = row[1] {
        anchors[identity] = StoredAnchor(first: first, current: row[2], root: row[3], path: row[4])
      }
    }
    return (changing, anchors)
  }

  /// Anchors of files absent from a complete root: the file was deleted, unless a new
  /// identity carried its anchor on (`inherited`). An edited file's deletion is remembered
  /// (`deletedVersion`). (Anchors written by the rules belong to files of this scan, so the
  /// absent ones are as they were collected.)
  private static func dropDeletedFilesAnchors(
    _ db: Database, completeRoots: Set<String>, inherited: Set<String>, time: Double
  ) throws {
    let arguments: StatementArguments = [
      JSONText.array(completeRoots.sorted()), JSONText.array(inherited.sorted()), time,
    ]
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO deletedVersion
        SELECT currentChecksum, firstChecksum, ?3 FROM temp.absentAnchor
        WHERE firstChecksum <> currentChecksum AND root IN (SELECT value FROM json_each(?1))
        AND identity NOT IN (SELECT value FROM json_each(?2))
        """, arguments: arguments)
    try db.execute(
      sql: """
        DELETE FROM anchor WHERE identity IN (SELECT identity FROM temp.absentAnchor)
        AND root IN (SELECT value FROM json_each(?))
        """, arguments: [JSONText.array(completeRoots.sorted())])
  }

  /// A version seen again is no longer a deleted file's: the file is back (and anchored again
  /// by the rules), or those bytes are kept elsewhere.
  private static func forgetVersionsScanned(_ db: Database) throws {
    try db.execute(
      sql: """
        DELETE FROM deletedVersion WHERE lastChecksum IN (SELECT checksum FROM temp.scanKey)
        OR originalChecksum IN (SELECT checksum FROM temp.scanKey)
        """)
  }
}

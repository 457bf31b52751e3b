import CairnCore
import Foundation
import GRDB

/// What recording a scan changed.
public struct ScanRecordingSummary: Sendable, Equatable {
  /// Files in the scan.
  public var files = 0
  /// Checksums never seen before.
  public var newChecksums = 0
  /// Checksums that were missing or signalled and are back.
  public var reappeared = 0
  /// Intermediate edit versions retired into quarantine.
  public var retiredEdits = 0
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
  /// `preloaded`: the snapshot read ahead, if the caller did.
  @discardableResult
  public func recordScan(
    _ files: ScanFiles, completeRoots: Set<String>, at now: Date,
    preloaded: ScanSnapshotPreload? = nil
  ) throws(CairnError) -> ScanRecordingSummary {
    let time = now.stateValue
    let roots = Set(completeRoots.map(ByteKey.init))
    let snapshotted = !roots.isEmpty && files.allRoots { roots.contains(ByteKey($0)) }
    let record = snapshotted ? try database.scanSnapshotRecord() : nil
    let previous = record.flatMap { preloaded?.scan(matching: $0) ?? database.storedScan($0) }
    database.recordedSnapshots.withLock { $0 = nil }
    let summary: ScanRecordingSummary
    var snapshots = RecordedSnapshots()
    if let record, record.current, let previous, usesScanSnapshot,
      Set(previous.roots.map(ByteKey.init)) == roots,
      let delta = ScanDelta(files: files, previous: previous)
    {
      (summary, snapshots) = try database.write { db in
        // The partition lock keeps other runs out; this guards against a bug, not a race.
        guard try StateDatabase.scanSnapshotRecord(db) == record else {
          throw CairnError(.busy, "the state changed during this run; try again")
        }
        let (summary, next, listed) = try recordDelta(
          db, files: files, previous: previous, delta: delta, completeRoots: roots,
          lastScan: record.scannedAt, time: time)
        let unchanged = (scan: previous, sources: delta.sources(count: files.count))
        let written = try database.saveScanSnapshot(db, next, at: time, over: unchanged)
        try ScanBinding.recordScan(db, written: written)
        if written == nil {
          // No snapshot to date the unchanged files: date them here.
          try db.execute(
            sql: """
              UPDATE observed SET lastSeen = ?
              WHERE checksum NOT IN (SELECT checksum FROM temp.absentChecksum)
              """, arguments: [time])
        }
        return (
          summary,
          RecordedSnapshots(
            previous: SnapshotKey(length: record.length, digest: record.digest),
            listed: listed, written: written)
        )
      }
      deltaRecordings.withLock { $0 += 1 }
    } else {
      (summary, snapshots) = try database.write(scan: files) { db in
        let summary = try recordWhole(db, files: files, completeRoots: completeRoots, time: time)
        var snapshots = RecordedSnapshots()
        if snapshotted {
          if let previous, let record {
            try StateDatabase.retireLastSeen(
              db, previous: previous, at: record.scannedAt,
              except: Set(
                files.indices.map { index in
                  ByteKey(files.withChecksum(index) { String(decoding: $0, as: UTF8.self) })
                }))
          }
          let absent = try String.fetchAll(db, sql: "SELECT checksum FROM temp.absentChecksum")
          let shared = try String.fetchAll(
            db, sql: "SELECT identity FROM temp.scanFile GROUP BY identity HAVING count(*) > 1")
          // (The whole comparison dated every scanned checksum: a failure to write it
          // loses nothing.)
          snapshots.written = try database.saveScanSnapshot(
            db,
            ScanSnapshot(
              roots: completeRoots.sorted(), files: files, absent: absent,
              sharedIdentities: shared), at: time)
        }
        try ScanBinding.recordScan(db, written: snapshots.written)
        return (summary, snapshots)
      }
    }
    database.recordedSnapshots.withLock { $0 = snapshots }
    // The engine's input, if it is loaded next, need not look for the absent checksums again.
    if !completeRoots.isEmpty { database.recordedScan.withLock { $0 = files } }
    return summary
  }

  /// Records the whole scan, every comparison with the store a join with the scan tables.
  private func recordWhole(
    _ db: Database, files: ScanFiles, completeRoots: Set<String>, time: Double
  ) throws -> ScanRecordingSummary {
    var summary = ScanRecordingSummary()
    summary.files = files.count

    // Every checksum seen now: first seen is kept, last seen moves. In checksum order (the
    // index's), so the observed b-tree is visited in order.
    try db.execute(
      sql: """
        INSERT INTO observed SELECT DISTINCT checksum, ?1, ?1 FROM temp.scanKey WHERE true
        ORDER BY checksum
        ON CONFLICT(checksum) DO UPDATE SET lastSeen = ?1
        """, arguments: [time])
    // Every path seen now (a path already known is left as it is).
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO observedPath SELECT DISTINCT checksum, root, path
        FROM temp.scanKey ORDER BY checksum, root, path
        """)
    summary.newChecksums =
      try Int.fetchOne(
        db, sql: "SELECT count(*) FROM observed WHERE firstSeen = ?", arguments: [time])
      ?? 0

    // Under a complete root, a checksum seen now is where it is now, not where it was: its
    // known paths under that root that this scan did not list are stale. (Paths inserted
    // just above are all listed, so testing the table after the insert deletes exactly what
    // was known before and not seen now, as a comparison with the pre-scan paths would.)
    if !completeRoots.isEmpty { try ScanTable.collectAbsent(db) }
    for root in completeRoots.sorted() {
      // The root's stored paths are those of checksums in the scan, which include every
      // path listed there (inserted above), and those of checksums absent from it, which are
      // kept. When the counts add up, the first kind holds only listed paths: nothing is
      // stale. The common case, and three counts cost less than the comparison below.
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
      if stored == listed + keptAbsent { continue }
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

    summary.retiredEdits = try updateAnchors(
      db, files: files, completeRoots: completeRoots, time: time)

    // Back in the library: no longer missing, and an old signal must not fire later. (The
    // `+` makes SQLite walk these small tables and look each checksum up in the scan, not
    // the other way round: a probe per scanned file.)
    summary.reappeared =
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
    return summary
  }

  /// Maintains edit anchors (see `recordScan`). Only files whose anchor would change are
  /// handled in Swift: a file whose identity appears once in the scan and whose stored anchor
  /// already has its checksum, root and path is skipped by the rule loop below without any
  /// effect, so SQLite leaves it out. (SQL compares bytes, Swift compares canonically
  /// equivalent strings as equal: SQL may select a file Swift then skips, never the reverse.)
  /// Files sharing an identity (hard links) are all selected, processed in scan order as before.
  private func updateAnchors(
    _ db: Database, files: ScanFiles, completeRoots: Set<String>, time: Double
  ) throws -> Int {
    // Anchors whose file was not seen in this scan, by current bytes: a moved file's new
    // identity inherits the original it had.
    // Kept in a temporary table for the deletion at the end, which then looks up these few
    // instead of probing the scan for every anchor again.
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

    let changes = try applyAnchorRules(
      db, files: files, changing: changing, stored: anchors, absent: absent, time: time)
    // Anchors of files absent from a complete root: the file was deleted, unless a new
    // identity carried its anchor on. (Anchors written above belong to files of this scan, so
    // the absent ones are as they were collected.)
    let arguments: StatementArguments = [
      JSONText.array(completeRoots.sorted()), JSONText.array(changes.inherited.sorted()), time,
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
    // A version seen again is no longer a deleted file's: the file is back (and anchored
    // again above), or those bytes are kept elsewhere.
    try db.execute(
      sql: """
        DELETE FROM deletedVersion WHERE lastChecksum IN (SELECT checksum FROM temp.scanKey)
        OR originalChecksum IN (SELECT checksum FROM temp.scanKey)
        """)
    return changes.retired.count
  }

  /// The anchor rules of `recordScan` for the files at `changing` (scan order), given the
  /// stored anchors of their identities and the anchors absent from the scan that a new
  /// identity may carry on.
  func applyAnchorRules(
    _ db: Database, files: ScanFiles, changing: [Int], stored: [String: StoredAnchor],
    absent: AbsentAnchors, time: Double
  ) throws -> AnchorChanges {
    var anchors = stored
    let update = try db.cachedStatement(
      sql: """
        UPDATE anchor SET currentChecksum = ?, root = ?, path = ?, updatedAt = ?
        WHERE identity = ?
        """)
    let insert = try db.cachedStatement(
      sql: "INSERT OR REPLACE INTO anchor VALUES (?, ?, ?, ?, ?, ?, ?)")
    let retire = try db.cachedStatement(
      sql: """
        INSERT INTO confirmation VALUES (?, ?, 'edit', ?) ON CONFLICT(checksum) DO NOTHING
        """)
    var changes = AnchorChanges()
    for seq in changing {
      let file = files[seq]
      let identity = file.identity.key
      if let anchor = anchors[identity] {
        guard
          anchor.current != file.checksum || anchor.path != file.path || anchor.root != file.root
        else { continue }
        if anchor.current != file.checksum && anchor.current != anchor.first {
          // An intermediate version was replaced: it retires through quarantine.
          try retire.execute(arguments: [anchor.current, time, anchor.path])
          changes.retired.append(anchor.current)
        }
        try update.execute(arguments: [file.checksum, file.root, file.path, time, identity])
        anchors[identity] = StoredAnchor(
          first: anchor.first, current: file.checksum, root: file.root, path: file.path)
      } else {
        let predecessor = absent.predecessor(of: file)
        let first = predecessor?.first ?? file.checksum
        if let predecessor {
          if let identity = predecessor.identity { changes.inherited.insert(identity) }
          if predecessor.current != predecessor.first && predecessor.current != file.checksum {
            // Rewritten at its path from an intermediate version: that version retires.
            try retire.execute(arguments: [predecessor.current, time, file.path])
            changes.retired.append(predecessor.current)
          }
        }
        try insert.execute(arguments: [
          identity, first, file.checksum, file.root, file.path, time, time,
        ])
        anchors[identity] = StoredAnchor(
          first: first, current: file.checksum, root: file.root, path: file.path)
      }
    }
    return changes
  }
}

/// An anchor as stored (see `recordScan`).
struct StoredAnchor: Equatable {
  var first: String
  var current: String
  var root: String
  var path: String
}

import GRDB

/// The state database's schema, one migration per change. Never edit a shipped migration: add
/// a new one. A database with a migration this build does not know was written by a newer
/// cairn and is refused rather than touched.
enum StateMigrations {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for step in steps { migrator.registerMigration(step.name, migrate: step.migrate) }
    return migrator
  }

  /// Every migration, in the order they shipped: a name GRDB records once it has run, and
  /// what it does.
  static let steps: [(name: String, migrate: @Sendable (Database) throws -> Void)] = [
    ("v1", v1),
    ("v2-drop-unused-indexes", v2DropUnusedIndexes),
    ("v3-scan-snapshot", v3ScanSnapshot),
    ("v4-edited-anchors", v4EditedAnchors),
    ("v5-scan-binding", v5ScanBinding),
    ("v6-path-anchors", v6PathAnchors),
    ("v7-watch-gaps", v7WatchGaps),
    ("v8-run-asset-fates", v8RunAssetFates),
    ("v9-watch-catch-up", v9WatchCatchUp),
    ("v10-passed-plan", v10PassedPlan),
    ("v11-unhashed-arrivals", v11UnhashedArrivals),
    ("v12-sighted-proposals", v12SightedProposals),
  ]

  private static func v1(_ db: Database) throws {
    // One row per checksum ever seen: the memory that makes "gone" meaningful.
    try db.execute(
      sql: """
        CREATE TABLE observed (
          checksum TEXT PRIMARY KEY NOT NULL,
          firstSeen REAL NOT NULL,
          lastSeen REAL NOT NULL
        ) WITHOUT ROWID;
        -- Where each checksum was last seen, per scanned root: its scope and its paths.
        CREATE TABLE observedPath (
          checksum TEXT NOT NULL REFERENCES observed(checksum) ON DELETE CASCADE,
          root TEXT NOT NULL,
          path TEXT NOT NULL,
          PRIMARY KEY (checksum, root, path)
        ) WITHOUT ROWID;
        CREATE INDEX observedPathByRoot ON observedPath(root, path);
        -- When a checksum was first found gone from a complete scan (first write wins).
        CREATE TABLE missing (
          checksum TEXT PRIMARY KEY NOT NULL,
          since REAL NOT NULL
        ) WITHOUT ROWID;
        -- Positive deletion signals: the file sat in a trash (first write wins).
        CREATE TABLE confirmation (
          checksum TEXT PRIMARY KEY NOT NULL,
          confirmedAt REAL NOT NULL,
          source TEXT NOT NULL,
          originalPath TEXT
        ) WITHOUT ROWID;
        -- First checksum per file identity (dev:ino), for edit semantics.
        CREATE TABLE anchor (
          identity TEXT PRIMARY KEY NOT NULL,
          firstChecksum TEXT NOT NULL,
          currentChecksum TEXT NOT NULL,
          root TEXT NOT NULL,
          path TEXT NOT NULL,
          createdAt REAL NOT NULL,
          updatedAt REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX anchorByCurrent ON anchor(currentChecksum);
        -- Checksums a person protected; they survive a reset of the observed store.
        CREATE TABLE exclusion (
          checksum TEXT PRIMARY KEY NOT NULL,
          reason TEXT NOT NULL,
          createdAt REAL NOT NULL
        ) WITHOUT ROWID;
        -- Pending items a person approved, valid for one plan.
        CREATE TABLE approval (
          assetId TEXT NOT NULL,
          checksum TEXT NOT NULL,
          plan TEXT NOT NULL,
          approvedAt REAL NOT NULL,
          PRIMARY KEY (plan, assetId)
        ) WITHOUT ROWID;
        CREATE TABLE run (
          id TEXT PRIMARY KEY NOT NULL,
          tool TEXT NOT NULL,
          startedAt REAL NOT NULL,
          finishedAt REAL,
          dryRun INTEGER NOT NULL,
          plan TEXT,
          counts TEXT NOT NULL DEFAULT '{}',
          status TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE meta (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL
        ) WITHOUT ROWID;
        """)
  }

  private static func v2DropUnusedIndexes(_ db: Database) throws {
    // Both were only ever read in full; at a million files they doubled the database.
    try db.execute(sql: "DROP INDEX observedPathByRoot; DROP INDEX anchorByCurrent")
  }

  private static func v3ScanSnapshot(_ db: Database) throws {
    // The scan snapshot file written with the last recorded scan of complete roots
    // (`ScanSnapshot`): its length and digest, the scan's time, and whether the store still
    // matches it. At most one row. Any change to the tables it describes clears `current`,
    // whoever makes it; `recordScan` writes a new row after its own changes. A row that is
    // no longer current still dates the file's checksums: they were seen at `scannedAt`.
    try db.execute(
      sql: """
        CREATE TABLE scanSnapshot (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          length INTEGER NOT NULL,
          digest INTEGER NOT NULL,
          scannedAt REAL NOT NULL,
          current INTEGER NOT NULL
        );
        """)
    // (Observed rows matter when added or removed; their times are not the snapshot's.)
    let changes = [
      ("observed", "INSERT"), ("observed", "DELETE"), ("observedPath", "INSERT"),
      ("observedPath", "UPDATE"), ("observedPath", "DELETE"), ("anchor", "INSERT"),
      ("anchor", "UPDATE"), ("anchor", "DELETE"),
    ]
    for (table, event) in changes {
      try db.execute(
        sql: """
          CREATE TRIGGER \(table)\(event.capitalized)EndsSnapshot AFTER \(event) ON \(table)
          BEGIN UPDATE scanSnapshot SET current = 0; END
          """)
    }
  }

  private static func v4EditedAnchors(_ db: Database) throws {
    // The anchors of edited files (first checksum no longer the current one), by first
    // checksum: right after a scan is recorded, only those can hold an absent checksum that
    // the engine must protect (see `anchorsForEngine`). Few rows, where a full index on a
    // million anchors would cost a scan of the table to find them.
    try db.execute(
      sql: """
        CREATE INDEX anchorEditedByFirst ON anchor(firstChecksum)
        WHERE firstChecksum <> currentChecksum
        """)
  }

  private static func v5ScanBinding(_ db: Database) throws {
    // The candidates `cairn-reconcile` proposed from the latest recorded scan (see
    // `ScanBinding`): the stage that acts trusts a candidate only when it is one of them.
    try db.execute(
      sql: """
        CREATE TABLE proposal (
          assetId TEXT PRIMARY KEY NOT NULL,
          checksum TEXT NOT NULL,
          bucket TEXT NOT NULL,
          livePhotoVideoId TEXT
        ) WITHOUT ROWID;
        """)
  }

  private static func v6PathAnchors(_ db: Database) throws {
    // The versions of edited files that were deleted: the last bytes and the original of
    // each. A deletion's positive signal (a trash holding the last bytes) then applies to the
    // original too (`DeletionSignalStore.confirmations`), which left alone would be gone at
    // once while the bytes the trash holds wait out the quarantine.
    try db.execute(
      sql: """
        CREATE TABLE deletedVersion (
          lastChecksum TEXT NOT NULL,
          originalChecksum TEXT NOT NULL,
          deletedAt REAL NOT NULL,
          PRIMARY KEY (lastChecksum, originalChecksum)
        ) WITHOUT ROWID;
        """)
  }

  private static func v7WatchGaps(_ db: Database) throws {
    // When `cairn-observe watch` was not watching a root (started, overflowed, unmounted,
    // root removed, watch limit): deletions in such a gap are never confirmed by it; the
    // scan finds them missing instead. Its deletions themselves are `confirmation` rows with
    // source `watcher`.
    try db.execute(
      sql: """
        CREATE TABLE watchGap (
          at REAL NOT NULL,
          reason TEXT NOT NULL,
          root TEXT NOT NULL
        );
        """)
  }

  private static func v8RunAssetFates(_ db: Database) throws {
    // What the server showed of assets cairn runs trashed, beyond the journal (`FateStore`):
    // restored or trashed again by someone else, or purged.
    try db.execute(
      sql: """
        CREATE TABLE runAssetFate (
          runId TEXT NOT NULL,
          assetId TEXT NOT NULL,
          lastSeen TEXT NOT NULL,
          since REAL NOT NULL,
          restoredElsewhereAt REAL,
          fileSeenAgainAt REAL,
          PRIMARY KEY (runId, assetId)
        ) WITHOUT ROWID;
        """)
  }

  private static func v9WatchCatchUp(_ db: Database) throws {
    // A gap's period runs from `since` (the last reconcile before it, for every cause but the
    // watcher's start) until the watcher walked its root again (caughtUpAt); it is closed
    // once a complete scan of the root came after that (closedAt); events counts the gap
    // events one catch-up answered.
    try db.execute(
      sql: """
        ALTER TABLE watchGap ADD COLUMN since REAL;
        ALTER TABLE watchGap ADD COLUMN caughtUpAt REAL;
        ALTER TABLE watchGap ADD COLUMN closedAt REAL;
        ALTER TABLE watchGap ADD COLUMN events INTEGER NOT NULL DEFAULT 1;
        """)
  }

  private static func v10PassedPlan(_ db: Database) throws {
    // The items of the plan `cairn-gate` last passed (`ScanBinding.recordGatePass`), so that
    // `cairn-trash` can take a filtered part of it; and the plans a person shaped on a review
    // page (`PlanShapes`), so that the page's command keeps working after its exclusions.
    try db.execute(
      sql: """
        CREATE TABLE passedPlan (
          assetId TEXT PRIMARY KEY NOT NULL,
          checksum TEXT NOT NULL,
          bucket TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE planShape (
          reviewed TEXT PRIMARY KEY NOT NULL,
          shaped TEXT NOT NULL,
          at REAL NOT NULL
        ) WITHOUT ROWID;
        """)
  }

  private static func v11UnhashedArrivals(_ db: Database) throws {
    // Media files `cairn-observe watch` saw arrive in the library but could not hash (gone
    // before it read them, unreadable, never still): what it saw of each (root, path, name,
    // size, modification and change times, nil where unknown), when, and why it could not,
    // so that a later stage can match them against the server by name, size and time.
    try db.execute(
      sql: """
        CREATE TABLE unhashedArrival (
          root TEXT NOT NULL,
          path TEXT NOT NULL,
          name TEXT NOT NULL,
          size INTEGER,
          modifiedAt REAL,
          changedAt REAL,
          seenAt REAL NOT NULL,
          reason TEXT NOT NULL
        );
        CREATE INDEX unhashedArrivalName ON unhashedArrival (name);
        """)
  }

  private static func v12SightedProposals(_ db: Database) throws {
    // Which proposals were matched to a file the watcher saw but never hashed (by name and
    // time, not by bytes): the stage that acts lets one go only with a person's approval,
    // whatever bucket a stream or a Live Photo's other half gives it.
    try db.execute(
      sql: "ALTER TABLE proposal ADD COLUMN sighted INTEGER NOT NULL DEFAULT 0")
  }
}

import CairnJSON
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import Foundation
import GRDB

#if canImport(GRDBSQLite)
  import GRDBSQLite
#else
  import SQLite3
#endif

/// The server's assets as the sync stream last described them, per (server URL, user id),
/// in SQLite under the partition's cache folder.
///
/// It holds every owned asset the stream sends (locked ones too; listing filters them). Its
/// `meta` table says which login's checkpoints it matches, which request type filled it and
/// which record schema its lines are in: when any changes the cache is dropped and the stream
/// restarts with `reset`.
///
/// Each row keeps, beside its columns, the asset's `asset` record line exactly as cairn-fetch
/// writes it, so a refresh emits the listing by copying bytes rather than decoding and
/// encoding every asset again (the cost that dominated an incremental refresh).
package final class AssetCache: Sendable {
  let queue: DatabaseQueue
  package let path: String

  package init(path: String) throws(CairnError) {
    self.path = path
    do {
      var configuration = GRDB.Configuration()
      configuration.busyMode = .timeout(5)
      queue = try DatabaseQueue(path: path, configuration: configuration)
      try Self.migrator.migrate(queue)
    } catch {
      throw CairnError(.stateFailure, "cannot open the server-asset cache: \(error)", at: path)
    }
    chmod(path, 0o600)
  }

  /// The cache of `partition`, creating its folder (0700) when needed.
  package static func open(_ paths: CairnPaths, _ partition: ServerPartition) throws(CairnError)
    -> AssetCache
  {
    try CairnPaths.makePrivateDirectory(paths.partitionCacheDirectory(partition))
    return try AssetCache(path: paths.serverAssetCache(partition))
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE asset (
            id TEXT PRIMARY KEY NOT NULL,
            ownerId TEXT NOT NULL,
            checksum TEXT NOT NULL,
            originalFileName TEXT NOT NULL,
            assetType TEXT NOT NULL,
            visibility TEXT NOT NULL,
            livePhotoVideoId TEXT,
            isTrashed INTEGER NOT NULL,
            fileCreatedAt TEXT
          ) WITHOUT ROWID;
          CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
          """)
    }
    migrator.registerMigration("v2 record lines") { db in
      // Rows from v1 have no line. Emptying the cache and its checkpoints makes the next
      // refresh a reset, which refills every row with its line: it is only a cache.
      try db.execute(
        sql: """
          DELETE FROM asset;
          DELETE FROM meta;
          ALTER TABLE asset ADD COLUMN line BLOB NOT NULL DEFAULT x'';
          CREATE INDEX assetSummary ON asset(ownerId, visibility, isTrashed);
          """)
    }
    migrator.registerMigration("v3 favourites and libraries") { db in
      // Lines cached before carry no `isFavorite` or `libraryId`: a favourite would read as
      // an ordinary photo. As for v2, the next refresh is made a reset that refills them.
      try db.execute(
        sql: """
          DELETE FROM asset;
          DELETE FROM meta;
          ALTER TABLE asset ADD COLUMN isFavorite INTEGER NOT NULL DEFAULT 0;
          ALTER TABLE asset ADD COLUMN libraryId TEXT;
          """)
    }
    return migrator
  }

  /// Values the cache remembers about itself: `loginId`, `syncType`, `ownerId`,
  /// `completedAt`, and `ack.<EntityType>` (the last checkpoint committed per type).
  package func meta(_ key: String) throws(CairnError) -> String? {
    try read { db in
      try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }
  }

  /// Empties the cache and records whose checkpoints it will now follow.
  package func reset(loginId: String, syncType: String, ownerId: String) throws(CairnError) {
    try write { db in
      try db.execute(sql: "DELETE FROM asset")
      try db.execute(sql: "DELETE FROM meta")
      let entries = [
        ("loginId", loginId), ("syncType", syncType), ("ownerId", ownerId),
        ("recordSchema", Schema.current),
      ]
      for (key, value) in entries {
        try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
      }
    }
  }

  /// Applies one batch of fully received lines in a single transaction.
  package func apply(_ batch: SyncBatch) throws(CairnError) {
    guard !batch.isEmpty else { return }
    try write { db in
      let delete = try db.cachedStatement(sql: "DELETE FROM asset WHERE id = ?")
      let upsert = try db.cachedStatement(
        sql: """
          INSERT OR REPLACE INTO asset
            (id, ownerId, checksum, originalFileName, assetType, visibility, livePhotoVideoId,
             isTrashed, fileCreatedAt, line, isFavorite, libraryId)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      for change in batch.changes {
        switch change {
        case .delete(let id):
          try delete.execute(arguments: [id])
        case .upsert(let a):
          try upsert.execute(arguments: [
            a.id, a.ownerId, a.checksum, a.originalFileName, a.assetType, a.visibility,
            a.livePhotoVideoId, a.isTrashed, a.fileCreatedAt?.iso8601, Data(a.jsonBytes()),
            a.isFavorite, a.libraryId,
          ])
        }
      }
      for (type, ack) in batch.acks {
        try db.execute(
          sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
          arguments: ["ack.\(type)", ack])
      }
      if batch.completed {
        try db.execute(
          sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('completedAt', ?)",
          arguments: [Date().iso8601])
      }
    }
  }

  /// Every cached asset, sorted by id.
  package func allAssets() throws(CairnError) -> [AssetRecord] {
    try read { db in
      var records: [AssetRecord] = []
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT id, ownerId, checksum, originalFileName, assetType, visibility,
                 livePhotoVideoId, isTrashed, fileCreatedAt, isFavorite, libraryId
          FROM asset ORDER BY id
          """)
      while let row = try rows.next() {
        let created: String? = row[8]
        records.append(
          AssetRecord(
            id: row[0], checksum: row[2], originalFileName: row[3], assetType: row[4],
            visibility: row[5], livePhotoVideoId: row[6], isTrashed: row[7], ownerId: row[1],
            fileCreatedAt: created.flatMap { Date(iso8601: $0) }, isFavorite: row[9],
            libraryId: row[10]))
      }
      return records
    }
  }

  /// What `ServerListing(filtering:ownerId:)` would count over `allAssets()`, counted in SQLite
  /// from the `assetSummary` index, which is a fraction of the rows' size with their lines.
  package func summary(ownerId: String) throws(CairnError) -> ListingSummary {
    try read { db in
      var summary = ListingSummary()
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT lower(ownerId) = ?, visibility, isTrashed, count(*)
          FROM asset GROUP BY 1, 2, 3
          """, arguments: [ownerId.lowercased()])
      while let row = try rows.next() {
        let owned: Bool = row[0]
        let visibility: String = row[1]
        let trashed: Bool = row[2]
        let count: Int = row[3]
        if !owned {
          summary.partnerSkipped += count
        } else if visibility == AssetVisibility.locked.rawValue {
          summary.lockedSkipped += count
        } else {
          summary.assets += count
          summary.perVisibility[visibility, default: 0] += count
          if trashed { summary.trashed += count }
        }
      }
      return summary
    }
  }

  /// Passes the stored record line of every asset `ownerId` owns and that is not locked,
  /// sorted by id — the assets and order of `ServerListing(filtering:ownerId:)`.
  package func forEachListedLine(
    ownerId: String, _ body: (UnsafeRawBufferPointer) -> Void
  ) throws(CairnError) {
    try read { db in
      // Cached, so the database keeps the statement alive while its raw handle is used.
      let statement = try db.cachedStatement(
        sql: """
          SELECT line FROM asset WHERE lower(ownerId) = ? AND visibility != ? ORDER BY id
          """)
      try statement.setArguments([ownerId.lowercased(), AssetVisibility.locked.rawValue])
      // Raw SQLite access: the line is handed over as the bytes SQLite holds, with no copy
      // into a Data or an array per row.
      let handle = statement.sqliteStatement
      defer { sqlite3_reset(handle) }
      while true {
        let step = sqlite3_step(handle)
        if step == SQLITE_DONE { break }
        guard step == SQLITE_ROW else {
          throw DatabaseError(
            resultCode: ResultCode(rawValue: step),
            message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        let count = Int(sqlite3_column_bytes(handle, 0))
        guard count > 0, let bytes = sqlite3_column_blob(handle, 0) else {
          throw DatabaseError(message: "an asset row without its record line")
        }
        body(UnsafeRawBufferPointer(start: bytes, count: count))
      }
    }
  }

  package func count() throws(CairnError) -> Int {
    try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM asset") ?? 0 }
  }

  private func read<T>(_ body: (Database) throws -> T) throws(CairnError) -> T {
    do {
      return try queue.read(body)
    } catch {
      throw CairnError(.stateFailure, "server-asset cache: \(error)", at: path)
    }
  }

  private func write<T>(_ body: (Database) throws -> T) throws(CairnError) -> T {
    do {
      return try queue.write(body)
    } catch {
      throw CairnError(.stateFailure, "server-asset cache: \(error)", at: path)
    }
  }
}

/// Changes received from the stream and not yet committed, with the acks they earn.
package struct SyncBatch: Sendable {
  package enum Change: Sendable {
    case upsert(AssetRecord)
    case delete(String)
  }

  package private(set) var changes: [Change] = []
  /// The last ack per entity type, in the order types first appeared.
  package private(set) var acks: [(String, String)] = []
  /// True once `SyncCompleteV1` is in the batch.
  package private(set) var completed = false

  package init() {}

  package var isEmpty: Bool { changes.isEmpty && acks.isEmpty && !completed }
  package var count: Int { changes.count }

  package mutating func add(_ change: Change, ack: String?) {
    changes.append(change)
    note(ack)
  }

  package mutating func complete(ack: String?) {
    completed = true
    note(ack)
  }

  /// Records an ack; `Type|…` replaces the type's earlier ack (the server keeps the last).
  package mutating func note(_ ack: String?) {
    guard let ack, let bar = ack.firstIndex(of: "|") else { return }
    let type = String(ack[..<bar])
    if let index = acks.firstIndex(where: { $0.0 == type }) {
      acks[index].1 = ack
    } else {
      acks.append((type, ack))
    }
  }
}

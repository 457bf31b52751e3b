import CairnEngine
import CairnRecords
import CairnSealedFiles
import CairnSettings
import CairnStream
import CairnSupport
import Foundation
import GRDB

/// The one door to the last recorded scan's snapshot: the files beside the database
/// (`scan-snapshot`, and `scan-snapshot-patch` over it), the `scanSnapshot` row that says
/// which file the store matches, and what this process remembers of its last recording.
///
/// - **load**: the snapshot the row names (or, read ahead before the store is open, the one
///   in the folder), and the row itself;
/// - **record**: the snapshot of a scan recorded whole, written as a full file;
/// - **patch**: the snapshot of a scan recorded by its difference from the last, written as a
///   patch over the last full file while that is small, as a full file otherwise;
/// - **invalidate**: marks the row stale (`invalidate(_:)`, as a snapshot that cannot be
///   written does), or forgets what this process remembers (`invalidate()`, see `Memory`);
///   `discard` also removes the files (a reset).
///
/// It is trusted only while the database says so: the row holds the length, digest and time of
/// the file recorded with the scan, and triggers mark it stale on any change to `observed`,
/// `observedPath` or `anchor` made by anything else (an import, a reset, a partial scan that
/// changed something, an older or newer code path). A file that is missing, damaged, of
/// another version or not the one the row names is ignored, and the scan is recorded the
/// whole way (`recordScan`'s full comparison), which writes a new one. A stale snapshot still
/// says when the checksums it lists were last seen.
///
/// The formats (`ScanSnapshotFormat.swift`, `ScanSnapshot.Patch`) are read and written only
/// through it. What a test needs to vary is passed in `Options` when the partition's store is
/// opened.
package final class ScanSnapshotStore: Sendable {
  /// What tests vary; the defaults are what every tool runs with.
  struct Options: Sendable {
    /// False records every scan whole, never by its difference from the last (tests compare
    /// both ways).
    var comparesWithLastScan = true
    /// When a snapshot is written as a patch.
    var patches = ScanSnapshot.Patch.Policy.whenSmall
    /// Makes writing a snapshot fail, as a full disk would.
    var writesFail = false

    init(
      comparesWithLastScan: Bool = true, patches: ScanSnapshot.Patch.Policy = .whenSmall,
      writesFail: Bool = false
    ) {
      self.comparesWithLastScan = comparesWithLastScan
      self.patches = patches
      self.writesFail = writesFail
    }
  }

  /// The `scanSnapshot` row (see `StateMigrations`).
  struct Row: Equatable {
    /// The file's length and digest.
    var length: Int
    var digest: UInt64
    /// When the scan it holds was recorded: every checksum it lists was seen then.
    var scannedAt: Double
    /// Whether the store still matches it, so that the next scan can be compared with it.
    var current: Bool

    var key: FileKey { FileKey(length: length, digest: digest) }
  }

  /// What this process remembers of its last recording, kept only while it is true.
  private struct Memory {
    /// The scan the `ScanTable` tables hold on the writing connection, once a write committed
    /// it.
    var scanTables: ScanFiles?
    /// The scan whose recording left `temp.absentChecksum` filled for it and every scanned
    /// checksum in the store, and the writing connection's count of changed rows when that
    /// committed: it holds while the connection has changed nothing since.
    var recordedScan: (files: ScanFiles, changes: Int)?
    /// What the last recording found and wrote (for carrying lookups over).
    var recording: ScanSnapshotStore.Recording?
  }

  let options: Options
  private let database: StateDatabase
  private let memory = Locked(Memory())
  /// The partition folder, where the files lie beside the database.
  let directory: String
  /// The full file, and the patch over it.
  var fullPath: String { directory + "/" + ScanSnapshot.fileName }
  var patchPath: String { directory + "/" + ScanSnapshot.Patch.fileName }

  init(_ database: StateDatabase, options: Options) {
    self.database = database
    self.options = options
    directory = (database.path as NSString).deletingLastPathComponent
  }

  // MARK: load

  /// The row, inside a transaction.
  static func row(_ db: Database) throws -> Row? {
    guard
      let row = try GRDB.Row.fetchOne(
        db, sql: "SELECT length, digest, scannedAt, current FROM scanSnapshot")
    else { return nil }
    let digest: Int64 = row[1]
    return Row(
      length: row[0], digest: UInt64(bitPattern: digest), scannedAt: row[2], current: row[3])
  }

  /// The row, outside a transaction.
  func row() throws(CairnError) -> Row? {
    try database.read { db in try Self.row(db) }
  }

  /// The snapshot `row` describes (the one read ahead when it is that file), or nil when it
  /// is missing or not that file.
  func load(_ row: Row, readAhead: ScanSnapshotPreload? = nil) -> ScanSnapshot? {
    if let scan = readAhead?.scan, scan.length == row.length, scan.digest == row.digest {
      return scan
    }
    return ScanSnapshot.load(directory: directory, naming: (length: row.length, digest: row.digest))
  }

  /// The last recorded scan and when it was recorded, when its file is intact: the last-seen
  /// time of every checksum it lists (`observed.lastSeen` is not rewritten for those).
  func loadLatest() throws(CairnError) -> (time: Date, scan: ScanSnapshot)? {
    guard let row = try row(), let scan = load(row) else { return nil }
    return (Date(stateValue: row.scannedAt), scan)
  }

  /// The snapshot in `directory`, read before the store is opened (see
  /// `ScanSnapshotPreload`).
  static func readAhead(directory: String) -> ScanSnapshotPreload {
    ScanSnapshotPreload(scan: ScanSnapshot.load(directory: directory))
  }

  // MARK: record and patch

  /// Writes the snapshot of a scan recorded whole, at `time`, as a full file, and names it in
  /// the row (see `write`).
  func record(_ db: Database, _ snapshot: ScanSnapshot.Contents, at time: Double) throws
    -> ScanSnapshotStore.FileKey?
  {
    try write(db, at: time) {
      let written = try snapshot.write(to: fullPath)
      // A patch names the full file it was made over, which is gone: this only tidies.
      unlink(patchPath)
      return written
    }
  }

  /// Writes the snapshot of a scan recorded by its difference from `previous`, at `time`: as
  /// a patch over `previous`'s full file when that is small (`ScanSnapshot.Patch`; `sources`
  /// as it takes them), as a full file otherwise; and names it in the row (see `write`).
  func patch(
    _ db: Database, _ snapshot: ScanSnapshot.Contents, at time: Double, over previous: ScanSnapshot,
    sources: [Int32]
  ) throws -> ScanSnapshotStore.FileKey? {
    let patch = ScanSnapshot.Patch(
      snapshot, over: previous, sources: sources, policy: options.patches)
    guard let patch else { return try record(db, snapshot, at: time) }
    return try write(db, at: time) { try patch.write(to: patchPath) }
  }

  /// Writes a file with `writeFile` and records it as the one the store matches, in the
  /// transaction that made the store match it. The file is written first and replaced whole
  /// (rename): should the transaction not commit, the row still names the old file's digest,
  /// which the new file does not have, or the old patch, which named the full file now
  /// replaced, and the next scan is recorded the whole way. (A new patch left by a
  /// transaction that did not commit is not the file the row names, and the full file under
  /// it is unchanged.) No fsync either: a file lost or torn by a power cut fails the same
  /// checks.
  ///
  /// Returns the file the row now names; nil when the file cannot be written (a full disk):
  /// the row then still describes the old file, no longer current, and the caller must write
  /// the last-seen times the new one would have given.
  private func write(
    _ db: Database, at time: Double, _ writeFile: () throws -> (length: Int, digest: UInt64)
  ) throws -> ScanSnapshotStore.FileKey? {
    do {
      guard !options.writesFail else { throw ScanSnapshot.TooBig() }
      let written = try writeFile()
      try db.execute(
        sql: "INSERT OR REPLACE INTO scanSnapshot VALUES (1, ?, ?, ?, 1)",
        arguments: [written.length, Int64(bitPattern: written.digest), time])
      return ScanSnapshotStore.FileKey(length: written.length, digest: written.digest)
    } catch is CairnError, is ScanSnapshot.TooBig {
      try invalidate(db)
      return nil
    }
  }

  // MARK: what this process remembers

  /// Notes what a committed recording of `files` found and wrote; `changes`: the writing
  /// connection's count of changed rows at its end. `files` is nil when the recording left
  /// no absent checksums collected (a scan of no complete root).
  func remember(_ recording: ScanSnapshotStore.Recording, files: ScanFiles?, changes: Int) {
    memory.withLock { memory in
      memory.recording = recording
      memory.recordedScan = files.map { ($0, changes) }
    }
  }

  /// What the last recording of this process found and wrote; nil before one, or after
  /// `invalidate`.
  var lastRecording: ScanSnapshotStore.Recording? { memory.withLock { $0.recording } }

  /// Whether `files` is the scan this process recorded last, with nothing written on the
  /// writing connection since: the store then holds every scanned checksum, and
  /// `temp.absentChecksum` holds the absent ones. Asked of SQLite (its count of changed rows),
  /// not of every writer's care to say so.
  func justRecorded(_ files: ScanFiles) throws(CairnError) -> Bool {
    guard let recorded = memory.withLock({ $0.recordedScan }), recorded.files == files else {
      return false
    }
    return try database.withWriter { db in db.totalChangesCount == recorded.changes }
  }

  /// Runs `body` in a write transaction with `files` in the scan tables (see `ScanTable`). A
  /// scan already loaded by an earlier committed write of this process is not loaded again.
  func withScanTables<T>(_ files: ScanFiles, _ body: (Database) throws -> T) throws(CairnError)
    -> T
  {
    // The same array compares in constant time (same buffer); another one element by element.
    let loaded = memory.withLock { memory in
      defer { memory.scanTables = nil }  // until this write commits, the tables are in doubt
      return memory.scanTables == files
    }
    let result = try database.write { db in
      if !loaded { try ScanTable.fill(db, with: files) }
      return try body(db)
    }
    memory.withLock { $0.scanTables = files }
    return result
  }

  // MARK: invalidate

  /// Marks the row stale: the store no longer matches the snapshot, and the next scan is
  /// recorded whole. (Triggers do the same for changes made by anything else.)
  func invalidate(_ db: Database) throws {
    try db.execute(sql: "UPDATE scanSnapshot SET current = 0")
  }

  /// Forgets what this process remembers of its last recording (the scan tables' content
  /// stays known: only `withScanTables` changes them).
  func invalidate() {
    memory.withLock { memory in
      memory.recordedScan = nil
      memory.recording = nil
    }
  }

  /// Removes the files, after a reset deleted the row (the database no longer matches them
  /// anyway).
  func discard() {
    invalidate()
    unlink(fullPath)
    unlink(patchPath)
  }
}

/// The last scan's snapshot read ahead of recording (on another core, while the new scan is
/// still being read): recording uses it when it is the very file the database names, and
/// reads the file again otherwise (another run may have replaced it in between; it holds the
/// partition's lock only once it opens the store).
package struct ScanSnapshotPreload: Sendable {
  let scan: ScanSnapshot?

  package static func read(_ partition: ServerPartition, paths: CairnPaths)
    -> ScanSnapshotPreload
  {
    ScanSnapshotStore.readAhead(directory: paths.partitionDirectory(partition))
  }
}

extension ScanSnapshotStore {
  /// A scan snapshot file as the database names it: its length and digest.
  package struct FileKey: Equatable, Sendable {
    package var length: Int
    package var digest: UInt64

    package init(length: Int, digest: UInt64) {
      self.length = length
      self.digest = digest
    }
  }

  /// What the last `recordScan` found and wrote, for carrying lookups over (`PresenceCache`).
  package struct Recording: Sendable {
    /// The snapshot the scan was compared with file by file; nil when it was recorded whole.
    package var previous: FileKey?
    /// Whether the scan lists each checksum whose presence may differ from that snapshot's
    /// scan (those of the files that changed, appeared or went), and some more.
    package var listed: [ByteKey: Bool] = [:]
    /// The snapshot written for this scan; nil when none was.
    package var written: FileKey?
  }
}

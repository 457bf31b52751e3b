import CairnCore
import Foundation
import GRDB

/// The `scanSnapshot` row (see `StateMigrations` and `ScanSnapshot`).
struct ScanSnapshotRecord: Equatable {
  /// The file's length and digest.
  var length: Int
  var digest: UInt64
  /// When the scan it holds was recorded: every checksum it lists was seen then.
  var scannedAt: Double
  /// Whether the store still matches it, so that the next scan can be compared with it.
  var current: Bool
}

/// The last scan's snapshot read ahead of recording (on another core, while the new scan is
/// still being read): recording uses it when it is the very file the database names, and
/// reads the file again otherwise (another run may have replaced it in between; it holds the
/// partition's lock only once it opens the store).
public struct ScanSnapshotPreload: Sendable {
  let scan: StoredScan?

  public static func read(_ partition: ServerPartition, paths: CairnPaths)
    -> ScanSnapshotPreload
  {
    ScanSnapshotPreload(scan: StoredScan.load(directory: paths.partitionDirectory(partition)))
  }

  /// The scan read ahead, when it is the file `record` describes.
  func scan(matching record: ScanSnapshotRecord) -> StoredScan? {
    guard let scan, scan.length == record.length, scan.digest == record.digest else {
      return nil
    }
    return scan
  }
}

/// Where the scan snapshot lives and how it is matched with the database.
extension StateDatabase {
  static func scanSnapshotRecord(_ db: Database) throws -> ScanSnapshotRecord? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT length, digest, scannedAt, current FROM scanSnapshot")
    else { return nil }
    let digest: Int64 = row[1]
    return ScanSnapshotRecord(
      length: row[0], digest: UInt64(bitPattern: digest), scannedAt: row[2], current: row[3])
  }

  /// The row, outside a transaction.
  func scanSnapshotRecord() throws(CairnError) -> ScanSnapshotRecord? {
    try read { db in try Self.scanSnapshotRecord(db) }
  }

  /// The snapshot `record` describes, or nil when it is missing or not that file.
  func storedScan(_ record: ScanSnapshotRecord) -> StoredScan? {
    StoredScan.load(
      directory: scanSnapshotDirectory, naming: (length: record.length, digest: record.digest))
  }

  /// The last recorded scan and when it was recorded, when its file is intact: the last-seen
  /// time of every checksum it lists (`observed.lastSeen` is not rewritten for those).
  func lastScan() throws(CairnError) -> (time: Date, scan: StoredScan)? {
    guard let record = try scanSnapshotRecord(), let scan = storedScan(record) else {
      return nil
    }
    return (Date(stateValue: record.scannedAt), scan)
  }

  /// Writes `snapshot`, recorded at `time`, and records it as the one the store matches, in
  /// the transaction that made the store match it: as a patch over the full file under
  /// `previous` when that is small (`ScanSnapshotPatch`; `sources` as it takes them), as a
  /// full file otherwise. The file is written first and replaced whole (rename): should the
  /// transaction not commit, the row still names the old file's digest, which the new file
  /// does not have, or the old patch, which named the full file now replaced, and the next
  /// scan is recorded the whole way. (A new patch left by a transaction that did not commit
  /// is not the file the row names, and the full file under it is unchanged.) No fsync
  /// either: a file lost or torn by a power cut fails the same checks.
  ///
  /// Returns the file the row now names; nil when the file cannot be written (a full disk):
  /// the row then still describes the old file, no longer current, and the caller must write
  /// the last-seen times the new one would have given.
  func saveScanSnapshot(
    _ db: Database, _ snapshot: ScanSnapshot, at time: Double,
    over previous: (scan: StoredScan, sources: [Int32])? = nil
  ) throws -> SnapshotKey? {
    do {
      guard !scanSnapshotWritesFail.current else { throw ScanSnapshot.TooBig() }
      let patch = previous.flatMap {
        ScanSnapshotPatch(
          snapshot, over: $0.scan, sources: $0.sources, policy: scanSnapshotPatches.current)
      }
      let written: (length: Int, digest: UInt64)
      if let patch {
        written = try patch.write(to: scanSnapshotPatchPath)
      } else {
        written = try snapshot.write(to: scanSnapshotPath)
        // A patch names the full file it was made over, which is gone: this only tidies.
        unlink(scanSnapshotPatchPath)
      }
      try db.execute(
        sql: "INSERT OR REPLACE INTO scanSnapshot VALUES (1, ?, ?, ?, 1)",
        arguments: [written.length, Int64(bitPattern: written.digest), time])
      return SnapshotKey(length: written.length, digest: written.digest)
    } catch is CairnError, is ScanSnapshot.TooBig {
      try db.execute(sql: "UPDATE scanSnapshot SET current = 0")
      return nil
    }
  }

  /// Dates the checksums of the last recorded scan (`previous`, recorded at `time`) that the
  /// scan being recorded does not list, before a new snapshot replaces the file that dated
  /// them. (Those it lists get the new scan's time.)
  static func retireLastSeen(
    _ db: Database, previous: StoredScan, at time: Double, except listed: Set<ByteKey>
  ) throws {
    let date = try db.cachedStatement(
      sql: "UPDATE observed SET lastSeen = max(lastSeen, ?) WHERE checksum = ?")
    var done = Set<ByteKey>()
    for index in 0..<previous.count {
      let checksum = ByteKey(String(decoding: previous.bytes(index, 1), as: UTF8.self))
      guard !listed.contains(checksum), done.insert(checksum).inserted else { continue }
      try date.execute(arguments: [time, checksum.string])
    }
  }
}

extension StoredScan {
  /// Whether a file of the scan has `checksum`.
  func lists(checksum: String) -> Bool {
    checksum.withBytes { key in (0..<count).contains { bytes($0, 1).sameBytes(as: key) } }
  }

  /// The checksums of the scan's files.
  func checksums() -> Set<ByteKey> {
    Set((0..<count).map { ByteKey(String(decoding: bytes($0, 1), as: UTF8.self)) })
  }
}

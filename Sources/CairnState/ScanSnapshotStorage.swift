import CairnCore
import Foundation
import GRDB

/// Where the scan snapshot lives and how it is matched with the database (see `ScanSnapshot`).
extension PartitionStore {
  /// The `scanSnapshot` row: the length and digest of the snapshot the store matches.
  struct ScanSnapshotRecord: Equatable {
    var length: Int
    var digest: UInt64
  }

  var scanSnapshotPath: String { database.scanSnapshotPath }

  static func scanSnapshotRecord(_ db: Database) throws -> ScanSnapshotRecord? {
    guard let row = try Row.fetchOne(db, sql: "SELECT length, digest FROM scanSnapshot") else {
      return nil
    }
    let digest: Int64 = row[1]
    return ScanSnapshotRecord(length: row[0], digest: UInt64(bitPattern: digest))
  }

  /// The snapshot the store matches, or nil when there is none that can be trusted.
  func loadScanSnapshot() throws(CairnError) -> StoredScan? {
    guard let record = try database.read({ db in try Self.scanSnapshotRecord(db) }),
      let stored = StoredScan.load(scanSnapshotPath),
      ScanSnapshotRecord(length: stored.length, digest: stored.digest) == record
    else { return nil }
    return stored
  }

  /// Writes `snapshot` and records it as the one the store matches, in the transaction that
  /// made the store match it. The file is written first and replaced whole (rename): should
  /// the transaction not commit, the row still names the old file's digest, which the new
  /// file does not have, and the next scan is recorded the whole way. No fsync either: a file
  /// lost or torn by a power cut fails the same check. A file that cannot be written (a full
  /// disk) costs the next run its shortcut, not this run its recording.
  func saveScanSnapshot(_ db: Database, _ snapshot: ScanSnapshot) throws {
    do {
      guard let bytes = snapshot.encoded() else { throw CairnError(.stateFailure, "too big") }
      try CairnPaths.writePrivateFile(scanSnapshotPath, bytes, durable: false)
      try db.execute(
        sql: "INSERT OR REPLACE INTO scanSnapshot VALUES (1, ?, ?)",
        arguments: [bytes.count, Int64(bitPattern: ScanSnapshot.digest(bytes))])
    } catch is CairnError {
      try db.execute(sql: "DELETE FROM scanSnapshot")
    }
  }
}

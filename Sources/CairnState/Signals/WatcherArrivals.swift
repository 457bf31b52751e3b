import CairnEngine
import CairnRecords
import CairnStream
import Foundation
import GRDB

/// A media file `cairn-observe watch` saw arrive in the library (closed after writing, or
/// renamed into place) and could not hash: gone before it was read, unreadable, or never
/// still. What was seen of it is kept (`unhashedArrival`), so that cairn-reconcile can match
/// it against the server by name and time (`UnhashedSightings.swift`): a match waits for a
/// person, never trashed on cairn's judgement.
package struct UnhashedArrival: Sendable, Equatable {
  package var root: String
  package var path: String
  package var name: String
  /// What `lstat` said when the arrival was seen (nil where it said nothing: already gone).
  package var size: Int64?
  package var modifiedAt: Date?
  package var changedAt: Date?
  package var seenAt: Date
  /// Why it could not be hashed (`ENOENT`, `EACCES`, `EAGAIN`, ...).
  package var reason: String

  package init(
    root: String, path: String, name: String, size: Int64?, modifiedAt: Date?,
    changedAt: Date?, seenAt: Date, reason: String
  ) {
    self.root = root
    self.path = path
    self.name = name
    self.size = size
    self.modifiedAt = modifiedAt
    self.changedAt = changedAt
    self.seenAt = seenAt
    self.reason = reason
  }
}

extension PartitionStore {
  /// Records the files the watcher saw arrive and hashed, exactly as a partial scan records
  /// its files (`recordWholeScan` with no complete root: observations, paths, edit anchors,
  /// the end of the signals of a checksum back in the library), so that a photo deleted
  /// before any scan saw it is one cairn knew. Unlike a scan it leaves the scan binding alone
  /// (a plan computed before an arrival stays valid: an arrival only adds), and writes no
  /// snapshot (the triggers mark the last one stale, so the next scan is compared whole).
  /// The files it could not hash are kept as seen. One transaction; returns how many
  /// checksums were new.
  @discardableResult
  package func recordArrivals(
    _ files: [ScannedFile], unhashed: [UnhashedArrival] = [], at now: Date
  ) throws(CairnError) -> Int {
    var added = 0
    if !files.isEmpty {
      snapshots.invalidate()
      let scan = ScanFiles(files)
      added = try snapshots.withScanTables(scan) { db in
        try recordWholeScan(
          db, files: scan, completeRoots: [], collectsAbsent: false, time: now.stateValue
        ).newChecksums
      }
    }
    guard !unhashed.isEmpty else { return added }
    try database.write { db in
      let insert = try db.cachedStatement(
        sql: """
          INSERT INTO unhashedArrival
          (root, path, name, size, modifiedAt, changedAt, seenAt, reason)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """)
      for file in unhashed {
        try insert.execute(arguments: [
          file.root, file.path, file.name, file.size, file.modifiedAt?.stateValue,
          file.changedAt?.stateValue, file.seenAt.stateValue, file.reason,
        ])
      }
    }
    return added
  }

  /// The arrivals the watcher could not hash, oldest first.
  package func unhashedArrivals() throws(CairnError) -> [UnhashedArrival] {
    try database.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT root, path, name, size, modifiedAt, changedAt, seenAt, reason
          FROM unhashedArrival ORDER BY seenAt, rowid
          """
      ).map {
        UnhashedArrival(
          root: $0[0], path: $0[1], name: $0[2], size: $0[3],
          modifiedAt: ($0[4] as Double?).map(Date.init(stateValue:)),
          changedAt: ($0[5] as Double?).map(Date.init(stateValue:)),
          seenAt: Date(stateValue: $0[6]), reason: $0[7])
      }
    }
  }
}

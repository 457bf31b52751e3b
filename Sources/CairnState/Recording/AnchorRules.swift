import CairnEngine
import CairnRecords
import Foundation
import GRDB

// The anchor rules (see `recordScan`): an anchor follows its identity's file across edits and
// renames, and a new identity carries on the anchor a replaced file left behind.

extension PartitionStore {
  /// The anchor rules of `recordScan` for the files at `changing` (scan order), given the
  /// stored anchors of their identities and the anchors absent from the scan that a new
  /// identity may carry on.
  func applyAnchorRules(
    _ db: Database, files: ScanFiles, changing: [Int], stored: [String: StoredAnchor],
    absent: AbsentAnchors, time: Double
  ) throws -> AnchorChanges {
    var anchors = stored
    let rules = try AnchorRules(db, time: time)
    var changes = AnchorChanges()
    for seq in changing {
      let file = files[seq]
      let identity = file.identity.key
      if let anchor = anchors[identity] {
        guard
          anchor.current != file.checksum || anchor.path != file.path || anchor.root != file.root
        else { continue }
        anchors[identity] = try rules.follow(anchor, to: file, changes: &changes)
      } else {
        anchors[identity] = try rules.anchor(
          file, after: absent.predecessor(of: file), changes: &changes)
      }
    }
    return changes
  }
}

/// The anchor rules' two cases, as statements on the writing connection (see `recordScan`).
private struct AnchorRules {
  let update: Statement
  let insert: Statement
  let retire: Statement
  let time: Double

  init(_ db: Database, time: Double) throws {
    update = try db.cachedStatement(
      sql: """
        UPDATE anchor SET currentChecksum = ?, root = ?, path = ?, updatedAt = ?
        WHERE identity = ?
        """)
    insert = try db.cachedStatement(
      sql: "INSERT OR REPLACE INTO anchor VALUES (?, ?, ?, ?, ?, ?, ?)")
    retire = try db.cachedStatement(
      sql: """
        INSERT INTO confirmation VALUES (?, ?, 'edit', ?) ON CONFLICT(checksum) DO NOTHING
        """)
    self.time = time
  }

  /// An anchored identity's file changed: the anchor follows it, and an intermediate version
  /// it replaced retires through quarantine.
  func follow(_ anchor: StoredAnchor, to file: ScannedFile, changes: inout AnchorChanges)
    throws -> StoredAnchor
  {
    if anchor.current != file.checksum && anchor.current != anchor.first {
      try retire.execute(arguments: [anchor.current, time, anchor.path])
      changes.retired.append(anchor.current)
    }
    try update.execute(
      arguments: [file.checksum, file.root, file.path, time, file.identity.key])
    return StoredAnchor(
      first: anchor.first, current: file.checksum, root: file.root, path: file.path)
  }

  /// A new identity: anchored at its own bytes, or at the original of the absent anchor it
  /// carries on (`predecessor`), whose intermediate version retires when the file was
  /// rewritten at its path from it.
  func anchor(
    _ file: ScannedFile, after predecessor: AbsentAnchor?, changes: inout AnchorChanges
  ) throws -> StoredAnchor {
    let first = predecessor?.first ?? file.checksum
    if let predecessor {
      if let identity = predecessor.identity { changes.inherited.insert(identity) }
      if predecessor.current != predecessor.first && predecessor.current != file.checksum {
        try retire.execute(arguments: [predecessor.current, time, file.path])
        changes.retired.append(predecessor.current)
      }
    }
    try insert.execute(arguments: [
      file.identity.key, first, file.checksum, file.root, file.path, time, time,
    ])
    return StoredAnchor(first: first, current: file.checksum, root: file.root, path: file.path)
  }
}

/// An anchor as stored (see `recordScan`).
struct StoredAnchor: Equatable {
  var first: String
  var current: String
  var root: String
  var path: String
}

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
  ///   identity whose bytes equal the current bytes of an identity absent from this scan
  ///   inherits that anchor (a move across file systems). Anchors of identities absent from a
  ///   complete root are dropped: the file was deleted, and its original is no longer protected.
  @discardableResult
  public func recordScan(_ files: [ScannedFile], completeRoots: Set<String>, at now: Date)
    throws(CairnError) -> ScanRecordingSummary
  {
    try database.write { db in
      var summary = ScanRecordingSummary()
      summary.files = files.count
      let time = now.stateValue
      let roots = Set(files.map(\.root)).union(completeRoots)

      // Existing paths per root, to write only what changed.
      var known: [String: Set<PathKey>] = [:]
      for root in roots {
        var set = Set<PathKey>()
        let rows = try Row.fetchCursor(
          db, sql: "SELECT checksum, path FROM observedPath WHERE root = ?", arguments: [root])
        while let row = try rows.next() { set.insert(PathKey(checksum: row[0], path: row[1])) }
        known[root] = set
      }

      // Paths seen now that were known, per root: when every known path was seen again, a
      // complete root has nothing stale and the set of current paths is never built.
      var knownSeen: [String: Int] = [:]
      var seenChecksums = Set<String>()
      seenChecksums.reserveCapacity(files.count)
      var distinct: [String] = []
      distinct.reserveCapacity(files.count)
      let insertPath = try db.cachedStatement(
        sql: "INSERT OR IGNORE INTO observedPath VALUES (?, ?, ?)")
      var newPaths: [(String, String, String)] = []
      for file in files {
        if seenChecksums.insert(file.checksum).inserted { distinct.append(file.checksum) }
        let key = PathKey(checksum: file.checksum, path: file.path)
        if known[file.root]?.contains(key) == true {
          knownSeen[file.root, default: 0] += 1
        } else {
          newPaths.append((file.checksum, file.root, file.path))
        }
      }
      // One statement for every checksum: a million executions from Swift would cost seconds,
      // json_each walks the array inside SQLite; sorted, the b-tree is visited in order.
      try db.execute(
        sql: """
          INSERT INTO observed SELECT value, ?1, ?1 FROM json_each(?2) WHERE true
          ON CONFLICT(checksum) DO UPDATE SET lastSeen = ?1
          """, arguments: [time, Self.jsonArray(distinct.sorted())])
      for (checksum, root, path) in newPaths {
        try insertPath.execute(arguments: [checksum, root, path])
      }
      summary.newChecksums =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM observed WHERE firstSeen = ?", arguments: [time])
        ?? 0

      // Under a complete root, a checksum seen now is where it is now, not where it was.
      let deletePath = try db.cachedStatement(
        sql: "DELETE FROM observedPath WHERE checksum = ? AND root = ? AND path = ?")
      for root in completeRoots {
        let before = known[root] ?? []
        // (A record listed twice could hide a stale path here: it would only stay listed.)
        if knownSeen[root, default: 0] == before.count && before.count > 0 { continue }
        let current = Set(
          files.lazy.filter { $0.root == root }.map {
            PathKey(checksum: $0.checksum, path: $0.path)
          })
        let currentChecksums = Set(current.map(\.checksum))
        for stale in before where !current.contains(stale) {
          guard currentChecksums.contains(stale.checksum) else { continue }
          try deletePath.execute(arguments: [stale.checksum, root, stale.path])
        }
      }

      summary.retiredEdits = try updateAnchors(
        db, files: files, completeRoots: completeRoots, time: time)

      // Back in the library: no longer missing, and an old signal must not fire later.
      let missing = try String.fetchAll(db, sql: "SELECT checksum FROM missing")
      let confirmed = try String.fetchAll(db, sql: "SELECT checksum FROM confirmation")
      var back = Set<String>()
      for checksum in missing where seenChecksums.contains(checksum) {
        try db.execute(sql: "DELETE FROM missing WHERE checksum = ?", arguments: [checksum])
        back.insert(checksum)
      }
      for checksum in confirmed where seenChecksums.contains(checksum) {
        try db.execute(sql: "DELETE FROM confirmation WHERE checksum = ?", arguments: [checksum])
        back.insert(checksum)
      }
      summary.reappeared = back.count
      return summary
    }
  }

  /// `["a","b",...]`, escaping what JSON requires (checksums are base64, but input is input).
  static func jsonArray(_ strings: [String]) -> String {
    var out: [UInt8] = [UInt8(ascii: "[")]
    out.reserveCapacity(strings.count * 31 + 2)
    for (index, string) in strings.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.append(UInt8(ascii: "\""))
      for byte in string.utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
          out.append(UInt8(ascii: "\\"))
          out.append(byte)
        case 0..<0x20:
          let hex = Array("0123456789abcdef".utf8)
          out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
        default:
          out.append(byte)
        }
      }
      out.append(UInt8(ascii: "\""))
    }
    out.append(UInt8(ascii: "]"))
    return String(decoding: out, as: UTF8.self)
  }

  private func updateAnchors(
    _ db: Database, files: [ScannedFile], completeRoots: Set<String>, time: Double
  ) throws -> Int {
    var anchors: [String: StoredAnchor] = [:]
    let rows = try Row.fetchCursor(
      db, sql: "SELECT identity, firstChecksum, currentChecksum, root, path FROM anchor")
    while let row = try rows.next() {
      anchors[row[0]] = StoredAnchor(first: row[1], current: row[2], root: row[3], path: row[4])
    }
    let present = Set(files.map(\.identity.key))
    // Anchors whose file was not seen in this scan, by current bytes: a moved file's new
    // identity inherits the original it had.
    var absentByCurrent: [String: String] = [:]
    for (identity, anchor) in anchors where !present.contains(identity) {
      absentByCurrent[anchor.current] = anchor.first
    }

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
    var retired = 0
    for file in files {
      let identity = file.identity.key
      if let anchor = anchors[identity] {
        guard
          anchor.current != file.checksum || anchor.path != file.path || anchor.root != file.root
        else { continue }
        if anchor.current != file.checksum && anchor.current != anchor.first {
          // An intermediate version was replaced: it retires through quarantine.
          try retire.execute(arguments: [anchor.current, time, anchor.path])
          retired += 1
        }
        try update.execute(arguments: [file.checksum, file.root, file.path, time, identity])
        anchors[identity] = StoredAnchor(
          first: anchor.first, current: file.checksum, root: file.root, path: file.path)
      } else {
        let first = absentByCurrent[file.checksum] ?? file.checksum
        try insert.execute(arguments: [
          identity, first, file.checksum, file.root, file.path, time, time,
        ])
        anchors[identity] = StoredAnchor(
          first: first, current: file.checksum, root: file.root, path: file.path)
      }
    }
    let drop = try db.cachedStatement(sql: "DELETE FROM anchor WHERE identity = ?")
    for (identity, anchor) in anchors
    where !present.contains(identity) && completeRoots.contains(anchor.root) {
      try drop.execute(arguments: [identity])
    }
    return retired
  }
}

struct PathKey: Hashable {
  var checksum: String
  var path: String
}

private struct StoredAnchor {
  var first: String
  var current: String
  var root: String
  var path: String
}

import CairnEngine
import CairnRecords
import CairnStream
import Foundation
import GRDB

/// The first checksum each file identity was seen with (see `PartitionStore.recordScan`, which
/// maintains them).
package struct EditAnchorStore: Sendable {
  let database: StateDatabase
  init(_ database: StateDatabase) { self.database = database }

  /// Every anchor, for the engine.
  package func all() throws(CairnError) -> [EditAnchor] {
    try database.read { db in
      var anchors: [EditAnchor] = []
      let rows = try Row.fetchCursor(
        db, sql: "SELECT identity, firstChecksum, currentChecksum, root, path FROM anchor")
      while let row = try rows.next() {
        anchors.append(
          EditAnchor(
            identity: FileIdentity(key: row[0]), firstChecksum: row[1], currentChecksum: row[2],
            root: row[3], path: row[4]))
      }
      return anchors
    }
  }

  /// The anchors whose first or current checksum is `checksum` (for a checksum's history).
  package func involving(_ checksum: String) throws(CairnError) -> [EditAnchor] {
    try all().filter { $0.firstChecksum == checksum || $0.currentChecksum == checksum }
  }
}

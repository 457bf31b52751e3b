import CairnCore

/// A scan snapshot file as the database names it: its length and digest.
package struct SnapshotKey: Equatable, Sendable {
  package var length: Int
  package var digest: UInt64

  package init(length: Int, digest: UInt64) {
    self.length = length
    self.digest = digest
  }
}

/// What the last `recordScan` found and wrote, for carrying lookups over (`PresenceCache`).
package struct RecordedSnapshots: Sendable {
  /// The snapshot the scan was compared with file by file; nil when it was recorded whole.
  package var previous: SnapshotKey?
  /// Whether the scan lists each checksum whose presence may differ from that snapshot's
  /// scan (those of the files that changed, appeared or went), and some more.
  package var listed: [ByteKey: Bool] = [:]
  /// The snapshot written for this scan; nil when none was.
  package var written: SnapshotKey?
}

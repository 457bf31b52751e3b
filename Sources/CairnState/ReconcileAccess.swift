import CairnCore

// What the reconcile library (CairnReconcile) reads of the state's internals, in one place:
// the last scan's snapshot read ahead (for following it along a new scan, and for the key
// of the lookups carried over), the walk's order of paths, and what the last recording
// found. (The sealed-file helpers, `SnapshotFile`, `ByteKey` and `ByteHashFilter`, are
// `package` where they are declared.)

/// The last scan's snapshot as a reader of a new scan follows it.
package struct LastScan: Sendable {
  /// Its files, read in place.
  package let files: any ScanFileSource
  package let count: Int
  /// The file's length and digest, as the database names it.
  package let key: ScanSnapshotStore.FileKey
}

extension ScanSnapshotPreload {
  /// The snapshot read ahead, if there was one.
  package var lastScan: LastScan? {
    scan.map {
      LastScan(
        files: $0, count: $0.count,
        key: ScanSnapshotStore.FileKey(length: $0.length, digest: $0.digest))
    }
  }
}

/// The walk's order of two paths (see `ScanDelta.walkOrder`). Negative, zero or positive.
package func walkOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
  ScanDelta.walkOrder(a, b)
}

extension PartitionStore {
  /// What this process's last `recordScan` compared and wrote, if it recorded one.
  package var lastRecording: ScanSnapshotStore.Recording? { snapshots.lastRecording }
}

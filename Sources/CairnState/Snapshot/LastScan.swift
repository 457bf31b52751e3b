import CairnEngine

// What a reader of a new scan (CairnReconcile's `ScanInput`) follows of the last scan's
// snapshot: its files read ahead, their key, and the walk's order of paths.

/// The last scan's snapshot as a reader of a new scan follows it.
package struct LastScan: Sendable {
  /// Its files, read in place.
  package let files: any ScanFileSource
  package let count: Int
  /// The file's length and digest, as the database names it.
  package let key: ScanSnapshotStore.FileKey

  /// The walk's order of two paths (see `ScanDelta.walkOrder`), in which the snapshot lists
  /// its files. Negative, zero or positive.
  package static func walkOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    ScanDelta.walkOrder(a, b)
  }
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

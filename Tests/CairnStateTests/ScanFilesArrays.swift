import CairnEngine
import CairnRecords
import CairnStateTestSupport
import Foundation

@testable import CairnState

// Tests write their scans as arrays of `ScannedFile`; the store takes `ScanFiles` (files read
// in place from the last snapshot, or parsed). These wrap an array as parsed files.

extension StoreFixture {
  /// The store with its snapshot store's `options` (when patches are written).
  func open(snapshots options: ScanSnapshotStore.Options) throws -> PartitionStore {
    try PartitionStore.open(partition, paths: paths, snapshots: options)
  }
}

extension ScanSnapshot.Contents {
  init(roots: [String], files: [ScannedFile], absent: [String], sharedIdentities: [String]) {
    self.init(
      roots: roots, files: ScanFiles(files), absent: absent, sharedIdentities: sharedIdentities)
  }
}

extension ScanDelta {
  init?(files: [ScannedFile], previous: ScanSnapshot) {
    self.init(files: ScanFiles(files), previous: previous)
  }
}

import CairnCore
import CairnTestSupport
import Foundation

@testable import CairnState

/// A partition and private XDG folders for one test.
struct StoreFixture {
  let directory = TemporaryDirectory("cairn-state")
  let partition = ServerPartition(serverURL: "https://photos.example.net/api", userId: "U-1")
  var paths: CairnPaths { CairnPaths(environment: directory.isolatedEnvironment()) }

  func open(
    locking: Bool = true, snapshots: ScanSnapshotStore.Options = ScanSnapshotStore.Options()
  ) throws -> PartitionStore {
    try PartitionStore.open(partition, paths: paths, locking: locking, snapshots: snapshots)
  }
}

let day: TimeInterval = 86_400
let t0 = Date(timeIntervalSince1970: 1_790_000_000)

func file(
  _ path: String, _ checksum: String, root: String = "/lib", inode: UInt64? = nil
) -> ScannedFile {
  ScannedFile(
    root: root, path: path, checksum: checksum,
    identity: FileIdentity(device: inode == nil ? nil : 1, inode: inode, path: path))
}

extension PartitionStore {
  /// Whether the last `recordScan` compared the scan with the last one's snapshot
  /// (`recordDelta`) rather than with the whole store.
  var recordedByDifference: Bool { snapshots.lastRecording?.previous != nil }
}

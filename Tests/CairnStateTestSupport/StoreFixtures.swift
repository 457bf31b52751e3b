import CairnEngine
import CairnRecords
import CairnSealedFiles
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTestSupport
import Foundation

/// A partition and private XDG folders for one test.
package struct StoreFixture {
  package let directory = TemporaryDirectory("cairn-state")
  package let partition = ServerPartition(
    serverURL: "https://photos.example.net/api", userId: "U-1")
  package var paths: CairnPaths { CairnPaths(environment: directory.isolatedEnvironment()) }

  package init() {}

  package func open(locking: Bool = true) throws -> PartitionStore {
    try PartitionStore.open(partition, paths: paths, locking: locking)
  }

  /// `files` with those the partition's current snapshot holds as they are (line digest and
  /// all) taken from it in place, as `ScanInput.read` takes a line it recognises, and the
  /// snapshot read ahead for recording them; nil without a snapshot.
  package func readInPlace(_ files: [ScannedFile]) -> (ScanFiles, ScanSnapshotPreload)? {
    let preload = ScanSnapshotPreload.read(partition, paths: paths)
    guard let last = preload.lastScan else { return nil }
    let snapshot = last.files
    var byPath: [ByteKey: Int] = [:]
    for index in 0..<last.count {
      byPath[ByteKey(String(decoding: snapshot.pathBytes(index), as: UTF8.self))] = index
    }
    var read = ScanFiles()
    for file in files {
      if file.lineDigest != nil, let index = byPath[ByteKey(file.path)],
        snapshot.lineDigest(index) == file.lineDigest, snapshot.file(index) == file
      {
        read.append(index, of: snapshot)
      } else {
        read.append(file)
      }
    }
    return (read, preload)
  }
}

package let day: TimeInterval = 86_400
package let t0 = Date(timeIntervalSince1970: 1_790_000_000)

package func file(
  _ path: String, _ checksum: String, root: String = "/lib", inode: UInt64? = nil
) -> ScannedFile {
  ScannedFile(
    root: root, path: path, checksum: checksum,
    identity: FileIdentity(device: inode == nil ? nil : 1, inode: inode, path: path))
}

/// An asset of the server's listing, a photo of the owner's timeline unless told otherwise.
package func asset(
  _ id: String, _ checksum: String, video: String? = nil, trashed: Bool = false,
  type: String = "IMAGE"
) -> AssetRecord {
  AssetRecord(
    id: id, checksum: checksum, originalFileName: id + ".jpg", assetType: type,
    visibility: type == "VIDEO" ? "hidden" : "timeline", livePhotoVideoId: video,
    isTrashed: trashed, ownerId: "u-1")
}

extension PartitionStore {
  /// Whether the last `recordScan` compared the scan with the last one's snapshot
  /// (`recordDelta`) rather than with the whole store.
  package var recordedByDifference: Bool { lastRecording?.previous != nil }
}

extension PartitionStore {
  /// Records a scan written as an array (tests write their scans so; the store takes
  /// `ScanFiles`, files read in place from the last snapshot or parsed).
  @discardableResult
  package func recordScan(
    _ files: [ScannedFile], completeRoots: Set<String>, scopedRoots: Set<String> = [],
    at now: Date, preloaded: ScanSnapshotPreload? = nil
  ) throws(CairnError) -> ScanRecordingSummary {
    try recordScan(
      ScanFiles(files), completeRoots: completeRoots, scopedRoots: scopedRoots, at: now,
      preloaded: preloaded)
  }

  package func reconcile(
    files: [ScannedFile], scan: (any ScanContents)? = nil, roots: [RootStatus],
    assets: any AssetListing, settings: ReconciliationSettings, now: Date
  ) throws(CairnError) -> ReconciliationOutput {
    try reconcile(
      files: ScanFiles(files), scan: scan, roots: roots, assets: assets, settings: settings,
      now: now)
  }

  package func reconciliationInput(
    files: [ScannedFile], scan: (any ScanContents)? = nil, roots: [RootStatus],
    assets: any AssetListing, settings: ReconciliationSettings, now: Date
  ) throws(CairnError) -> ReconciliationInput {
    try reconciliationInput(
      files: ScanFiles(files), scan: scan, roots: roots, assets: assets, settings: settings,
      now: now)
  }
}

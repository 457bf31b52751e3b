/// The scan's checksums, and for each server asset whether a file of the scan has its
/// checksum: a million lookups that depend on neither the store nor the settings, so a caller
/// can make them on another core while the scan is being recorded, and hand them to the engine
/// (`ReconciliationInput.lookup`), which otherwise makes them itself.
public struct ScanLookup: Sendable {
  let checksums: ChecksumSet
  let assetIsPresent: [Bool]
  /// What it was made from, so the engine can tell it belongs to its input.
  let fileCount: Int
  let assetCount: Int

  public init(files: ScanFiles, assets: ServerAssets) {
    let checksums = ChecksumSet(files)
    self.checksums = checksums
    assetIsPresent = checksums.containsEach(count: assets.count) { index, key in
      assets.withChecksum(index, key)
    }
    fileCount = files.count
    assetCount = assets.count
  }

  func fits(_ input: ReconciliationInput) -> Bool {
    fileCount == input.files.count && assetCount == input.assets.count
  }
}

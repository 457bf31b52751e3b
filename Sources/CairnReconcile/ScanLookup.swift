import CairnEngine
import CairnRecords
import CairnSupport
import CairnTool

/// The fast reading of a scan for the engine (`ScanContents`): for each server asset whether a
/// file of the scan has its checksum, and whether a file of the scan has a given checksum. A
/// million lookups that depend on neither the store nor the settings, so a caller can make
/// them on another core while the scan is being recorded, or carry them over from the last
/// run (see `init(assetIsPresent:known:files:assets:)`), and hand them to the engine as its
/// scan. Its answers are those of `PlainScan(files)`.
package struct ScanLookup: ScanContents {
  package let assetIsPresent: [Bool]
  /// Answers known without the scan's table: by checksum, whether the scan has it.
  private let known: [String: Bool]?
  /// The scan's checksums, made at once, or the first time a checksum not in `known` is asked.
  private let table: Locked<ChecksumSet?>
  private let files: ScanFiles

  /// The scan's checksums in a table, made ahead of the listing it is for.
  package struct Table: Sendable {
    let checksums: ChecksumSet
    let files: ScanFiles

    package init(_ files: ScanFiles) {
      checksums = ChecksumSet(files)
      self.files = files
    }
  }

  /// Makes every lookup: the scan's checksums in a table, each asset's looked up in it.
  package init(files: ScanFiles, assets: ServerAssets) {
    self.init(Table(files), assets: assets)
  }

  /// Each asset's checksum looked up in `table`: half of a large listing on a thread of its
  /// own, for whoever waits for these lookups leaves a core free.
  package init(_ table: Table, assets: ServerAssets) {
    let checksums = table.checksums
    let count = assets.count
    let half = count >= 1 << 16 ? count / 2 : count
    let lookUp = { @Sendable (range: Range<Int>) in
      checksums.containsEach(count: range.count) { index, key in
        assets.withChecksum(range.lowerBound + index, key)
      }
    }
    let second = half < count ? BackgroundWork("cairn-lookups") { lookUp(half..<count) } : nil
    let first = lookUp(0..<half)
    assetIsPresent =
      second.map { first + ((try? $0.value()) ?? lookUp(half..<count)) } ?? first
    known = nil
    self.table = Locked(table.checksums)
    files = table.files
  }

  /// Lookups a caller already has: `assetIsPresent` for each of `assets`, and `known`, whether
  /// the scan has each of those checksums (as `contains` would answer). A checksum asked about
  /// that `known` does not hold is looked up in a table of `files`' checksums, made then.
  package init(
    assetIsPresent: [Bool], known: [String: Bool], files: ScanFiles, assets: ServerAssets
  ) {
    precondition(assetIsPresent.count == assets.count)
    self.assetIsPresent = assetIsPresent
    self.known = known
    table = Locked(nil)
    self.files = files
  }

  /// Whether a file of the scan has `checksum` (as `String` equality has it).
  package func contains(_ checksum: String) -> Bool {
    if let answer = known?[checksum] { return answer }
    return table.withLock { table in
      let checksums = table ?? ChecksumSet(files)
      table = checksums
      return checksums
    }.contains(checksum)
  }

  /// Whether it was made without the scan's table (for tests and `-v`).
  package var isCarriedOver: Bool { known != nil }

  package var count: Int { files.count }

  /// The lookups made for these assets; asked about another listing (another count), each
  /// asset's checksum is looked up.
  package func presence(of assets: any AssetListing) -> [Bool] {
    guard assetIsPresent.count == assets.count else {
      return (0..<assets.count).map { contains(assets.checksum($0)) }
    }
    return assetIsPresent
  }

  /// Each file's identity looked at in place: no set of a million identities is made.
  package func identities(among identities: Set<FileIdentity>) -> Set<FileIdentity> {
    guard !identities.isEmpty else { return [] }
    var found = Set<FileIdentity>()
    for index in files.indices {
      let identity = FileIdentity(
        key: files.withIdentity(index) { String(decoding: $0, as: UTF8.self) })
      if identities.contains(identity) { found.insert(identity) }
    }
    return found
  }
}

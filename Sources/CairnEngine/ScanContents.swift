import CairnRecords

/// The scan as the engine reads it: which checksums and which file identities it has.
///
/// The engine asks only these questions, so any reading of a scan will do. `PlainScan` answers
/// them from sets, obviously; the fast reading (`ScanLookup`, in CairnReconcile) answers them
/// from a table of a million checksums made on another core, or carried over from the last
/// run, and must answer exactly as `PlainScan` would (the random-history tests compare them).
package protocol ScanContents: Sendable {
  /// The number of files in the scan.
  var count: Int { get }
  /// Whether a file of the scan has `checksum`, as `String` equality has it.
  func contains(_ checksum: String) -> Bool
  /// Those of `identities` that a file of the scan has.
  func identities(among identities: Set<FileIdentity>) -> Set<FileIdentity>
  /// For each asset of `assets`, in order, whether a file of the scan has its checksum: what
  /// `contains` answers for each, which a reading may have at hand already.
  func presence(of assets: any AssetListing) -> [Bool]
}

extension ScanContents {
  package func presence(of assets: any AssetListing) -> [Bool] {
    (0..<assets.count).map { contains(assets.checksum($0)) }
  }
}

/// The reference reading of a scan: its checksums and identities in sets.
package struct PlainScan: ScanContents, ExpressibleByArrayLiteral {
  package let count: Int
  private let checksums: Set<String>
  private let identities: Set<FileIdentity>

  package init(_ files: some Sequence<ScannedFile>) {
    var count = 0
    var checksums = Set<String>()
    var identities = Set<FileIdentity>()
    for file in files {
      count += 1
      checksums.insert(file.checksum)
      identities.insert(file.identity)
    }
    self.count = count
    self.checksums = checksums
    self.identities = identities
  }

  package init(arrayLiteral files: ScannedFile...) { self.init(files) }

  /// An empty scan.
  package init() { self.init([ScannedFile]()) }

  package func contains(_ checksum: String) -> Bool { checksums.contains(checksum) }

  package func identities(among identities: Set<FileIdentity>) -> Set<FileIdentity> {
    identities.intersection(self.identities)
  }
}

import CairnJSON

/// One file of the current scan, as the engine and the observed store need it.
package struct ScannedFile: Sendable, Equatable {
  package var root: String
  package var path: String
  package var checksum: String
  package var identity: FileIdentity
  /// The digest of the scan line this file was read from, when it was: a later scan that has
  /// the same line needs no parsing to know this file (see `ScanInput`). Not part of equality.
  package var lineDigest: LineDigest?

  package init(
    root: String, path: String, checksum: String, identity: FileIdentity,
    lineDigest: LineDigest? = nil
  ) {
    self.root = root
    self.path = path
    self.checksum = checksum
    self.identity = identity
    self.lineDigest = lineDigest
  }

  package static func == (a: ScannedFile, b: ScannedFile) -> Bool {
    a.root == b.root && a.path == b.path && a.checksum == b.checksum && a.identity == b.identity
  }

  package init(_ file: FileRecord) {
    self.init(
      root: file.root, path: file.path, checksum: file.checksum, identity: FileIdentity(file))
  }
}

/// One file of the current scan, as the engine and the observed store need it.
public struct ScannedFile: Sendable, Equatable {
  public var root: String
  public var path: String
  public var checksum: String
  public var identity: FileIdentity
  /// The digest of the scan line this file was read from, when it was: a later scan that has
  /// the same line needs no parsing to know this file (see `ScanInput`). Not part of equality.
  public var lineDigest: LineDigest?

  public init(
    root: String, path: String, checksum: String, identity: FileIdentity,
    lineDigest: LineDigest? = nil
  ) {
    self.root = root
    self.path = path
    self.checksum = checksum
    self.identity = identity
    self.lineDigest = lineDigest
  }

  public static func == (a: ScannedFile, b: ScannedFile) -> Bool {
    a.root == b.root && a.path == b.path && a.checksum == b.checksum && a.identity == b.identity
  }

  public init(_ file: FileRecord) {
    self.init(
      root: file.root, path: file.path, checksum: file.checksum, identity: FileIdentity(file))
  }
}

/// One file of the current scan, as the engine and the observed store need it.
public struct ScannedFile: Sendable, Equatable {
  public var root: String
  public var path: String
  public var checksum: String
  public var identity: FileIdentity

  public init(root: String, path: String, checksum: String, identity: FileIdentity) {
    self.root = root
    self.path = path
    self.checksum = checksum
    self.identity = identity
  }

  public init(_ file: FileRecord) {
    self.init(
      root: file.root, path: file.path, checksum: file.checksum, identity: FileIdentity(file))
  }
}

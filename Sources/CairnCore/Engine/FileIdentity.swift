/// What identifies a file across edits and renames: its device and inode, which a rename or an
/// in-place rewrite keeps. Without them (a scanner that did not report them), the path.
public struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
  /// `dev:ino`, or `path:<absolute path>`; stored as is in the state database.
  public let key: String

  public init(key: String) { self.key = key }

  public init(device: UInt64?, inode: UInt64?, path: String) {
    if let device, let inode {
      key = "\(device):\(inode)"
    } else {
      key = "path:" + path
    }
  }

  public init(_ file: FileRecord) {
    self.init(device: file.device, inode: file.inode, path: file.path)
  }

  public var description: String { key }
}

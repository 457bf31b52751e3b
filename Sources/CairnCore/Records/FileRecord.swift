import Foundation

/// One media file in the local library, identified by the SHA-1 of its bytes.
public struct FileRecord: Record, Equatable {
  public static let recordType = "file"

  /// Absolute path of the file.
  public var path: String
  /// The scanned root the file was found under (absolute).
  public var root: String
  public var size: Int64
  public var mtime: Date
  /// Base64 of the SHA-1 of the whole file: exactly Immich's `checksum`.
  public var checksum: String
  /// Device and inode: they survive a rename, so edits can be told from deletions.
  public var device: UInt64?
  public var inode: UInt64?

  public init(
    path: String, root: String, size: Int64, mtime: Date, checksum: String,
    device: UInt64? = nil, inode: UInt64? = nil
  ) {
    self.path = path
    self.root = root
    self.size = size
    self.mtime = mtime
    self.checksum = checksum
    self.device = device
    self.inode = inode
  }

  public init(_ object: JSONObject) throws(RecordError) {
    path = try object.string("path")
    root = try object.optionalString("root") ?? ""
    size = Int64(try object.int("size"))
    mtime = try object.date("mtime")
    checksum = try object.string("checksum")
    device = try object.optionalUInt64("dev")
    inode = try object.optionalUInt64("ino")
  }

  public func writeFields(to w: inout JSONObjectWriter) {
    w.field("path", path)
    w.field("root", root)
    w.field("size", size)
    w.field("mtime", mtime)
    w.field("checksum", checksum)
    if let device { w.field("dev", device) }
    if let inode { w.field("ino", inode) }
  }
}

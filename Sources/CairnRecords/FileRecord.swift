import CairnJSON
import Foundation

/// One media file in the local library, identified by the SHA-1 of its bytes.
package struct FileRecord: Record, Equatable {
  package static let recordType = "file"

  /// Absolute path of the file.
  package var path: String
  /// The scanned root the file was found under (absolute).
  package var root: String
  package var size: Int64
  package var mtime: Date
  /// Base64 of the SHA-1 of the whole file: exactly Immich's `checksum`.
  package var checksum: String
  /// Device and inode: they survive a rename, so edits can be told from deletions.
  package var device: UInt64?
  package var inode: UInt64?
  /// The volume the file is on (its file system's UUID or serial number), when the scanner
  /// could read it: a new card in the same reader gets the old card's device number, and a
  /// fresh file system the old one's inode numbers, so only this tells their files apart.
  package var volume: String?

  package init(
    path: String, root: String, size: Int64, mtime: Date, checksum: String,
    device: UInt64? = nil, inode: UInt64? = nil, volume: String? = nil
  ) {
    self.path = path
    self.root = root
    self.size = size
    self.mtime = mtime
    self.checksum = checksum
    self.device = device
    self.inode = inode
    self.volume = volume
  }

  package init(_ object: JSONObject) throws(RecordError) {
    path = try object.string("path")
    root = try object.optionalString("root") ?? ""
    size = Int64(try object.int("size"))
    mtime = try object.date("mtime")
    checksum = try object.string("checksum")
    device = try object.optionalUInt64("dev")
    inode = try object.optionalUInt64("ino")
    volume = try object.optionalString("vol")
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("path", path)
    w.field("root", root)
    w.field("size", size)
    w.field("mtime", mtime)
    w.field("checksum", checksum)
    if let device { w.field("dev", device) }
    if let inode { w.field("ino", inode) }
    if let volume { w.field("vol", volume) }
  }
}

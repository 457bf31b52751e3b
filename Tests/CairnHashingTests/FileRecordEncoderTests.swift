import CairnHashing
import CairnRecords
import CairnSupport
import Foundation
import Testing

/// The fast encoder must write exactly what the shared `FileRecord` writes.
@Suite("FileRecordEncoder")
struct FileRecordEncoderTests {
  @Test(
    "same bytes as FileRecord.jsonBytes()",
    arguments: [
      ("/lib/a.jpg", Int64(0), Int64(0)),
      ("/lib/été/\"q\"\\s\n\t\r\u{1}.HEIC", 1_700_000_000_999_600_000, 4_294_967_297),
      ("/lib/日本/写真.mov", 1_600_000_000_123_456_789, 12),
      ("/lib/x.jpg", 1_700_000_000_000_499_999, 1 << 40),
      ("/lib/y.jpg", -86_400_000_000_001, 3),
      ("/lib/z.jpg", 1_234_567_890_999_500_000, 5),
    ])
  func sameBytes(path: String, mtime: Int64, size: Int64) throws {
    let status = FileStatus(
      device: 2049, inode: 18_446_744_073_709_551_615, size: size, mtimeNanoseconds: mtime,
      ctimeNanoseconds: mtime, mode: 0o100644)
    let digest = try #require(ContentDigest(Array(0..<20)))
    let root = "/lib \"root\""
    let record = FileRecord(
      path: path, root: root, size: size,
      mtime: Date(timeIntervalSince1970: Double(mtime) / 1e9), checksum: digest.base64,
      device: status.device, inode: status.inode)
    var encoder = FileRecordEncoder()
    var bytes = Array(path.utf8)
    bytes.append(0)
    let line = bytes.withUnsafeBufferPointer {
      encoder.encode(
        path: $0, escapedRoot: FileRecordEncoder.escaped(root), status: status, checksum: digest)
    }
    #expect(String(decoding: line, as: UTF8.self) == record.jsonString())
  }

  @Test func theVolumeIsWrittenAfterTheInode() throws {
    let status = FileStatus(
      device: 2049, inode: 12, size: 3, mtimeNanoseconds: 0, ctimeNanoseconds: 0, mode: 0o100644)
    let digest = try #require(ContentDigest(Array(0..<20)))
    let record = FileRecord(
      path: "/lib/a.jpg", root: "/lib", size: 3, mtime: Date(timeIntervalSince1970: 0),
      checksum: digest.base64, device: 2049, inode: 12, volume: "1a3a0c52-ee35")
    var encoder = FileRecordEncoder()
    let line = Array("/lib/a.jpg".utf8).withUnsafeBufferPointer {
      encoder.encode(
        path: $0, escapedRoot: FileRecordEncoder.escaped("/lib"), status: status,
        checksum: digest, escapedVolume: FileRecordEncoder.escaped("1a3a0c52-ee35"))
    }
    #expect(String(decoding: line, as: UTF8.self) == record.jsonString())
    #expect(record.jsonString().hasSuffix(#""ino":12,"vol":"1a3a0c52-ee35"}"#))
  }
}

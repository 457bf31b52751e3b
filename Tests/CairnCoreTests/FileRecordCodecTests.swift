import CairnJSON
import CairnRecords
import Foundation
import Testing

/// The `file` record's fast hands must be the record type's own reading and writing: the fast
/// reader (`ScannedFile(fileRecord:)`) accepts exactly the lines `FileRecord(_:)` accepts and
/// refuses the others with the same words, and the fast encoder writes what the record writes.
@Suite struct FileRecordCodecTests {
  private static let good: [(String, String)] = [
    ("path", #""/lib/a.jpg""#), ("root", #""/lib""#), ("size", "12"),
    ("mtime", #""2026-01-02T03:04:05.678Z""#), ("checksum", #""oAmfwnj7zQz/KOqcJFYJdawUtWE=""#),
    ("dev", "2049"), ("ino", "77"), ("vol", #""1a3a0c52-0b7e-4a3e-9d2f-6f0e4c0aee35""#),
  ]

  /// The good line with `field` set to `value` (nil: left out).
  private static func line(_ field: String? = nil, _ value: String? = nil) -> String {
    let fields = good.compactMap { key, original -> String? in
      guard key == field else { return #""\#(key)":\#(original)"# }
      return value.map { #""\#(key)":\#($0)"# }
    }
    return #"{"type":"file","# + fields.joined(separator: ",") + "}"
  }

  /// Every field left out, null, and of each other kind; dates and numbers well and badly
  /// formed; strings with escapes.
  static let lines: [String] = {
    var lines = [line()]
    let kinds = [
      "null", "true", "7", "-1", "1.5", "1e3", "18446744073709551616", #""text""#, "[]", "{}",
      #""2026-01-02T03:04:05Z""#, #""2026-01-02""#, #""2026-13-02T03:04:05Z""#,
      #""2026-01-02T03:04:05+01:00""#, #""\u0032026-01-02T03:04:05Z""#, #""/lib/\u00e9.jpg""#,
    ]
    for (field, _) in good {
      lines.append(line(field, nil))
      for kind in kinds { lines.append(line(field, kind)) }
    }
    return lines
  }()

  @Test(arguments: lines)
  func theFastReaderReadsAsTheRecord(_ text: String) throws {
    let object = try JSONObject(parsing: Array(text.utf8))
    let record = Result { () throws(RecordError) in try FileRecord(object) }
    let fast = Result { () throws(RecordError) in try ScannedFile(fileRecord: object) }
    switch (record, fast) {
    case (.success(let record), .success(let file)):
      #expect(file == ScannedFile(record))
    case (.failure(let a), .failure(let b)):
      #expect(a == b)
    default:
      Issue.record("the record reads \(record), the fast reader \(fast): \(text)")
    }
  }

  /// Most of these lines are refused, a few accepted, or the comparison says little.
  @Test func theLinesCoverBothAnswers() throws {
    let accepted = try Self.lines.filter { text in
      (try? FileRecord(JSONObject(parsing: Array(text.utf8)))) != nil
    }
    #expect(accepted.count >= 8)
    #expect(Self.lines.count - accepted.count >= 80)
  }

  @Test(arguments: [
    (Int64(0), Int64(0), UInt64(0)), (1_700_000_000_999_600_000, 4_294_967_297, UInt64.max),
    (-86_400_000_000_001, 3, 1),
  ])
  func theFastEncoderWritesTheRecord(mtime: Int64, size: Int64, inode: UInt64) {
    let path = "/lib/été/\"q\"\\s\n\t.HEIC"
    let record = FileRecord(
      path: path, root: "/lib", size: size,
      mtime: Date(timeIntervalSince1970: Double(mtime) / 1e9), checksum: "Q2hlY2tzdW0=",
      device: 2049, inode: inode)
    var encoder = FileRecordEncoder()
    let line = Array(path.utf8).withUnsafeBufferPointer {
      encoder.encode(
        path: $0, escapedRoot: FileRecordEncoder.escaped("/lib"), size: size,
        mtimeNanoseconds: mtime, appendChecksum: { $0 += Array("Q2hlY2tzdW0=".utf8) },
        device: 2049, inode: inode)
    }
    #expect(String(decoding: line, as: UTF8.self) == record.jsonString())
  }
}

import CairnJSON
import Foundation

// The `file` record's two fast hands, beside the record type (`FileRecord`) and held to it by
// tests: a scan of a million files is mostly writing these lines (cairn-hash) and reading
// them (cairn-observe, cairn-reconcile), and going through `String`s and `Date`s for every
// field would be most of either's time.
//
// - `FileRecordEncoder` writes a line byte for byte as `FileRecord.jsonBytes()` would
//   (FileRecordEncoderTests).
// - `ScannedFile(fileRecord:)` reads the fields the engine and the store need and checks the
//   others without building them: it accepts exactly the lines `FileRecord(_:)` accepts, with
//   the same words when it refuses one (FileRecordCodecTests).

/// Writes `file` records straight from a scan's raw values, byte for byte as
/// `FileRecord.jsonBytes()` would, without the intermediate strings and dates.
package struct FileRecordEncoder {
  private var bytes: [UInt8] = []
  /// The last second formatted, and its `YYYY-MM-DDTHH:MM:SS` text: files of one import
  /// share seconds often enough to make this worth keeping.
  private var cachedSecond: Int64 = .min
  private var cachedSecondText: [UInt8] = []

  package init() {
    bytes.reserveCapacity(512)
  }

  /// The record's line, without the newline. `path` holds valid UTF-8 (a trailing NUL is
  /// ignored); `root` is the JSON-escaped root string, quotes included; `appendChecksum`
  /// appends the checksum's base64 characters (they need no escaping); `escapedVolume`, when
  /// the volume is known, is its JSON-escaped identifier, quotes included.
  package mutating func encode(
    path: UnsafeBufferPointer<UInt8>, escapedRoot: [UInt8], size: Int64, mtimeNanoseconds: Int64,
    appendChecksum: (inout [UInt8]) -> Void, device: UInt64, inode: UInt64,
    escapedVolume: [UInt8]? = nil
  ) -> [UInt8] {
    bytes.removeAll(keepingCapacity: true)
    append(#"{"type":"file","path":"#)
    var path = path
    if path.last == 0 { path = UnsafeBufferPointer(rebasing: path.dropLast()) }
    JSONBytes.appendString(path, to: &bytes)
    append(#","root":"#)
    bytes.append(contentsOf: escapedRoot)
    append(#","size":"#)
    JSONBytes.appendDecimal(UInt64(max(0, size)), to: &bytes)
    append(#","mtime":""#)
    appendDate(nanoseconds: mtimeNanoseconds)
    append(#"","checksum":""#)
    appendChecksum(&bytes)
    append(#"","dev":"#)
    JSONBytes.appendDecimal(device, to: &bytes)
    append(#","ino":"#)
    JSONBytes.appendDecimal(inode, to: &bytes)
    if let escapedVolume {
      append(#","vol":"#)
      bytes.append(contentsOf: escapedVolume)
    }
    bytes.append(UInt8(ascii: "}"))
    return bytes
  }

  /// `text` as a JSON string, quotes included.
  package static func escaped(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    JSONBytes.appendString(text, to: &out)
    return out
  }

  private mutating func append(_ literal: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// As `Date.iso8601`: UTC, milliseconds rounded half up from the seconds as a Double.
  private mutating func appendDate(nanoseconds: Int64) {
    // Through Date, so the rounding is exactly that of FileRecord's own writer.
    let interval = Date(timeIntervalSince1970: Double(nanoseconds) / 1e9).timeIntervalSince1970
    let (seconds, millis) = JSONBytes.secondsAndMillis(interval)
    if seconds != cachedSecond {
      cachedSecondText.removeAll(keepingCapacity: true)
      JSONBytes.appendDateTime(seconds: seconds, to: &cachedSecondText)
      cachedSecond = seconds
    }
    bytes.append(contentsOf: cachedSecondText)
    bytes.append(UInt8(ascii: "."))
    JSONBytes.appendPadded(millis, width: 3, to: &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }
}

extension ScannedFile {
  /// Reads a `file` record as `FileRecord(_:)` does, field by field and in its order, keeping
  /// only what a scan needs: `size` and `mtime` are checked (present, an integer, a date)
  /// without being built (a date parse per line is more than a million-file scan can afford).
  package init(fileRecord object: JSONObject, lineDigest: LineDigest? = nil)
    throws(RecordError)
  {
    let path = try object.string("path")
    let root = try object.optionalString("root") ?? ""
    _ = try object.int("size")
    try object.checkDate("mtime")
    let checksum = try object.string("checksum")
    let identity = FileIdentity(
      device: try object.optionalUInt64("dev"), inode: try object.optionalUInt64("ino"),
      volume: try object.optionalString("vol"), path: path)
    self.init(
      root: root, path: path, checksum: checksum, identity: identity, lineDigest: lineDigest)
  }
}

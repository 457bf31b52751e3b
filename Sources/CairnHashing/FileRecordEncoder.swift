import CairnCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Writes `file` records straight from a scan's raw values, byte for byte as
/// `FileRecord.jsonBytes()` would, without the intermediate strings and dates.
///
/// A warm scan does little else than stat files and write these lines, so building each one
/// through `String`s and `Date.iso8601` would be most of its time (a test compares the two).
public struct FileRecordEncoder {
  private var bytes: [UInt8] = []
  /// The last second formatted, and its `YYYY-MM-DDTHH:MM:SS` text: files of one import
  /// share seconds often enough to make this worth keeping.
  private var cachedSecond: Int64 = .min
  private var cachedSecondText: [UInt8] = []

  public init() {
    bytes.reserveCapacity(512)
  }

  /// The record's line, without the newline. `path` holds valid UTF-8 (a trailing NUL is
  /// ignored); `root` is the JSON-escaped root string, quotes included.
  public mutating func encode(
    path: UnsafeBufferPointer<UInt8>, escapedRoot: [UInt8], status: FileStatus,
    checksum: ContentDigest
  ) -> [UInt8] {
    bytes.removeAll(keepingCapacity: true)
    append(#"{"type":"file","path":"#)
    var path = path
    if path.last == 0 { path = UnsafeBufferPointer(rebasing: path.dropLast()) }
    Self.appendEscaped(path, to: &bytes)
    append(#","root":"#)
    bytes.append(contentsOf: escapedRoot)
    append(#","size":"#)
    Self.appendDecimal(UInt64(max(0, status.size)), to: &bytes)
    append(#","mtime":""#)
    appendDate(nanoseconds: status.mtimeNanoseconds)
    append(#"","checksum":""#)
    checksum.appendBase64(to: &bytes)
    append(#"","dev":"#)
    Self.appendDecimal(status.device, to: &bytes)
    append(#","ino":"#)
    Self.appendDecimal(status.inode, to: &bytes)
    bytes.append(UInt8(ascii: "}"))
    return bytes
  }

  /// `text` as a JSON string, quotes included.
  public static func escaped(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var text = text
    text.withUTF8 { appendEscaped($0, to: &out) }
    return out
  }

  private mutating func append(_ literal: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    JSONBytes.appendString(utf8, to: &bytes)
  }

  static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
    JSONBytes.appendDecimal(value, to: &bytes)
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

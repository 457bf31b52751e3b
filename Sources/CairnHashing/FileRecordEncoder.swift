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

  private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

  static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    var runStart = 0
    for i in 0..<utf8.count {
      let byte = utf8[i]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
      runStart = i + 1
      bytes.append(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
      case 0x0A: bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "t"))
      default:
        bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      }
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    bytes.append(UInt8(ascii: "\""))
  }

  static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
    if value < 10 {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    var digits: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      while rest > 0 {
        buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      }
      for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
    }
  }

  private static func appendPadded(_ value: Int, width: Int, to bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
      rest %= divisor
      divisor /= 10
    }
  }

  /// As `Date.iso8601`: UTC, milliseconds rounded half up from the seconds as a Double.
  private mutating func appendDate(nanoseconds: Int64) {
    // Same arithmetic as Date(timeIntervalSince1970:).iso8601, so both round alike.
    let interval = Date(timeIntervalSince1970: Double(nanoseconds) / 1e9).timeIntervalSince1970
    var seconds = Int64(interval.rounded(.down))
    var millis = Int(((interval - Double(seconds)) * 1000).rounded())
    if millis == 1000 {
      seconds += 1
      millis = 0
    }
    if seconds != cachedSecond {
      var time = time_t(seconds)
      var parts = tm()
      gmtime_r(&time, &parts)
      var text: [UInt8] = []
      text.reserveCapacity(19)
      Self.appendPadded(Int(parts.tm_year) + 1900, width: 4, to: &text)
      text.append(UInt8(ascii: "-"))
      Self.appendPadded(Int(parts.tm_mon) + 1, width: 2, to: &text)
      text.append(UInt8(ascii: "-"))
      Self.appendPadded(Int(parts.tm_mday), width: 2, to: &text)
      text.append(UInt8(ascii: "T"))
      Self.appendPadded(Int(parts.tm_hour), width: 2, to: &text)
      text.append(UInt8(ascii: ":"))
      Self.appendPadded(Int(parts.tm_min), width: 2, to: &text)
      text.append(UInt8(ascii: ":"))
      Self.appendPadded(Int(parts.tm_sec), width: 2, to: &text)
      cachedSecond = seconds
      cachedSecondText = text
    }
    bytes.append(contentsOf: cachedSecondText)
    bytes.append(UInt8(ascii: "."))
    Self.appendPadded(millis, width: 3, to: &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }
}

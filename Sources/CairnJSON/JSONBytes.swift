#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The byte-level pieces every record writer is made of: escaped strings, decimals, dates.
///
/// They append to a byte array instead of building `String`s, because writing records is
/// most of what a warm scan or a cached listing does.
package enum JSONBytes {
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// `utf8` as a JSON string, quotes included (control characters, `"` and `\` escaped).
  package static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
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
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0xF)])
      }
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    bytes.append(UInt8(ascii: "\""))
  }

  package static func appendString(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { appendString($0, to: &bytes) }
  }

  package static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
    if value < 10 {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
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

  package static func appendInt(_ value: Int64, to bytes: inout [UInt8]) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDecimal(value.magnitude, to: &bytes)
  }

  /// `value` in exactly `width` digits, zero-padded.
  package static func appendPadded(_ value: Int, width: Int, to bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
      rest %= divisor
      divisor /= 10
    }
  }

  /// Seconds since 1970 split into whole seconds and milliseconds, rounded half up the way
  /// every cairn date is written.
  package static func secondsAndMillis(_ interval: Double) -> (seconds: Int64, millis: Int) {
    var seconds = Int64(interval.rounded(.down))
    var millis = Int(((interval - Double(seconds)) * 1000).rounded())
    if millis == 1000 {
      seconds += 1
      millis = 0
    }
    return (seconds, millis)
  }

  /// `YYYY-MM-DDTHH:MM:SS` of a whole UTC second, without quotes.
  package static func appendDateTime(seconds: Int64, to bytes: inout [UInt8]) {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    appendPadded(Int(parts.tm_year) + 1900, width: 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendPadded(Int(parts.tm_mon) + 1, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendPadded(Int(parts.tm_mday), width: 2, to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendPadded(Int(parts.tm_hour), width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendPadded(Int(parts.tm_min), width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendPadded(Int(parts.tm_sec), width: 2, to: &bytes)
  }

  /// An ISO-8601 UTC date with milliseconds (`2026-11-22T10:15:00.123Z`), without quotes.
  package static func appendISO8601(_ interval: Double, to bytes: inout [UInt8]) {
    let (seconds, millis) = secondsAndMillis(interval)
    appendDateTime(seconds: seconds, to: &bytes)
    bytes.append(UInt8(ascii: "."))
    appendPadded(millis, width: 3, to: &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }
}

import Foundation

/// Identifier rules the server applies: zod's UUID v4 check, lower-case ids from Postgres, and
/// UUIDv7 `updateId`s whose text order is their time order.
enum Identifiers {
  /// A fresh lower-case v4 UUID, as Postgres prints them.
  static func newAssetID() -> String { UUID().uuidString.lowercased() }

  /// zod's `uuid({version: 'v4'})`: either case passes; only the access check is case-sensitive.
  static func isUUIDv4(_ s: String) -> Bool {
    let bytes = Array(s.utf8)
    guard bytes.count == 36 else { return false }
    for (i, b) in bytes.enumerated() {
      switch i {
      case 8, 13, 18, 23: if b != UInt8(ascii: "-") { return false }
      case 14: if b != UInt8(ascii: "4") { return false }
      case 19: if !"89abAB".utf8.contains(b) { return false }
      default: if !isHex(b) { return false }
      }
    }
    return true
  }

  static func isHex(_ b: UInt8) -> Bool {
    (b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102)
  }

  /// Checksum text as `utils/request.ts` reads it: 28 characters is base64, anything else hex.
  static func parseChecksum(_ text: String) -> [UInt8] {
    if text.count == 28 {
      return Data(base64Encoded: text).map { Array($0) } ?? []
    }
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var i = 0
    while i + 1 < bytes.count {
      guard let hi = hexValue(bytes[i]), let lo = hexValue(bytes[i + 1]) else { break }
      out.append(hi << 4 | lo)
      i += 2
    }
    return out
  }

  static func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 48...57: return b - 48
    case 65...70: return b - 55
    case 97...102: return b - 87
    default: return nil
    }
  }

  static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}

/// Hands out UUIDv7-shaped `updateId`s: 48 bits of milliseconds, then a global sequence, so the
/// lexical order of the strings is the order in which rows changed — what the sync stream and
/// its acks compare.
struct UpdateIDClock: Sendable {
  private var lastMillis: UInt64 = 0
  private var sequence: UInt64 = 0

  mutating func next(at date: Date) -> String {
    let millis = max(UInt64(max(0, date.timeIntervalSince1970 * 1000)), lastMillis)
    lastMillis = millis
    sequence += 1
    return UpdateIDClock.format(millis: millis, sequence: sequence)
  }

  static func format(millis: UInt64, sequence: UInt64) -> String {
    let time = hex(millis & 0xffff_ffff_ffff, width: 12)
    let seqHigh = hex((sequence >> 48) & 0xfff, width: 3)
    let seqLow = hex(sequence & 0xffff_ffff_ffff, width: 12)
    let prefix = String(time.prefix(8))
    let middle = String(time.suffix(4))
    return "\(prefix)-\(middle)-7\(seqHigh)-8000-\(seqLow)"
  }

  /// The millisecond timestamp carried by an id this clock made; nil for foreign text.
  static func millis(of id: String) -> UInt64? {
    let hexDigits = id.replacingOccurrences(of: "-", with: "").prefix(12)
    guard hexDigits.count == 12 else { return nil }
    return UInt64(hexDigits, radix: 16)
  }

  private static func hex(_ value: UInt64, width: Int) -> String {
    let s = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - s.count)) + s
  }
}

/// ISO-8601 in and out, the way the server formats timestamps (`2026-01-02T03:04:05.000Z`).
enum Timestamps {
  /// Hand-rolled (civil-from-days) because a search page formats thousands of dates and
  /// Foundation's formatter dominated the time of a 100,000-asset listing.
  static func format(_ date: Date) -> String {
    let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    let millisOfDay = ((totalMillis % 86_400_000) + 86_400_000) % 86_400_000
    let days = (totalMillis - millisOfDay) / 86_400_000
    // Howard Hinnant's days → (year, month, day).
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func pad(_ v: Int64, _ width: Int) -> String {
      let s = String(v)
      return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
    let seconds = millisOfDay / 1000
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
      + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(millisOfDay % 1000, 3))Z"
  }

  /// v2's class-transformer `new Date(text)`: an offset, or none (read as UTC, the server's
  /// zone in its container), or a bare date.
  static func parseLenient(_ text: String) -> Date? {
    if let date = parseWithOffset(text) { return date }
    let utc = text.contains("T") ? text + "Z" : text + "T00:00:00Z"
    return parseWithOffset(utc)
  }

  /// zod's `iso.datetime({offset: true})`: a `Z` or `±hh:mm` offset is required.
  static func parseWithOffset(_ text: String) -> Date? {
    guard text.count >= 20, text.contains("T") else { return nil }
    let hasOffset =
      text.hasSuffix("Z")
      || text.range(of: #"[+-]\d{2}:?\d{2}$"#, options: .regularExpression) != nil
    guard hasOffset else { return nil }
    let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    if let date = try? fractional.parse(text) { return date }
    return try? Date.ISO8601FormatStyle().parse(text)
  }
}

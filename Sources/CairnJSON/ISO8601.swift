import CairnSupport
import Foundation

extension Date {
  /// ISO-8601 UTC with milliseconds (`2026-11-22T10:15:00.123Z`), the form every record uses.
  package var iso8601: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    JSONBytes.appendISO8601(timeIntervalSince1970, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else.
  package init?(iso8601 text: String) {
    guard let seconds = text.withBytes(Self.iso8601Seconds) else { return nil }
    self.init(timeIntervalSince1970: seconds)
  }

  /// Whether `bytes` are a date `init(iso8601:)` reads, without building the date.
  package static func isISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    iso8601Seconds(bytes) != nil
  }

  /// Seconds since 1970 of an ISO-8601 date-time, or nil. Out-of-range days and leap seconds
  /// carry over as `timegm` carries them (February 30 is March 2), by plain arithmetic: a
  /// million server assets each have a date, and `timegm` takes the C library's time zone lock.
  static func iso8601Seconds(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
    func number(_ at: Int, _ count: Int) -> Int? {
      guard at + count <= b.count else { return nil }
      var value = 0
      for i in at..<(at + count) {
        let digit = Int(b[i]) &- 48
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 116 || b[10] == 32,
      b[13] == 58, b[16] == 58,
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var i = 19
    var fraction = 0.0
    if i < b.count, b[i] == 46 {
      i += 1
      var scale = 0.1
      let start = i
      while i < b.count, (48...57).contains(b[i]) {
        fraction += Double(b[i] - 48) * scale
        scale /= 10
        i += 1
      }
      guard i > start else { return nil }
    }
    guard i < b.count else { return nil }
    var offset = 0
    if b[i] == 90 || b[i] == 122 {
      i += 1
    } else if b[i] == 43 || b[i] == 45, let oh = number(i + 1, 2), b.count > i + 3, b[i + 3] == 58,
      let om = number(i + 4, 2)
    {
      offset = (oh * 3600 + om * 60) * (b[i] == 45 ? -1 : 1)
      i += 6
    } else {
      return nil
    }
    guard i == b.count else { return nil }
    let days = daysSince1970(year: year, month: month) + day - 1
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Double(seconds) + fraction
  }

  /// Days from 1970-01-01 to the first of `month` in `year` (proleptic Gregorian), after
  /// Howard Hinnant's `days_from_civil`.
  private static func daysSince1970(year: Int, month: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

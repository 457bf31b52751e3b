import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

extension Date {
  /// ISO-8601 UTC with milliseconds (`2026-11-22T10:15:00.123Z`), the form every record uses.
  public var iso8601: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    JSONBytes.appendISO8601(timeIntervalSince1970, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else.
  public init?(iso8601 text: String) {
    let b = Array(text.utf8)
    func number(_ at: Int, _ count: Int) -> Int? {
      guard at + count <= b.count else { return nil }
      var value = 0
      for i in at..<(at + count) {
        let digit = Int(b[i]) - 48
        guard (0...9).contains(digit) else { return nil }
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
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    let epoch = timegm(&parts)
    self.init(timeIntervalSince1970: Double(epoch - offset) + fraction)
  }
}

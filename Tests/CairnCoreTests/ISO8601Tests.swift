import CairnJSON
import Foundation
import Testing

@Suite struct ISO8601Tests {
  @Test(arguments: [
    ("2026-11-22T10:15:00Z", 1_795_342_500.0),
    ("2026-11-22T10:15:00.250Z", 1_795_342_500.25),
    ("2026-11-22T11:15:00+01:00", 1_795_342_500.0),
    ("2026-11-22T05:15:00.000-05:00", 1_795_342_500.0),
  ])
  func parsesOffsetsAndFractions(_ text: String, _ seconds: Double) throws {
    let date = try #require(Date(iso8601: text))
    #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
  }

  @Test(arguments: ["2026-11-22T10:15:00", "2026-13-01T00:00:00Z", "yesterday", "2026-11-22"])
  func refusesDatesWithoutAZoneOrOutOfRange(_ text: String) {
    #expect(Date(iso8601: text) == nil)
  }

  @Test func formatsMillisecondsInUTC() {
    #expect(Date(timeIntervalSince1970: 1_795_342_500.123).iso8601 == "2026-11-22T10:15:00.123Z")
    #expect(Date(timeIntervalSince1970: 0.9996).iso8601 == "1970-01-01T00:00:01.000Z")
  }

  @Test func formattingRoundTrips() throws {
    for seconds in stride(from: -86_400.0 * 400, to: 4_102_444_800, by: 7_777_777.125) {
      let date = Date(timeIntervalSince1970: seconds)
      let again = try #require(Date(iso8601: date.iso8601))
      #expect(abs(again.timeIntervalSince1970 - seconds) < 0.001)
    }
  }
}

/// The parser's arithmetic against the C library's `timegm`, which it replaced.
@Suite struct ISO8601ArithmeticTests {
  @Test func agreesWithTimegmOnEveryDayAndOverflow() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let year = Int.random(in: 0...9999, using: &generator)
      let month = Int.random(in: 1...12, using: &generator)
      let day = Int.random(in: 1...31, using: &generator)  // February 31 carries over
      let hour = Int.random(in: 0...23, using: &generator)
      let minute = Int.random(in: 0...59, using: &generator)
      let second = Int.random(in: 0...60, using: &generator)  // a leap second carries over
      let text = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, hour, minute, second)
      var parts = tm()
      parts.tm_year = Int32(year - 1900)
      parts.tm_mon = Int32(month - 1)
      parts.tm_mday = Int32(day)
      parts.tm_hour = Int32(hour)
      parts.tm_min = Int32(minute)
      parts.tm_sec = Int32(second)
      let expected = Double(timegm(&parts))
      let date = try #require(Date(iso8601: text), "\(text)")
      #expect(date.timeIntervalSince1970 == expected, "\(text)")
    }
  }

  @Test func readsBytesAsItReadsText() {
    for text in ["2026-11-22T10:15:00.5+01:00", "2026-02-30T00:00:00Z", "2026-11-22", "x"] {
      let valid = Array(text.utf8).withUnsafeBufferPointer { Date.isISO8601($0) }
      #expect(valid == (Date(iso8601: text) != nil), "\(text)")
    }
  }
}

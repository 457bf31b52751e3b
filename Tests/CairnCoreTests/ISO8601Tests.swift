import CairnCore
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

import CairnJSON
import CairnRuns
import Foundation
import Testing

struct RunIDTests {
  @Test func formatsAsUTCSecondsAndHost() throws {
    let date = try #require(Date(iso8601: "2026-11-22T10:15:00.734Z"))
    let id = RunID(started: date, host: "3f2a9c1b")
    #expect(id.description == "2026-11-22T10:15:00Z-3F2A9C1B")
  }

  @Test func parsesWhatItPrints() throws {
    let id = try #require(RunID("2026-11-22T10:15:00Z-3F2A9C1B"))
    #expect(id.host == "3F2A9C1B")
    #expect(id.description == "2026-11-22T10:15:00Z-3F2A9C1B")
  }

  @Test(arguments: [
    "", "2026-11-22T10:15:00Z", "2026-11-22T10:15:00.000Z-3F2A9C1B", "2026-11-22T10:15:00Z-3F2A9C1",
    "2026-11-22T10:15:00Z-3f2a9c1b", "2026-11-22T10:15:00Z-3F2A9C1BX", "holiday-2024",
  ])
  func rejectsAnythingElse(_ text: String) {
    #expect(RunID(text) == nil)
  }

  @Test func nextIsLaterThanEveryRunOfThisHostInTheSameSecond() throws {
    let now = try #require(Date(iso8601: "2026-11-22T10:15:00Z"))
    let first = RunID.next(now: now, host: "AAAAAAAA")
    let second = RunID.next(now: now, host: "AAAAAAAA", after: [first])
    #expect(second > first)
    #expect(second.description == "2026-11-22T10:15:01Z-AAAAAAAA")
  }

  @Test func hostIDIsStableEightHexAndHidesTheName() {
    let a = HostID.derive(machineID: "4c4c4544004d3510", hostName: "laptop")
    #expect(a == HostID.derive(machineID: "4c4c4544004d3510", hostName: "other"))
    #expect(a.count == 8 && a.allSatisfy { $0.isHexDigit && !$0.isLowercase })
    #expect(a != HostID.derive(machineID: nil, hostName: "laptop"))
    #expect(!a.lowercased().contains("4c4c"))
    #expect(HostID.current.count == 8)
  }
}

struct RunTagTests {
  @Test func valueIsVersionedPath() throws {
    let id = try #require(RunID("2026-11-22T10:15:00Z-3F2A9C1B"))
    #expect(RunTag(id).value == "cairn/v1/run/2026-11-22T10:15:00Z-3F2A9C1B")
  }

  @Test(arguments: [
    ("cairn/v1/run/2026-11-22T10:15:00Z-3F2A9C1B", true),
    ("cairn/v1/run/holiday", false),
    ("cairn/v2/run/2026-11-22T10:15:00Z-3F2A9C1B", false),
    ("cairn/v1/run", false),
    ("people/cairn/v1/run/2026-11-22T10:15:00Z-3F2A9C1B", false),
    ("cairn/v1/run/2026-11-22T10:15:00Z-3F2A9C1B/extra", false),
  ])
  func parsesOnlyTagsCairnMade(_ value: String, _ ours: Bool) {
    #expect((RunTag(value: value) != nil) == ours)
  }
}

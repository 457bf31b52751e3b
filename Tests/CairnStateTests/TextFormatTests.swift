import CairnJSON
import Foundation
import Testing

@testable import CairnState

@Suite struct TextFormatTests {
  @Test func trashInfoGivesDecodedPathAndLocalDate() throws {
    let text = """
      [Trash Info]
      Path=/home/ann/Photos/2024/summer%20trip/IMG%201.jpg
      DeletionDate=2026-11-20T10:15:00
      """
    let utc = try #require(TimeZone(identifier: "UTC"))
    let info = try #require(TrashInfo(text, timeZone: utc))
    #expect(info.path == "/home/ann/Photos/2024/summer trip/IMG 1.jpg")
    #expect(info.deletionDate == Date(iso8601: "2026-11-20T10:15:00Z"))
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    #expect(
      TrashInfo(text, timeZone: berlin)?.deletionDate == Date(iso8601: "2026-11-20T09:15:00Z"))
    #expect(TrashInfo("[Trash Info]\nDeletionDate=2026-11-20T10:15:00") == nil)
  }

  @Test func syncthingVersionNamesGiveTheOriginalPathAndTheStamp() throws {
    let utc = try #require(TimeZone(identifier: "UTC"))
    let version = try #require(
      TrashSignals.syncthingVersion("/2025/IMG~1~20251124-101500.jpg", timeZone: utc))
    #expect(version.path == "/2025/IMG~1.jpg")
    #expect(version.stamp == Date(iso8601: "2025-11-24T10:15:00Z"))
    #expect(
      TrashSignals.syncthingVersion("/noext~20251124-101500", timeZone: utc)?.path == "/noext")
    #expect(TrashSignals.syncthingVersion("/a.jpg", timeZone: utc) == nil)
    #expect(TrashSignals.syncthingVersion("/a~2025.jpg", timeZone: utc) == nil)
  }

  @Test func checksumListsAcceptSha1sumAndBase64() throws {
    let list = """
      # from sha1sum
      da39a3ee5e6b4b0d3255bfef95601890afd80709  empty.jpg
      \\da39a3ee5e6b4b0d3255bfef95601890afd80709  odd\\nname.jpg
      2jmj7l5rSw0yVb/vlWAYkK/YBwk=

      """
    #expect(
      try ChecksumText.parseList(list) == Array(repeating: "2jmj7l5rSw0yVb/vlWAYkK/YBwk=", count: 3)
    )
    #expect(throws: ChecksumText.ListError.self) { try ChecksumText.parseList("nope\n") }
  }
}

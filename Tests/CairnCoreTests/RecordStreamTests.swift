import CairnRecords
import CairnStream
import CairnTestSupport
import Foundation
import Testing

@Suite struct RecordStreamTests {
  private let header = #"{"type":"header","schema":"1.0","tool":"cairn-hash","roots":["/p"]}"#
  private let end = #"{"type":"end","tool":"cairn-hash","complete":true,"errors":0}"#
  private let file =
    #"{"type":"file","path":"/p/a.jpg","root":"/p","size":1,"mtime":"2026-01-01T00:00:00Z","checksum":"x"}"#

  /// A reader over `text`, through a real file descriptor as a tool would see it.
  private func stream(_ text: String) throws -> (RecordReader, TemporaryDirectory) {
    let folder = TemporaryDirectory()
    let path = try folder.file("input.ndjson", StreamText.counted(text))
    return (try RecordReader(path: path), folder)
  }

  private func drain(_ text: String) throws -> RecordStream {
    let (reader, folder) = try stream(text)
    defer { withExtendedLifetime(folder) {} }
    let records = try RecordStream(reader: reader)
    while try records.next() != nil {}
    return records
  }

  @Test func aCompleteStreamPasses() throws {
    let records = try drain([header, file, end].joined(separator: "\n") + "\n")
    #expect(records.header.tool == "cairn-hash")
    #expect(records.header.roots == ["/p"])
    #expect(records.end?.complete == true)
    try records.requireComplete()
  }

  @Test func blankLinesAreSkippedAndLineNumbersStayTrue() throws {
    let text = header + "\n\n" + #"{"type":"file","path":7}"# + "\n" + end + "\n"
    let (reader, folder) = try stream(text)
    defer { withExtendedLifetime(folder) {} }
    let records = try RecordStream(reader: reader)
    let line = try #require(try records.next())
    #expect(line.number == 3)
    let error = #expect(throws: CairnError.self) { try records.decode(FileRecord.self, line) }
    #expect(error?.status == .malformedInput)
    #expect(
      error?.description.hasSuffix(
        "input.ndjson:3: invalid file record: field 'path' must be a string") == true)
  }

  @Test func aMissingHeaderIsMalformed() throws {
    let error = #expect(throws: CairnError.self) { try drain(file + "\n" + end + "\n") }
    #expect(error?.status == .malformedInput)
    #expect(error?.message.contains("expected a header record first") == true)
  }

  @Test func emptyInputIsMalformed() throws {
    let error = #expect(throws: CairnError.self) { try drain("") }
    #expect(error?.message.contains("empty input") == true)
  }

  @Test func aNewerSchemaIsRefused() throws {
    let newer = header.replacingOccurrences(of: "\"1.0\"", with: "\"2.0\"")
    let error = #expect(throws: CairnError.self) { try drain(newer + "\n" + end + "\n") }
    #expect(error?.status == .malformedInput)
    #expect(error?.message.contains("newer than this cairn understands") == true)
  }

  @Test func aNewerMinorSchemaIsAccepted() throws {
    let newer = header.replacingOccurrences(of: "\"1.0\"", with: "\"1.7\"")
    try drain(newer + "\n" + end + "\n").requireComplete()
  }

  @Test func aStreamWithoutAnEndIsTruncated() throws {
    let records = try drain(header + "\n" + file + "\n")
    let error = #expect(throws: CairnError.self) { try records.requireComplete() }
    #expect(error?.status == .malformedInput)
    #expect(error?.message.contains("truncated stream") == true)
  }

  @Test func aLastLineWithoutNewlineIsTruncated() throws {
    let error = #expect(throws: CairnError.self) { try drain(header + "\n" + #"{"type":"fi"#) }
    #expect(error?.status == .malformedInput)
    #expect(error?.description.contains(":2: truncated stream") == true)
  }

  @Test func recordsAfterTheEndAreMalformed() throws {
    let error = #expect(throws: CairnError.self) {
      try drain([header, end, file].joined(separator: "\n") + "\n")
    }
    #expect(error?.description.contains(":3: record after the end record") == true)
  }

  @Test func anIncompleteOrErrorCarryingStreamIsRefused() throws {
    let incomplete = end.replacingOccurrences(of: "true", with: "false")
    let refused = #expect(throws: CairnError.self) {
      try drain(header + "\n" + incomplete + "\n").requireComplete()
    }
    #expect(refused?.status == .refused)

    let error = #"{"type":"error","tool":"cairn-hash","message":"Permission denied","path":"/p/x"}"#
    let counted = end.replacingOccurrences(of: #""errors":0"#, with: #""errors":1"#)
    let records = try drain([header, error, counted].joined(separator: "\n") + "\n")
    #expect(records.errors.map(\.path) == ["/p/x"])
    #expect(throws: CairnError.self) { try records.requireComplete() }
  }

  @Test func longLinesGrowTheBuffer() throws {
    let longPath = "/p/" + String(repeating: "x", count: 3 << 20) + ".jpg"
    let line = file.replacingOccurrences(of: "/p/a.jpg", with: longPath)
    let (reader, folder) = try stream(header + "\n" + line + "\n" + end + "\n")
    defer { withExtendedLifetime(folder) {} }
    let records = try RecordStream(reader: reader)
    let read = try #require(try records.next())
    #expect(try records.decode(FileRecord.self, read).path == longPath)
  }
}

import CairnRecords
import CairnStream
import CairnTestSupport
import Foundation
import Testing

/// The stream contract every stage reads through (`RecordStream`): per-type counts, abort
/// records, bounds, and what may follow the end.
@Suite struct StreamContractTests {
  private let header = #"{"type":"header","schema":"1.1","tool":"cairn-hash","roots":["/p"]}"#
  private func file(_ name: String) -> String {
    #"{"type":"file","path":"/p/\#(name)","root":"/p","size":1,"mtime":"2026-01-01T00:00:00Z","checksum":"x"}"#
  }
  private let error =
    #"{"type":"error","tool":"cairn-hash","message":"Permission denied","path":"/p/x"}"#
  private func end(_ records: String?, errors: Int = 0, counts: String = "{}") -> String {
    #"{"type":"end","tool":"cairn-hash","complete":true,"errors":\#(errors),"counts":\#(counts)"#
      + (records.map { #","records":"# + $0 } ?? "") + "}"
  }

  private func drain(_ lines: [String]) throws -> RecordStream {
    try drain(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
  }

  private func drain(bytes: [UInt8], countRule: CountRule = .exact) throws -> RecordStream {
    let folder = TemporaryDirectory()
    let path = try folder.file("input.ndjson", contents: bytes)
    let stream = try RecordStream(reader: RecordReader(path: path), countRule: countRule)
    while try stream.next() != nil {}
    return stream
  }

  private func malformed(_ lines: [String]) -> CairnError? {
    let error = #expect(throws: CairnError.self) { try drain(lines) }
    #expect(error?.status == .malformedInput)
    return error
  }

  @Test func countsThatMatchPass() throws {
    let stream = try drain([
      header, file("a"), error, file("b"), end(#"{"error":1,"file":2}"#, errors: 1),
    ])
    #expect(stream.end?.records == ["file": 2, "error": 1])
  }

  /// A scan that says it had errors and carries none of them is malformed, whether
  /// its total is `errors` or `counts.errors`; one that carries them is read, and refused as
  /// incomplete by a stage that can lead to a deletion.
  @Test func errorTotalsMustBeTheErrorRecords() throws {
    let total = malformed([header, file("a"), end(#"{"file":1}"#, errors: 3)])
    #expect(total?.message.contains("end record's errors is 3, but the stream carried 0") == true)
    let counted = malformed([
      header, file("a"), end(#"{"file":1}"#, counts: #"{"errors":3,"files":1}"#),
    ])
    #expect(counted?.message.contains("counts.errors is 3, but the stream carried 0") == true)
    _ = malformed([header, error, end(#"{"error":1}"#, errors: 0)])

    let carried = try drain([
      header, file("a"), error, end(#"{"error":1,"file":1}"#, errors: 1, counts: #"{"errors":1}"#),
    ])
    #expect(carried.errors.count == 1)
    let refused = #expect(throws: CairnError.self) { try carried.requireComplete() }
    #expect(refused?.status == .refused)
  }

  /// `cairn-trash`'s output counts the items that failed in `errors`: the stages that act on
  /// results read it as it is.
  @Test func resultReadersTakeAFailureTotal() throws {
    let lines = [header, end("{}", errors: 2)].joined(separator: "\n") + "\n"
    let stream = try drain(bytes: Array(lines.utf8), countRule: .assetSelection)
    #expect(stream.end?.errors == 2)
  }

  @Test func aLostLineIsMalformedAndSaysWhichTypeAndBothCounts() {
    let error = malformed([header, file("a"), end(#"{"file":2}"#)])
    #expect(
      error?.description.contains(
        ":3: the end record counts 2 'file' record(s), but the stream carried 1") == true)
  }

  @Test func anAddedLineIsMalformed() {
    let error = malformed([header, file("a"), file("a"), end(#"{"file":1}"#)])
    #expect(error?.message.contains("counts 1 'file' record(s), but the stream carried 2") == true)
  }

  @Test func aTypeTheEndDoesNotCountIsMalformed() {
    let error = malformed([header, file("a"), error, end(#"{"file":1}"#)])
    #expect(error?.message.contains("counts 0 'error' record(s), but the stream carried 1") == true)
  }

  @Test func aReaderThatAcceptsPartsTakesFewerOfThoseTypesAndSaysHowManyWereLeftOut() throws {
    let lines = [header, file("a"), end(#"{"file":3}"#)]
    let stream = try drain(
      bytes: Array((lines.joined(separator: "\n") + "\n").utf8), countRule: .subset(of: ["file"]))
    #expect(stream.filteredOut == ["file": 2])
    let whole = try drain(
      bytes: Array(([header, file("a"), end(#"{"file":1}"#)].joined(separator: "\n") + "\n").utf8),
      countRule: .subset(of: ["file"]))
    #expect(whole.filteredOut.isEmpty)
  }

  @Test func aPartNeverHasMoreLinesNorFewerErrorsThanItsEndCounts() {
    func read(_ lines: [String]) -> CairnError? {
      let error = #expect(throws: CairnError.self) {
        try drain(
          bytes: Array((lines.joined(separator: "\n") + "\n").utf8),
          countRule: .subset(of: ["file", "error"]))
      }
      #expect(error?.status == .malformedInput)
      return error
    }
    let added = read([header, file("a"), file("b"), end(#"{"file":1}"#)])
    #expect(added?.message.contains("counts 1 'file' record(s), but the stream carried 2") == true)
    // An error record is never filtered out: a dropped one would hide an incomplete scan.
    let dropped = read([header, file("a"), end(#"{"error":1,"file":1}"#)])
    #expect(
      dropped?.message.contains("counts 1 'error' record(s), but the stream carried 0") == true)
  }

  @Test(arguments: [
    (#""errors":-1"#, "errors is -1"),
    (#""errors":0,"counts":{"files":-4}"#, "counts.files is -4"),
    (#""errors":0,"records":{"file":-1}"#, "records.file is -1"),
    (#""errors":0,"records":{"file":1,"header":1}"#, "records.header is 1"),
    (
      #""errors":0,"roots":[{"path":"/p","complete":true,"files":-1}]"#,
      "root /p holds -1 files"
    ),
  ])
  func anEndWithImpossibleStatisticsIsMalformed(_ field: String, _ said: String) {
    var end = #"{"type":"end","tool":"cairn-hash","complete":true,"# + field
    if !field.contains("records") { end += #","records":{"file":1}"# }
    end += "}"
    for rule in [CountRule.exact, .subset(of: ["file"])] {
      let error = #expect(throws: CairnError.self) {
        try drain(
          bytes: Array(([header, file("a"), end].joined(separator: "\n") + "\n").utf8),
          countRule: rule)
      }
      #expect(error?.status == .malformedInput)
      #expect(error?.description.contains(":3: the end record is impossible: \(said)") == true)
    }
  }

  @Test func anEndWithoutCountsIsMalformed() {
    let error = malformed([header, file("a"), end(nil)])
    #expect(error?.message.contains("no 'records' counts") == true)
  }

  @Test func aSecondHeaderIsMalformed() {
    let error = malformed([header, file("a"), header, end(#"{"file":1}"#)])
    #expect(error?.message.contains("a second header") == true)
  }

  @Test func aRecordAfterTheEndIsMalformed() {
    let error = malformed([header, end("{}"), file("a")])
    #expect(error?.description.contains(":3: record after the end record") == true)
  }

  @Test(arguments: [
    ("duplicate key", #"{"type":"file","type":"file"}"#),
    ("lone surrogate", #"{"type":"file","path":"/p/\udc01"}"#),
    ("escaped NUL", #"{"type":"file","path":"/p/\u0000"}"#),
    ("bare CR", "{\"type\":\"file\",\r\"path\":\"/p/a\"}"),
    ("CR before the newline", "{\"type\":\"file\",\"path\":\"/p/a\"}\r"),
  ])
  func aMalformedLineStopsTheStream(_ name: String, _ line: String) {
    let error = malformed([header, line, end(#"{"file":1}"#)])
    #expect(error?.description.contains(":2: invalid record") == true, "\(name)")
  }

  @Test func aCarriageReturnIsNamed() {
    let error = malformed([header, file("a") + "\r", end(#"{"file":1}"#)])
    #expect(error?.message.contains("carriage return") == true)
  }

  @Test func rawNULAndInvalidUTF8AreMalformed() {
    for bad: [UInt8] in [[0x00], [0xC3], [0xED, 0xA0, 0x80], [0xFF]] {
      let line = Array(#"{"type":"file","path":"/p/"#.utf8) + bad + Array(#""}"#.utf8)
      let bytes =
        Array((header + "\n").utf8) + line + [0x0A] + Array((end(#"{"file":1}"#) + "\n").utf8)
      let error = #expect(throws: CairnError.self) { try drain(bytes: bytes) }
      #expect(error?.status == .malformedInput, "\(bad)")
    }
  }

  @Test func aLineBeyondTheBoundIsMalformed() {
    let long = String(repeating: "x", count: RecordReader.maximumLineLength)
    let error = malformed([header, file(long), end(#"{"file":1}"#)])
    #expect(
      error?.description.contains(":2: invalid record: the line is longer than 8 MiB") == true)
  }

  @Test func hostileNestingIsMalformedNotACrash() {
    let deep = #"{"type":"file","x":"# + String(repeating: "[", count: 200_000)
    let error = malformed([header, deep, end("{}")])
    #expect(error?.message.contains("nested deeper than 32 levels") == true)
  }

  @Test func anAbortRecordStopsWithItsStatus() {
    let abort =
      #"{"type":"abort","tool":"cairn-gate","status":25,"message":"refused by the threshold rail"}"#
    let error = #expect(throws: CairnError.self) { try drain([header, file("a"), abort]) }
    #expect(error?.status == .refused)
    #expect(error?.abort?.tool == "cairn-gate")
    #expect(error?.abort?.message == "refused by the threshold rail")
    #expect(error?.message.contains("cairn-gate failed (exit status 25)") == true)
  }

  @Test func anAbortInsteadOfAHeaderIsTheAbort() {
    let abort = #"{"type":"abort","tool":"cairn-fetch","status":69,"message":"connection refused"}"#
    let error = #expect(throws: CairnError.self) { try drain([abort]) }
    #expect(error?.status == .serverFailure)
    #expect(error?.abort != nil)
  }

  @Test func anAbortAfterTheEndIsStillTheAbort() {
    let abort = #"{"type":"abort","tool":"cairn-trash","status":69,"message":"x"}"#
    let error = #expect(throws: CairnError.self) { try drain([header, end("{}"), abort]) }
    #expect(error?.status == .serverFailure)
  }

  @Test(arguments: [
    #"{"type":"abort","tool":"cairn-gate","status":0,"message":"x"}"#,
    #"{"type":"abort","tool":"cairn-gate","status":3,"message":"x"}"#,
    #"{"type":"abort","tool":"cairn-gate","message":"x"}"#,
  ])
  func anAbortWithoutAStatusOfCairnsIsMalformed(_ abort: String) {
    let error = malformed([header, abort])
    #expect(error?.message.contains("invalid abort record") == true)
  }

  @Test func theWriterCountsWhatItWrites() throws {
    let folder = TemporaryDirectory()
    let path = folder.path + "/out.ndjson"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(fd >= 0)
    let writer = RecordWriter(fileDescriptor: fd)
    writer.write(HeaderRecord(tool: "cairn-hash", roots: ["/p"]))
    writer.writeLine(Array(file("a").utf8), type: FileRecord.recordType)
    writer.write(ErrorRecord(tool: "cairn-hash", message: "denied", path: "/p/x"))
    writer.writeLine(Array(file("b").utf8), type: FileRecord.recordType)
    writer.write(EndRecord(tool: "cairn-hash", complete: false, errors: 1))
    writer.flush()
    close(fd)
    let stream = try RecordStream(reader: RecordReader(path: path))
    while try stream.next() != nil {}
    #expect(stream.end?.records == ["file": 2, "error": 1])
    #expect(stream.header.schema == Schema.current)
  }
}

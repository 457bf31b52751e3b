import CairnEngine
import CairnStateTestSupport
import CairnStream
import CairnTestSupport
import CairnTool
import Foundation
import Testing

@testable import CairnReconcile
@testable import CairnState

/// A scan read with the last scan's snapshot at hand passes over the lines it recognises; it
/// must read exactly what parsing every line reads, whatever changed between the scans.
@Suite struct ScanInputTests {
  private let header = #"{"type":"header","schema":"1.0","tool":"cairn-hash","roots":["/lib"]}"#
  private let end = #"{"type":"end","tool":"cairn-hash","complete":true,"errors":0}"#

  private func line(_ name: String, _ checksum: String, inode: Int, mtime: String = "01") -> String
  {
    #"{"type":"file","path":"/lib/\#(name)","root":"/lib","size":1,"mtime":"2026-01-\#(mtime)T00:00:00Z","checksum":"\#(checksum)","dev":1,"ino":\#(inode)}"#
  }

  /// The library before: files a00…a99 in walk order.
  private var before: [String] {
    (0..<100).map { line(String(format: "a%02d.jpg", $0), "C\($0)", inode: $0) }
  }

  private func read(_ lines: [String], previous: ScanSnapshot? = nil) throws -> ScanInput {
    let folder = TemporaryDirectory()
    let path = try folder.file(
      "scan.ndjson", StreamText.counted(([header] + lines + [end]).joined(separator: "\n") + "\n"))
    return try withExtendedLifetime(folder) {
      let stream = try RecordStream(reader: try RecordReader(path: path))
      guard let previous else { return try ScanInput.read(stream) }
      let loading = BackgroundWork("test-snapshot") { ScanSnapshotPreload(scan: previous) }
      _ = try loading.value()
      return try ScanInput.read(stream, previous: loading)
    }
  }

  private func snapshot(of lines: [String]) throws -> ScanSnapshot {
    let files = try read(lines).files
    let bytes = try ScanSnapshot.Contents(
      roots: ["/lib"], files: files, absent: [], sharedIdentities: []
    )
    .encoded()
    return try #require(ScanSnapshot.decode(bytes))
  }

  @Test(arguments: ScanChange.allCases)
  func readsWhatParsingEveryLineReads(_ change: ScanChange) throws {
    let previous = try snapshot(of: before)
    let after = change.apply(to: before, line: line)
    let parsed = try read(after)
    let hinted = try read(after, previous: previous)
    #expect(hinted.files == parsed.files)
    #expect(hinted.files.map(\.lineDigest) == parsed.files.map(\.lineDigest))
    #expect(parsed.recognised == 0)
    #expect(hinted.recognised >= change.leastRecognised, "\(hinted.recognised)")
    #expect(hinted.end == parsed.end && hinted.errors == parsed.errors)
  }

  @Test func aLineThatMatchesAfterTheEndIsStillRefused() throws {
    let previous = try snapshot(of: before)
    #expect(throws: CairnError.self) {
      try read(before + [end] + [before[0]], previous: previous)
    }
  }

  @Test func aSnapshotWithoutLineDigestsOnlyCostsTheParse() throws {
    // Files recorded without their lines (as tests and older stores make them).
    var files = Array(try read(before).files)
    for index in files.indices { files[index].lineDigest = nil }
    let bytes = try ScanSnapshot.Contents(
      roots: ["/lib"], files: ScanFiles(files), absent: [], sharedIdentities: []
    )
    .encoded()
    let hinted = try read(before, previous: try #require(ScanSnapshot.decode(bytes)))
    #expect(hinted.recognised == 0)
    #expect(Array(hinted.files) == files)
  }
}

/// What happens to the library between the snapshot's scan and the next.
enum ScanChange: String, CaseIterable, CustomTestStringConvertible {
  case none, deletions, folderDeleted, additions, edits, touched, renamed, reversed,
    shuffledRoots, blankLines

  var testDescription: String { rawValue }

  func apply(
    to lines: [String], line: (String, String, Int, String) -> String
  ) -> [String] {
    switch self {
    case .none:
      return lines
    case .deletions:
      return lines.enumerated().filter { $0.offset % 7 != 3 }.map(\.element)
    case .folderDeleted:
      return Array(lines[..<20] + lines[60...])
    case .additions:
      var result: [String] = []
      for (index, old) in lines.enumerated() {
        result.append(old)
        if index % 10 == 4 {
          result.append(
            line(String(format: "a%02d-new.jpg", index), "N\(index)", 1000 + index, "01"))
        }
      }
      return result
    case .edits:
      // Same paths and inodes, other bytes.
      return lines.enumerated().map { index, old in
        index % 9 == 0 ? line(String(format: "a%02d.jpg", index), "E\(index)", index, "01") : old
      }
    case .touched:
      // Same bytes, another mtime: the line differs, the file does not.
      return lines.enumerated().map { index, old in
        index % 5 == 0 ? line(String(format: "a%02d.jpg", index), "C\(index)", index, "02") : old
      }
    case .renamed:
      // The same checksum and inode under another name (sorted after every other file).
      return lines.enumerated().map { index, old in
        index % 11 == 0 ? line(String(format: "z%02d.jpg", index), "C\(index)", index, "01") : old
      }
    case .reversed:
      return lines.reversed()
    case .shuffledRoots:
      return Array(lines[50...] + lines[..<50])
    case .blankLines:
      return lines.flatMap { [$0, ""] }
    }
  }

  /// How many lines at least should be passed over (reading is free to parse more).
  var leastRecognised: Int {
    switch self {
    case .none, .blankLines: return 100
    case .deletions: return 86  // every line that is left
    case .folderDeleted: return 59
    case .additions: return 100
    case .renamed: return 90
    case .edits: return 88
    case .touched: return 80
    case .shuffledRoots: return 49
    case .reversed: return 0
    }
  }
}

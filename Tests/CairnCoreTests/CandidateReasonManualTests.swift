import CairnJSON
import CairnRecords
import Foundation
import Testing

/// `CandidateReason` is the one list of candidate reasons; cairn-records(5) documents every one
/// in the list of the candidate's `reason` field. This reads the page's mdoc source and fails
/// on any difference, as `SettingsTableTests` does for cairn(7).
@Suite struct CandidateReasonManualTests {
  /// The entries of the list nested in the `.It Li reason` entry of cairn-records(5): each
  /// code with its words, escapes and the macros' names dropped.
  static func documentedReasons() throws -> [(code: String, text: String)] {
    let source = try String(
      contentsOfFile: ExitStatusManualTests.manFolder + "/cairn-records.5", encoding: .utf8)
    let lines = source.replacingOccurrences(of: "\\", with: "").split(separator: "\n")
      .map(String.init)
    let field = try #require(lines.firstIndex(of: ".It Li reason"), "no .It Li reason")
    let list = try #require(
      lines[field...].firstIndex { $0.hasPrefix(".Bl") }, "no list in the reason entry")
    var entries: [(code: String, text: String)] = []
    for line in lines[(list + 1)...] {
      if line.hasPrefix(".El") { break }
      let words = line.split(separator: " ")
      if line.hasPrefix(".It Li ") {
        entries.append((String(words[2]), ""))
      } else if !entries.isEmpty {
        let text = (line.hasPrefix(".") ? Array(words.dropFirst()) : words).joined(separator: " ")
        entries[entries.count - 1].text +=
          (entries[entries.count - 1].text.isEmpty ? "" : " ") + text
      }
    }
    return entries
  }

  @Test func cairnRecords5DocumentsEveryReasonAndNoOther() throws {
    let documented = try Self.documentedReasons()
    #expect(documented.map(\.code).sorted() == CandidateReason.allCases.map(\.rawValue).sorted())
    #expect(Set(documented.map(\.code)).count == documented.count)
    for (code, text) in documented {
      #expect(!text.isEmpty, "cairn-records(5) names reason \(code) without saying what it means")
    }
  }

  /// A code this build does not know (a newer writer's) still reads, and is written back as it
  /// came: the record keeps the string.
  @Test func aReasonThisBuildDoesNotKnowPassesThrough() throws {
    let line =
      #"{"type":"candidate","assetId":"a","checksum":"c","bucket":"pending","reason":"from-the-future","paths":[]}"#
    let record = try CandidateRecord(JSONObject(parsing: Array(line.utf8)))
    #expect(record.reason == "from-the-future")
    #expect(record.knownReason == nil)
    var writer = JSONObjectWriter()
    record.writeFields(to: &writer)
    #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#""reason":"from-the-future""#))
  }
}

import CairnSupport
import Foundation
import Testing

/// `ExitStatus` is the one table of exit statuses; `man/cairn.7` documents it and every tool's
/// page lists the ones that tool uses. These read the pages' mdoc source and fail on any
/// difference.
@Suite struct ExitStatusManualTests {
  static let manFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("man").path

  /// The entries of the first list in a page's EXIT STATUS section: each `.It N` with the text
  /// up to the next entry, the macros' names dropped (`.Li error` reads `error`).
  static func exitStatuses(ofPage name: String) throws -> [(status: Int32, text: String)] {
    let source = try String(contentsOfFile: manFolder + "/" + name, encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex(of: ".Sh EXIT STATUS"), "\(name): no EXIT STATUS")
    var entries: [(status: Int32, text: String)] = []
    var inList = false
    for line in lines[(start + 1)...] {
      if line.hasPrefix(".Sh ") || (inList && line.hasPrefix(".El")) { break }
      if line.hasPrefix(".Bl") {
        inList = true
      } else if line.hasPrefix(".It ") {
        let number = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
        entries.append((try #require(Int32(number), "\(name): '\(line)'"), ""))
      } else if inList, !entries.isEmpty {
        let words = line.hasPrefix(".") ? line.split(separator: " ").dropFirst() : [Substring(line)]
        entries[entries.count - 1].text +=
          (entries[entries.count - 1].text.isEmpty ? "" : " ")
          + words.joined(separator: " ")
      }
    }
    return entries
  }

  @Test func cairn7ListsEveryStatusWithItsMeaningAndNoOther() throws {
    let documented = try Self.exitStatuses(ofPage: "cairn.7")
    #expect(documented.map(\.status) == ExitStatus.allCases.map(\.rawValue))
    for (status, text) in documented {
      guard let known = ExitStatus(rawValue: status) else {
        Issue.record("cairn(7) documents exit status \(status), which ExitStatus lacks")
        continue
      }
      #expect(
        text.lowercased().hasPrefix(known.meaning.lowercased()),
        "cairn(7) says of \(status): '\(text)'; ExitStatus.\(known) means '\(known.meaning)'")
    }
  }

  @Test func everyToolPageListsOnlyStatusesThatExist() throws {
    let pages = try FileManager.default.contentsOfDirectory(atPath: Self.manFolder)
      .filter { ($0.hasPrefix("cairn-") || $0 == "cairn.1") && $0.hasSuffix(".1") }
    #expect(pages.count >= 8)
    for page in pages {
      let documented = try Self.exitStatuses(ofPage: page)
      #expect(!documented.isEmpty, "\(page): no exit statuses listed")
      for (status, _) in documented {
        #expect(ExitStatus(rawValue: status) != nil, "\(page) lists exit status \(status)")
      }
    }
  }
}

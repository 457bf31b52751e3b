import CairnRecords
import CairnSettings
import CairnStream
import Foundation
import Testing

/// `SettingsTable` is the one definition of each setting; cairn(7) documents every one with its
/// default, and the page of the tool that has its flag lists the flag. These read the pages'
/// mdoc source and fail on any difference, as `ExitStatusManualTests` does for exit statuses.
@Suite struct SettingsTableTests {
  /// The words of the `.It` entry that starts with `head`, up to the next entry, the macros'
  /// names and escapes dropped (`.Cm strict ;` reads `strict ;`).
  static func entry(_ head: String, ofPage name: String) throws -> String? {
    let source = try String(
      contentsOfFile: ExitStatusManualTests.manFolder + "/" + name, encoding: .utf8)
    let lines = source.replacingOccurrences(of: "\\", with: "").split(separator: "\n")
      .map(String.init)
    guard let start = lines.firstIndex(where: { $0.hasPrefix(head) }) else { return nil }
    var words: [Substring] = []
    for line in lines[(start + 1)...] {
      if line.hasPrefix(".It ") || line.hasPrefix(".El") || line.hasPrefix(".Sh ") { break }
      let lineWords = line.split(separator: " ")
      words += line.hasPrefix(".") ? Array(lineWords.dropFirst()) : lineWords
    }
    return words.joined(separator: " ")
  }

  @Test(arguments: SettingsTable.all.map(\.key))
  func cairn7DocumentsTheSettingWithItsDefault(key: String) throws {
    let setting = try #require(SettingsTable.all.first { $0.key == key })
    let text = try #require(
      try Self.entry(".It Ev \(key)", ofPage: "cairn.7"), "cairn.7 has no .It Ev \(key)")
    #expect(text.contains("default \(setting.fallbackText)"), "cairn.7 on \(key): \(text)")
  }

  /// Each flag is on the page of the one tool that applies it.
  @Test(arguments: [
    (SettingsTable.quarantineDays.entry, "cairn-reconcile.1"),
    (SettingsTable.strictness.entry, "cairn-reconcile.1"),
    (SettingsTable.thresholdPercent.entry, "cairn-gate.1"),
    (SettingsTable.floor.entry, "cairn-gate.1"),
  ])
  func theToolsPageDocumentsTheFlag(setting: SettingEntry, page: String) throws {
    let text = try #require(
      try Self.entry(".It Fl -\(setting.flag ?? "")", ofPage: page), "\(page): no \(setting.key)")
    #expect(text.contains(setting.key), "\(page) on the flag for \(setting.key): \(text)")
  }

  @Test func everySettingIsInTheTableOnce() {
    let keys = SettingsTable.all.map(\.key)
    #expect(Set(keys).count == keys.count)
    let flags = SettingsTable.all.compactMap(\.flag)
    #expect(Set(flags).count == flags.count)
  }

  @Test func theSettleWaitFollowsTheRequestTimeout() throws {
    func configuration(_ values: [String: String]) -> Configuration {
      Configuration(values: values, paths: CairnPaths(environment: ["HOME": "/nonexistent"]))
    }
    let rule = SettingsTable.settleWait
    #expect(try rule.value(in: configuration([:])) == 35)
    #expect(try rule.value(in: configuration(["CAIRN_HTTP_TIMEOUT": "60"])) == 65)
    #expect(
      try rule.value(in: configuration(["CAIRN_HTTP_TIMEOUT": "60", "CAIRN_SETTLE_WAIT": "0"]))
        == 0)
    let error = #expect(throws: CairnError.self) {
      try rule.value(in: configuration(["CAIRN_SETTLE_WAIT": "1h"]))
    }
    #expect(error?.message == "CAIRN_SETTLE_WAIT=1h is not a whole number from 0 to 3600")
  }
}

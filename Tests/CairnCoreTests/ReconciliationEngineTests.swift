import CairnCore
import Foundation
import Testing

/// The engine on hand-made inputs (the scenario table, through the real store, is in
/// CairnStateTests).
@Suite struct ReconciliationEngineTests {
  let now = Date(timeIntervalSince1970: 1_790_000_000)

  func observed(_ checksum: String, root: String = "/lib") -> ObservedEntry {
    ObservedEntry(
      checksum: checksum, roots: [root], paths: ["\(root)/\(checksum).jpg"], firstSeen: now,
      lastSeen: now)
  }

  func asset(_ id: String, _ checksum: String) -> AssetRecord {
    AssetRecord(
      id: id, checksum: checksum, originalFileName: id, assetType: "IMAGE",
      visibility: "timeline", ownerId: "u")
  }

  @Test func outputIsOrderedAndCounted() {
    let input = ReconciliationInput(
      files: [], roots: [RootStatus(path: "/lib", complete: true, files: 3)],
      observed: ["C": observed("C"), "A": observed("A"), "B": observed("B")],
      confirmations: [
        "B": DeletionConfirmation(checksum: "B", confirmedAt: now, source: "freedesktop")
      ],
      assets: [asset("z", "C"), asset("y", "B"), asset("x", "A"), asset("w", "Q")], now: now)
    let output = ReconciliationEngine.reconcile(input)
    #expect(output.candidates.map(\.assetId) == ["x", "z", "y"])
    #expect(output.candidates.map(\.bucket) == [.delete, .delete, .held])
    #expect(output.gone == ["A", "B", "C"])
    #expect(output.summary.counts["matched"] == 3)
    #expect(output.summary.counts["serverAssets"] == 4)
    #expect(output.summary.counts["held"] == 1)
    #expect(output.candidates.last?.eligibleAt == now.addingTimeInterval(14 * 86_400))
  }

  @Test(arguments: [0, 1, 90])
  func quarantineLengthDecidesTheEligibleDate(days: Int) {
    let confirmedAt = now.addingTimeInterval(-86_400)
    let input = ReconciliationInput(
      files: [], roots: [RootStatus(path: "/lib", complete: true, files: 1)],
      observed: ["A": observed("A")],
      confirmations: [
        "A": DeletionConfirmation(checksum: "A", confirmedAt: confirmedAt, source: "x")
      ],
      assets: [asset("a", "A")], settings: ReconciliationSettings(quarantineDays: days), now: now)
    let candidate = ReconciliationEngine.reconcile(input).candidates.first
    #expect(candidate?.bucket == (days <= 1 ? .delete : .held))
    #expect(candidate?.eligibleAt == confirmedAt.addingTimeInterval(Double(days) * 86_400))
  }

  /// The store passes only the checksums absent from the scan, with the total: the engine
  /// must decide and count exactly as with every entry.
  @Test func onlyAbsentEntriesWithACountDecideAsTheWholeStore() {
    let files = ["P", "Q"].map { checksum in
      ScannedFile(
        root: "/lib", path: "/lib/\(checksum).jpg", checksum: checksum,
        identity: FileIdentity(key: "1:\(checksum)"))
    }
    let whole = ["A": observed("A"), "B": observed("B"), "P": observed("P"), "Q": observed("Q")]
    func run(_ observed: [String: ObservedEntry], count: Int?) -> ReconciliationOutput {
      ReconciliationEngine.reconcile(
        ReconciliationInput(
          files: ScanFiles(files), roots: [RootStatus(path: "/lib", complete: true, files: 2)],
          observed: observed, observedCount: count,
          confirmations: [
            "B": DeletionConfirmation(checksum: "B", confirmedAt: now, source: "freedesktop")
          ],
          assets: [asset("a", "A"), asset("b", "B"), asset("p", "P"), asset("w", "W")],
          now: now))
    }
    let full = run(whole, count: nil)
    let compact = run(whole.filter { $0.key == "A" || $0.key == "B" }, count: 4)
    #expect(compact.candidates == full.candidates)
    #expect(compact.gone == full.gone)
    #expect(compact.summary == full.summary)
    #expect(full.summary.matched == 3)
    #expect(full.summary.observed == 4)
    #expect(full.candidates.map(\.assetId) == ["a", "b"])
  }

  @Test func aRootWithAProblemMakesNothingGone() {
    let input = ReconciliationInput(
      files: [], roots: [RootStatus(path: "/lib", complete: true, files: 0, problem: "missing")],
      observed: ["A": observed("A")], assets: [asset("a", "A")], now: now)
    let output = ReconciliationEngine.reconcile(input)
    #expect(output.candidates.isEmpty)
    #expect(output.gone.isEmpty)
  }
}

@Suite struct SettingsTests {
  func configuration(_ values: [String: String]) -> Configuration {
    Configuration(values: values, paths: CairnPaths(environment: ["HOME": "/nonexistent"]))
  }

  @Test func defaults() throws {
    let settings = try ReconciliationSettings(configuration([:]))
    #expect(
      settings
        == ReconciliationSettings(
          quarantineDays: 14, strictness: .trusting, thresholdPercent: 1, floor: 5))
  }

  @Test(arguments: [
    ["CAIRN_QUARANTINE_DAYS": "91"], ["CAIRN_QUARANTINE_DAYS": "-1"],
    ["CAIRN_STRICTNESS": "paranoid"], ["CAIRN_THRESHOLD_PERCENT": "101"],
    ["CAIRN_THRESHOLD_PERCENT": "lots"], ["CAIRN_FLOOR": "-3"],
  ])
  func invalidValuesAreConfigurationErrors(values: [String: String]) {
    let error = #expect(throws: CairnError.self) {
      try ReconciliationSettings(configuration(values))
    }
    #expect(error?.status == .configuration)
    #expect(error?.message.contains(values.keys.first ?? "") == true)
  }

  @Test func flagsOverrideTheConfiguration() throws {
    var options = try SettingsOptions.parse(["--quarantine-days", "0", "--strictness", "strict"])
    let settings = try options.resolve(
      configuration(["CAIRN_QUARANTINE_DAYS": "30", "CAIRN_FLOOR": "9"]))
    #expect(settings.quarantineDays == 0)
    #expect(settings.strictness == .strict)
    #expect(settings.floor == 9)
    options = try SettingsOptions.parse(["--quarantine-days", "91"])
    #expect(throws: CairnError.self) { try options.resolve(configuration([:])) }
  }
}

import CairnEngine
import CairnRecords
import CairnSafety
import CairnSettings
import CairnStream
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

  @Test func outputIsOrderedAndCounted() throws {
    let input = ReconciliationInput(
      scan: PlainScan(), roots: [RootStatus(path: "/lib", complete: true, files: 3)],
      observed: ["C": observed("C"), "A": observed("A"), "B": observed("B")],
      confirmations: [
        "B": DeletionConfirmation(checksum: "B", confirmedAt: now, source: "freedesktop")
      ],
      assets: PlainListing([asset("z", "C"), asset("y", "B"), asset("x", "A"), asset("w", "Q")]),
      now: now)
    let output = try ReconciliationEngine.reconcile(input)
    #expect(output.candidates.map(\.assetId) == ["x", "z", "y"])
    #expect(output.candidates.map(\.bucket) == [.delete, .delete, .held])
    #expect(output.gone == ["A", "B", "C"])
    #expect(output.summary.counts["matched"] == 3)
    #expect(output.summary.counts["serverAssets"] == 4)
    #expect(output.summary.counts["held"] == 1)
    #expect(output.candidates.last?.eligibleAt == now.addingTimeInterval(14 * 86_400))
  }

  @Test(arguments: [0, 1, 90])
  func quarantineLengthDecidesTheEligibleDate(days: Int) throws {
    let confirmedAt = now.addingTimeInterval(-86_400)
    let input = ReconciliationInput(
      scan: PlainScan(), roots: [RootStatus(path: "/lib", complete: true, files: 1)],
      observed: ["A": observed("A")],
      confirmations: [
        "A": DeletionConfirmation(checksum: "A", confirmedAt: confirmedAt, source: "x")
      ],
      assets: PlainListing([asset("a", "A")]),
      settings: ReconciliationSettings(quarantineDays: days), now: now)
    let candidate = try ReconciliationEngine.reconcile(input).candidates.first
    #expect(candidate?.bucket == (days <= 1 ? .delete : .held))
    #expect(candidate?.eligibleAt == confirmedAt.addingTimeInterval(Double(days) * 86_400))
  }

  /// A deletion the watcher saw never waits longer than one nobody saw: trusting mode trashes
  /// both at once; strict mode holds it for its quarantine where one nobody saw is pending.
  /// A trash's signal keeps its quarantine in both.
  @Test(arguments: [Strictness.trusting, .strict])
  func aDeletionTheWatcherSawWaitsNoLongerThanOneNobodySaw(strictness: Strictness) throws {
    let input = ReconciliationInput(
      scan: PlainScan(), roots: [RootStatus(path: "/lib", complete: true, files: 1)],
      observed: ["W": observed("W"), "T": observed("T"), "U": observed("U")],
      confirmations: [
        "W": DeletionConfirmation(checksum: "W", confirmedAt: now, source: "watcher"),
        "T": DeletionConfirmation(checksum: "T", confirmedAt: now, source: "freedesktop"),
      ],
      assets: PlainListing([asset("w", "W"), asset("t", "T"), asset("u", "U")]),
      settings: ReconciliationSettings(strictness: strictness), now: now)
    let buckets = Dictionary(
      uniqueKeysWithValues: try ReconciliationEngine.reconcile(input).candidates.map {
        ($0.assetId, $0.bucket)
      })
    if strictness == .trusting {
      #expect(buckets == ["w": .delete, "t": .held, "u": .delete])
    } else {
      #expect(buckets == ["w": .held, "t": .held, "u": .pending])
    }
  }

  /// The store passes only the checksums absent from the scan, with the total: the engine
  /// must decide and count exactly as with every entry.
  @Test func onlyAbsentEntriesWithACountDecideAsTheWholeStore() throws {
    let files = ["P", "Q"].map { checksum in
      ScannedFile(
        root: "/lib", path: "/lib/\(checksum).jpg", checksum: checksum,
        identity: FileIdentity(key: "1:\(checksum)"))
    }
    let whole = ["A": observed("A"), "B": observed("B"), "P": observed("P"), "Q": observed("Q")]
    func run(_ observed: [String: ObservedEntry], count: Int?) throws -> ReconciliationOutput {
      try ReconciliationEngine.reconcile(
        ReconciliationInput(
          scan: PlainScan(files), roots: [RootStatus(path: "/lib", complete: true, files: 2)],
          observed: observed, observedCount: count,
          confirmations: [
            "B": DeletionConfirmation(checksum: "B", confirmedAt: now, source: "freedesktop")
          ],
          assets: PlainListing([asset("a", "A"), asset("b", "B"), asset("p", "P"), asset("w", "W")]
          ),
          now: now))
    }
    let full = try run(whole, count: nil)
    let compact = try run(whole.filter { $0.key == "A" || $0.key == "B" }, count: 4)
    #expect(compact.candidates == full.candidates)
    #expect(compact.gone == full.gone)
    #expect(compact.summary == full.summary)
    #expect(full.summary.matched == 3)
    #expect(full.summary.observed == 4)
    #expect(full.candidates.map(\.assetId) == ["a", "b"])
  }

  /// A row of the scope table: where a checksum was last seen (under whatever root an earlier
  /// run named), the roots this run scanned completely, and whether it is gone.
  struct ScopeRow: Sendable, CustomTestStringConvertible {
    var name: String
    var seenUnder: String
    var paths: [String]
    var scanned: [String]
    var gone: Bool
    var testDescription: String { name }
  }

  static let scopeRows: [ScopeRow] = [
    ScopeRow(
      name: "seen as /P, scanned as /P/2025", seenUnder: "/P", paths: ["/P/2025/a.jpg"],
      scanned: ["/P/2025"], gone: true),
    ScopeRow(
      name: "seen as /P/2024, scanned as /P", seenUnder: "/P/2024", paths: ["/P/2024/a.jpg"],
      scanned: ["/P"], gone: true),
    ScopeRow(
      name: "seen as /P, scanned as /P/2025, last seen in 2024", seenUnder: "/P",
      paths: ["/P/2024/a.jpg"], scanned: ["/P/2025"], gone: false),
    ScopeRow(
      name: "last seen in and out of the scanned root", seenUnder: "/P",
      paths: ["/P/2024/a.jpg", "/P/2025/a.jpg"], scanned: ["/P/2025"], gone: false),
    ScopeRow(
      name: "a sibling whose name starts the same", seenUnder: "/P",
      paths: ["/P/2025-old/a.jpg"], scanned: ["/P/2025"], gone: false),
    ScopeRow(
      name: "the root with a trailing slash", seenUnder: "/P", paths: ["/P/a.jpg"],
      scanned: ["/P/"], gone: true),
    ScopeRow(
      name: "no known path", seenUnder: "/P", paths: [], scanned: ["/P"], gone: false),
  ]

  @Test(arguments: scopeRows)
  func scopeIsContainmentOfEveryLastPath(_ row: ScopeRow) throws {
    let entry = ObservedEntry(
      checksum: "A", roots: [row.seenUnder], paths: row.paths, firstSeen: now, lastSeen: now)
    let input = ReconciliationInput(
      scan: PlainScan(), roots: row.scanned.map { RootStatus(path: $0, complete: true, files: 1) },
      observed: ["A": entry], assets: PlainListing([asset("a", "A")]), now: now)
    let output = try ReconciliationEngine.reconcile(input)
    #expect(output.gone == (row.gone ? ["A"] : []))
    #expect(output.candidates.map(\.assetId) == (row.gone ? ["a"] : []))
  }

  /// Android's trash is the same name for a deletion and for the Immich app's "Free up space":
  /// pending in both strictness modes, before and after the quarantine.
  @Test(arguments: [Strictness.trusting, .strict], [0.0, 40.0])
  func androidsTrashIsAlwaysPending(strictness: Strictness, days: Double) throws {
    let trashedAt = now.addingTimeInterval(-days * 86_400)
    let input = ReconciliationInput(
      scan: PlainScan(), roots: [RootStatus(path: "/lib", complete: true, files: 1)],
      observed: ["A": observed("A")],
      confirmations: [
        "A": DeletionConfirmation(checksum: "A", confirmedAt: trashedAt, source: "android")
      ],
      assets: PlainListing([asset("a", "A")]),
      settings: ReconciliationSettings(strictness: strictness),
      now: now)
    let candidate = try ReconciliationEngine.reconcile(input).candidates.first
    #expect(candidate?.bucket == .pending)
    #expect(candidate?.reason == "android-trash")
    #expect(candidate?.confirmedAt == trashedAt)
    #expect(candidate?.detail?.contains("Free up space") == true)
  }

  @Test func aRootWithAProblemMakesNothingGone() throws {
    let input = ReconciliationInput(
      scan: PlainScan(),
      roots: [RootStatus(path: "/lib", complete: true, files: 0, problem: "missing")],
      observed: ["A": observed("A")], assets: PlainListing([asset("a", "A")]), now: now)
    let output = try ReconciliationEngine.reconcile(input)
    #expect(output.candidates.isEmpty)
    #expect(output.gone.isEmpty)
  }

  /// A volume away under a root: what was last seen on it is out of scope, anything else in
  /// the root is judged; a checksum also last seen on the volume is not gone either.
  @Test func aFolderOutOfScopeMakesNothingUnderItGoneAndTheRestOfTheRootIs() throws {
    func entry(_ checksum: String, _ paths: [String]) -> ObservedEntry {
      ObservedEntry(
        checksum: checksum, roots: ["/lib"], paths: paths, firstSeen: now, lastSeen: now)
    }
    let card = RootStatus.OutOfScope(path: "/lib/Card", problem: "volume away", files: 2)
    let input = ReconciliationInput(
      scan: PlainScan(),
      roots: [RootStatus(path: "/lib", complete: true, files: 5, outOfScope: [card])],
      observed: [
        "ON": entry("ON", ["/lib/Card/a.jpg"]),
        "BOTH": entry("BOTH", ["/lib/b.jpg", "/lib/Card/b.jpg"]),
        "BESIDE": entry("BESIDE", ["/lib/Cards/c.jpg"]), "ELSE": entry("ELSE", ["/lib/d.jpg"]),
        "ROOT": entry("ROOT", ["/lib/Card"]),
      ],
      assets: PlainListing(
        ["ON", "BOTH", "BESIDE", "ELSE", "ROOT"].map { asset($0.lowercased(), $0) }),
      now: now)
    let output = try ReconciliationEngine.reconcile(input)
    #expect(output.gone == ["BESIDE", "ELSE"])
    #expect(output.candidates.map(\.assetId) == ["beside", "else"])
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
    var options = try CandidateSettingsOptions.parse([
      "--quarantine-days", "0", "--strictness", "strict",
    ])
    let settings = try options.resolve(
      configuration(["CAIRN_QUARANTINE_DAYS": "30", "CAIRN_FLOOR": "9"]))
    #expect(settings.quarantineDays == 0)
    #expect(settings.strictness == .strict)
    #expect(settings.floor == 9)
    options = try CandidateSettingsOptions.parse(["--quarantine-days", "91"])
    #expect(throws: CairnError.self) { try options.resolve(configuration([:])) }
  }

  @Test func railFlagsOverrideTheConfigurationWithTheSameRule() throws {
    let configured = configuration(["CAIRN_THRESHOLD_PERCENT": "2", "CAIRN_FLOOR": "9"])
    var options = try RailOptions.parse([])
    #expect(!options.overrides)
    #expect(try options.resolve(configured) == SafetyRails.Settings(thresholdPercent: 2, floor: 9))
    options = try RailOptions.parse(["--threshold", "12.5%", "--floor", "0"])
    #expect(options.overrides)
    #expect(
      try options.resolve(configured) == SafetyRails.Settings(thresholdPercent: 12.5, floor: 0))
    // The flag's error says what the key's says, naming the flag.
    options = try RailOptions.parse(["--threshold", "101"])
    let flag = #expect(throws: CairnError.self) { try options.resolve(configured) }
    #expect(flag?.message == "--threshold 101 is not a percentage from 0 to 100")
    #expect(flag?.status == .configuration)
    let key = #expect(throws: CairnError.self) {
      try RailOptions.parse([]).resolve(configuration(["CAIRN_THRESHOLD_PERCENT": "101"]))
    }
    #expect(key?.message == "CAIRN_THRESHOLD_PERCENT=101 is not a percentage from 0 to 100")
    options = try RailOptions.parse(["--floor=-1"])
    let floor = #expect(throws: CairnError.self) { try options.resolve(configured) }
    #expect(floor?.message == "--floor -1 is not a whole number from 0 to 1000000")
  }

  @Test func keyErrorsNameTheKeyAndWhatIsExpected() {
    let error = #expect(throws: CairnError.self) {
      try ReconciliationSettings(configuration(["CAIRN_STRICTNESS": "paranoid"]))
    }
    #expect(error?.message == "CAIRN_STRICTNESS=paranoid is not 'trusting' or 'strict'")
  }
}

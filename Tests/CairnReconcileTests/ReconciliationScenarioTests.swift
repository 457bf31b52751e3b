import CairnEngine
import CairnJSON
import CairnRecords
import CairnSettings
import CairnStateTestSupport
import CairnTestSupport
import Foundation
import Testing

@testable import CairnReconcile
@testable import CairnState

/// One run of the pipeline in a scenario: a scan recorded, trash signals found, then the engine.
struct Run: Sendable {
  var day: Double
  var files: [ScannedFile]
  var roots: [RootStatus]
  var trashed: [String] = []
}

/// A row of the scenario table: runs in order, the server's assets, and the exact buckets the
/// last run must produce (asset id → bucket; every other asset is no candidate).
struct Scenario: Sendable, CustomTestStringConvertible {
  var name: String
  var runs: [Run]
  var assets: [AssetRecord]
  var settings = ReconciliationSettings()
  var exclusions: [String] = []
  var expected: [String: Bucket]
  var testDescription: String { name }
}

func scan(
  day: Double, root: String = "/lib", complete: Bool = true, problem: String? = nil,
  _ files: [(String, String, UInt64?)], trashed: [String] = []
) -> Run {
  let scanned = files.map { name, checksum, inode in
    file(root + "/" + name, checksum, root: root, inode: inode)
  }
  return Run(
    day: day, files: scanned,
    roots: [RootStatus(path: root, complete: complete, files: files.count, problem: problem)],
    trashed: trashed)
}

/// Several roots scanned in one run.
func scanRoots(day: Double, _ parts: [(String, [(String, String, UInt64?)])]) -> Run {
  var run = Run(day: day, files: [], roots: [])
  for (root, files) in parts {
    run.files += files.map { file(root + "/" + $0.0, $0.1, root: root, inode: $0.2) }
    run.roots.append(RootStatus(path: root, complete: true, files: files.count))
  }
  return run
}

let strict = ReconciliationSettings(strictness: .strict)

/// Trashed on day 0 with the default 14-day quarantine, reconciled on `day`.
func quarantineRow(_ day: Double, _ bucket: Bucket) -> Scenario {
  Scenario(
    name: "quarantine boundary, day \(Int(day))",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)]),
      scan(day: 0, [("b.jpg", "B", 2)], trashed: ["A"]),
      scan(day: day, [("b.jpg", "B", 2)]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B")], expected: ["a1": bucket])
}
let hundredNew = (0..<100).map { ("new\($0).jpg", "N\($0)", UInt64?.none) }

let scenarios: [Scenario] = [
  Scenario(
    name: "empty local library on the first run",
    runs: [scan(day: 0, problem: "no media files", [])],
    assets: [asset("a1", "A")], expected: [:]),
  Scenario(
    name: "library emptied (an empty root is a problem, not a mass deletion)",
    runs: [scan(day: 0, [("a.jpg", "A", 1)]), scan(day: 1, problem: "no media files", [])],
    assets: [asset("a1", "A")], expected: [:]),
  Scenario(
    name: "empty server",
    runs: [scan(day: 0, [("a.jpg", "A", 1)]), scan(day: 1, [])],
    assets: [], expected: [:]),
  Scenario(
    name: "first run seeds and proposes nothing",
    runs: [scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)])],
    assets: [asset("a1", "A"), asset("b1", "B"), asset("z1", "Z")], expected: [:]),
  Scenario(
    name: "100 photos added between scans",
    runs: [scan(day: 0, [("a.jpg", "A", nil)]), scan(day: 1, [("a.jpg", "A", nil)] + hundredNew)],
    assets: [asset("a1", "A")] + (0..<100).map { asset("n\($0)", "N\($0)") }, expected: [:]),
  Scenario(
    name: "a plain deletion, trusting",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)]), scan(day: 1, [("b.jpg", "B", 2)]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B")], expected: ["a1": .delete]),
  Scenario(
    name: "a plain deletion, strict",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)]), scan(day: 1, [("b.jpg", "B", 2)]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B")], settings: strict, expected: ["a1": .pending]),
  Scenario(
    name: "a file in a trash folder is held through quarantine",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)]),
      scan(day: 1, [("b.jpg", "B", 2)], trashed: ["A"]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B")], expected: ["a1": .held]),
  Scenario(
    name: "a trashed file, strict, after quarantine",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)]),
      scan(day: 1, [("b.jpg", "B", 2)], trashed: ["A"]),
      scan(day: 16, [("b.jpg", "B", 2)]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B")], settings: strict, expected: ["a1": .delete]),
  quarantineRow(13, .held),
  quarantineRow(14, .delete),
  quarantineRow(15, .delete),
  Scenario(
    name: "edit, revert, edit: the original and current stay, the intermediate is held",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7)]), scan(day: 1, [("a.jpg", "E1", 7)]),
      scan(day: 2, [("a.jpg", "O", 7)]), scan(day: 3, [("a.jpg", "E2", 7)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("e2", "E2")], expected: ["e1": .held]),
  Scenario(
    name: "edit, revert, edit: the intermediate goes after quarantine",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7)]), scan(day: 1, [("a.jpg", "E1", 7)]),
      scan(day: 2, [("a.jpg", "O", 7)]), scan(day: 3, [("a.jpg", "E2", 7)]),
      scan(day: 16, [("a.jpg", "E2", 7)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("e2", "E2")], expected: ["e1": .delete]),
  Scenario(
    name: "edit then delete the file: original and current are both gone",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7), ("b.jpg", "B", 8)]),
      scan(day: 1, [("a.jpg", "E1", 7), ("b.jpg", "B", 8)]),
      scan(day: 2, [("b.jpg", "B", 8)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("b", "B")],
    expected: ["o": .delete, "e1": .delete]),
  Scenario(
    name: "rename keeps everything",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7)]), scan(day: 1, [("a.jpg", "E1", 7)]),
      scan(day: 2, [("renamed.jpg", "E1", 7)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1")], expected: [:]),
  Scenario(
    name: "rename without inodes",
    runs: [scan(day: 0, [("a.jpg", "A", nil)]), scan(day: 1, [("b.jpg", "A", nil)])],
    assets: [asset("a1", "A")], expected: [:]),
  Scenario(
    name: "move between roots, both scanned",
    runs: [
      scanRoots(day: 0, [("/a", [("x.jpg", "O", 7)]), ("/b", [("y.jpg", "Y", 8)])]),
      scanRoots(day: 1, [("/a", [("x.jpg", "E1", 7)]), ("/b", [("y.jpg", "Y", 8)])]),
      scanRoots(
        day: 2, [("/a", [("z.jpg", "Z", 9)]), ("/b", [("y.jpg", "Y", 8), ("x.jpg", "E1", 70)])]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("y", "Y")], expected: [:]),
  Scenario(
    name: "scope by containment: a scan of 2024 judges 2024 and nothing outside it",
    runs: [
      scan(day: 0, root: "/P", [("2023/a.jpg", "A", 1), ("2024/b.jpg", "B", 2)]),
      scan(day: 1, root: "/P/2024", [("c.jpg", "C", 3)]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B"), asset("c1", "C")], expected: ["b1": .delete]),
  Scenario(
    name: "scope by containment: per-year runs, then a run over the whole library",
    runs: [
      scan(day: 0, root: "/P/2023", [("a.jpg", "A", 1)]),
      scan(day: 1, root: "/P/2024", [("b.jpg", "B", 2)]),
      scan(day: 2, root: "/P", [("2024/b.jpg", "B", 2)]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B")], expected: ["a1": .delete]),
  Scenario(
    name: "scope by containment: a root with a trailing slash is the same root",
    runs: [
      scan(day: 0, root: "/P", [("a.jpg", "A", 1), ("b.jpg", "B", 2)]),
      {
        var run = scan(day: 1, root: "/P", [("b.jpg", "B", 2)])
        run.roots[0].path = "/P/"
        return run
      }(),
    ],
    assets: [asset("a1", "A"), asset("b1", "B")], expected: ["a1": .delete]),
  Scenario(
    name: "replace by rename (Syncthing, Nextcloud, rsync, an editor): the original stays",
    runs: [scan(day: 0, [("a.jpg", "O", 7)]), scan(day: 1, [("a.jpg", "E1", 8)])],
    assets: [asset("o", "O"), asset("e1", "E1")], expected: [:]),
  Scenario(
    name: "replace by rename twice: the original stays, the intermediate is held",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7)]), scan(day: 1, [("a.jpg", "E1", 8)]),
      scan(day: 2, [("a.jpg", "E2", 9)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("e2", "E2")], expected: ["e1": .held]),
  Scenario(
    name: "rename, then an edit saved by rename: the original stays",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7)]), scan(day: 1, [("b.jpg", "O", 7)]),
      scan(day: 2, [("b.jpg", "E1", 8)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1")], expected: [:]),
  Scenario(
    name: "a path reused after its photo moved away: the new photo is no edit of it",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7)]),
      scan(day: 1, [("a.jpg", "N", 8), ("moved/a.jpg", "O", 9)]),
      scan(day: 2, [("a.jpg", "N", 8)]),
    ],
    assets: [asset("o", "O"), asset("n", "N")], expected: ["o": .delete]),
  Scenario(
    name: "an edited file trashed: every version follows the trash's signal",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7), ("b.jpg", "B", 2)]),
      scan(day: 1, [("a.jpg", "E1", 8), ("b.jpg", "B", 2)]),
      scan(day: 2, [("b.jpg", "B", 2)], trashed: ["E1"]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("b", "B")],
    expected: ["o": .held, "e1": .held]),
  Scenario(
    name: "an edited file trashed: every version goes after the quarantine",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7), ("b.jpg", "B", 2)]),
      scan(day: 1, [("a.jpg", "E1", 8), ("b.jpg", "B", 2)]),
      scan(day: 2, [("b.jpg", "B", 2)], trashed: ["E1"]),
      scan(day: 16, [("b.jpg", "B", 2)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("b", "B")],
    expected: ["o": .delete, "e1": .delete]),
  Scenario(
    name: "an edited file deleted without a trash, strict: every version waits for review",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7), ("b.jpg", "B", 2)]),
      scan(day: 1, [("a.jpg", "E1", 8), ("b.jpg", "B", 2)]),
      scan(day: 2, [("b.jpg", "B", 2)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("b", "B")], settings: strict,
    expected: ["o": .pending, "e1": .pending]),
  Scenario(
    name: "an edited file put back from the trash: its original is protected again",
    runs: [
      scan(day: 0, [("a.jpg", "O", 7), ("b.jpg", "B", 2)]),
      scan(day: 1, [("a.jpg", "E1", 8), ("b.jpg", "B", 2)]),
      scan(day: 2, [("b.jpg", "B", 2)], trashed: ["E1"]),
      scan(day: 3, [("a.jpg", "E1", 9), ("b.jpg", "B", 2)]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("b", "B")], expected: [:]),
  Scenario(
    name: "copy then delete across file systems with an edit: the original stays",
    runs: [
      scanRoots(day: 0, [("/a", [("x.jpg", "O", 7)]), ("/b", [("y.jpg", "Y", 8)])]),
      scanRoots(day: 1, [("/a", [("x.jpg", "E1", 10)]), ("/b", [("y.jpg", "Y", 8)])]),
      scanRoots(day: 2, [("/a", []), ("/b", [("y.jpg", "Y", 8), ("x.jpg", "E1", 70)])]),
    ],
    assets: [asset("o", "O"), asset("e1", "E1"), asset("y", "Y")], expected: [:]),
  Scenario(
    name: "partial scope: gone inside the scanned root",
    runs: [
      scan(day: 0, root: "/P/2024", [("b.jpg", "B", 2), ("c.jpg", "C", 3)]),
      scan(day: 1, root: "/P/2023", [("a.jpg", "A", 1)]),
      scan(day: 2, root: "/P/2024", [("c.jpg", "C", 3)]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B"), asset("c1", "C")], expected: ["b1": .delete]),
  Scenario(
    name: "same bytes at two paths, one deleted: not gone",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("copy/a.jpg", "A", 2)]),
      scan(day: 1, [("copy/a.jpg", "A", 2)]),
    ],
    assets: [asset("a1", "A")], expected: [:]),
  Scenario(
    name: "an excluded checksum is never a candidate",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)]), scan(day: 1, [("c.jpg", "C", 3)]),
    ],
    assets: [asset("a1", "A"), asset("b1", "B")], exclusions: ["A"], expected: ["b1": .delete]),
  Scenario(
    name: "an already trashed asset is never a candidate",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)]), scan(day: 1, [("c.jpg", "C", 3)]),
    ],
    assets: [asset("a1", "A", trashed: true), asset("b1", "B")], expected: ["b1": .delete]),
  Scenario(
    name: "a Live Photo pair deleted: both halves, the still names its video",
    runs: [
      scan(day: 0, [("IMG_1.HEIC", "S", 1), ("IMG_1.MOV", "V", 2), ("b.jpg", "B", 3)]),
      scan(day: 1, [("b.jpg", "B", 3)]),
    ],
    assets: [asset("s1", "S", video: "v1"), asset("v1", "V", type: "VIDEO"), asset("b1", "B")],
    expected: ["s1": .delete, "v1": .delete]),
  Scenario(
    name: "a Live Photo still deleted, its video kept locally: the still waits for review",
    runs: [
      scan(day: 0, [("IMG_1.HEIC", "S", 1), ("IMG_1.MOV", "V", 2)]),
      scan(day: 1, [("IMG_1.MOV", "V", 2)]),
    ],
    assets: [asset("s1", "S", video: "v1"), asset("v1", "V", type: "VIDEO")],
    expected: ["s1": .pending]),
  Scenario(
    name: "a checksum on the server twice: both assets",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("b.jpg", "B", 2)]), scan(day: 1, [("b.jpg", "B", 2)]),
    ],
    assets: [asset("x1", "A"), asset("x2", "A"), asset("b1", "B")],
    expected: ["x1": .delete, "x2": .delete]),
  Scenario(
    name: "a root scanned incompletely yields nothing under it",
    runs: [
      scanRoots(day: 0, [("/a", [("x.jpg", "X", 1)]), ("/b", [("y.jpg", "Y", 2)])]),
      {
        var run = scanRoots(day: 1, [("/a", []), ("/b", [])])
        run.roots[0].complete = false
        run.roots[0].problem = "1 file unreadable"
        return run
      }(),
    ],
    assets: [asset("x1", "X"), asset("y1", "Y")], expected: ["y1": .delete]),
  Scenario(
    name: "a volume away: its photos, and a copy of one deleted elsewhere meanwhile, stay",
    runs: [
      scan(
        day: 0,
        [
          ("a.jpg", "A", 1), ("b.jpg", "B", 2), ("c.jpg", "X", 5), ("Card/x.jpg", "X", 3),
          ("Card/y.jpg", "Y", 4),
        ]),
      away(scan(day: 1, [("a.jpg", "A", 1), ("c.jpg", "X", 5)]), "Card"),
      away(scan(day: 2, [("a.jpg", "A", 1)]), "Card"),
    ],
    assets: [asset("a1", "A"), asset("b1", "B"), asset("x1", "X"), asset("y1", "Y")],
    expected: ["b1": .delete]),
  Scenario(
    name: "a volume back after being away: nothing of it was judged meanwhile",
    runs: [
      scan(day: 0, [("a.jpg", "A", 1), ("Card/x.jpg", "X", 3), ("Card/y.jpg", "Y", 4)]),
      away(scan(day: 1, [("a.jpg", "A", 1)]), "Card"),
      scan(day: 2, [("a.jpg", "A", 1), ("Card/x.jpg", "X", 3)]),
    ],
    assets: [asset("a1", "A"), asset("x1", "X"), asset("y1", "Y")], expected: ["y1": .delete]),
]

/// `run` with the folder `relative` under its root out of scope, as cairn-hash reports a
/// volume away.
func away(_ run: Run, _ relative: String) -> Run {
  var run = run
  run.roots[0].outOfScope = [
    RootStatus.OutOfScope(
      path: run.roots[0].path + "/" + relative, problem: "volume away", files: 2)
  ]
  return run
}

/// How cairn-observe and cairn-reconcile record a run's roots (see `ScanInput`).
func recorded(_ run: Run) -> (complete: Set<String>, scoped: Set<String>) {
  let judged = run.roots.filter { $0.complete && $0.problem == nil }
  return (
    Set(judged.filter { $0.outOfScope.isEmpty }.map(\.path)),
    Set(judged.filter { !$0.outOfScope.isEmpty }.map(\.path))
  )
}

@Suite struct ReconciliationScenarioTests {
  @Test(arguments: scenarios)
  func scenario(_ scenario: Scenario) throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.exclusions.add(scenario.exclusions, reason: "test", at: t0)
    var output: ReconciliationOutput?
    for run in scenario.runs {
      let now = t0 + run.day * day
      let (complete, scoped) = recorded(run)
      try store.recordScan(run.files, completeRoots: complete, scopedRoots: scoped, at: now)
      try store.signals.union(
        run.trashed.map { DeletionConfirmation(checksum: $0, confirmedAt: now, source: "folder") })
      output = try store.reconcile(
        files: run.files, roots: run.roots, assets: PlainListing(scenario.assets),
        settings: scenario.settings, now: now)
    }
    let result = try #require(output)
    try expectLeanInputDecidesAsTheWholeStore(store, scenario)
    let buckets = Dictionary(
      uniqueKeysWithValues: result.candidates.map { ($0.assetId, $0.bucket) })
    #expect(buckets == scenario.expected)
    #expect(
      result.summary.delete + result.summary.pending + result.summary.held
        == scenario.expected.count)
  }

  /// The store loads only what the engine reads (absent checksums with a count, a few
  /// anchors); the engine must decide exactly as it would on the whole store.
  func expectLeanInputDecidesAsTheWholeStore(_ store: PartitionStore, _ scenario: Scenario)
    throws
  {
    let run = try #require(scenario.runs.last)
    let now = t0 + run.day * day + 1
    // Loaded after other writes, then right after recording the scan again (when the store
    // reuses what the recording found).
    for justRecorded in [false, true] {
      if justRecorded {
        let (complete, scoped) = recorded(run)
        try store.recordScan(run.files, completeRoots: complete, scopedRoots: scoped, at: now)
      }
      let lean = try store.reconciliationInput(
        files: run.files, roots: run.roots, assets: PlainListing(scenario.assets),
        settings: scenario.settings, now: now)
      #expect(lean.observedCount == (try store.observed.count()))
      var whole = lean
      whole.observed = try store.observed.snapshot()
      whole.observedCount = nil
      whole.anchors = try store.anchors.all()
      let a = try ReconciliationEngine.reconcile(lean)
      let b = try ReconciliationEngine.reconcile(whole)
      #expect(a.candidates == b.candidates)
      #expect(a.gone == b.gone)
      #expect(a.summary == b.summary)
      // The fast readings of the scan and the listing decide as the plain ones.
      var fast = lean
      var lines = ServerAssets()
      for record in scenario.assets { try lines.append(JSONObject(parsing: record.jsonBytes())) }
      fast.assets = lines
      fast.scan = ScanLookup(files: ScanFiles(run.files), assets: lines)
      let c = try ReconciliationEngine.reconcile(fast)
      #expect(c.candidates == a.candidates)
      #expect(c.gone == a.gone)
      #expect(c.summary == a.summary)
    }
  }

  @Test func aScanThatWasNeverRecordedLoadsTheWholeStore() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "A", inode: 1)], completeRoots: ["/lib"], at: t0)
    // B was never recorded: the engine can't count scanned checksums as observed.
    let input = try store.reconciliationInput(
      files: [file("/lib/b.jpg", "B", inode: 2)],
      roots: [RootStatus(path: "/lib", complete: true, files: 1)],
      assets: PlainListing([asset("b", "B")]), settings: .defaults, now: t0 + day)
    #expect(input.observedCount == nil)
    #expect(Set(input.observed.keys) == ["A"])
    let output = try ReconciliationEngine.reconcile(input)
    #expect(output.summary.matched == 0)
    #expect(output.gone == ["A"])
  }

  @Test func candidatesCarryPathsDatesAndTheLiveVideo() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/IMG_1.HEIC", "S", inode: 1)], completeRoots: ["/lib"], at: t0)
    try store.recordScan([], completeRoots: ["/lib"], at: t0 + day)
    try store.signals.union([
      DeletionConfirmation(checksum: "S", confirmedAt: t0 + day, source: "freedesktop")
    ])
    let output = try store.reconcile(
      files: [], roots: [RootStatus(path: "/lib", complete: true, files: 0)],
      assets: PlainListing([asset("S1", "S", video: "V1"), asset("z", "Z")]), settings: .defaults,
      now: t0 + 2 * day)
    let candidate = try #require(output.candidates.first)
    #expect(candidate.assetId == "s1")
    #expect(candidate.livePhotoVideoId == "v1")
    #expect(candidate.paths == ["/lib/IMG_1.HEIC"])
    #expect(candidate.confirmedAt == t0 + day)
    #expect(candidate.eligibleAt == t0 + 15 * day)
    #expect(candidate.missingSince == t0 + 2 * day)
    #expect(candidate.reason == "quarantine")
    #expect(output.summary.matched == 1)
    #expect(output.summary.serverAssets == 2)
    // The first-missing time is kept on the next run.
    let again = try store.reconcile(
      files: [], roots: [RootStatus(path: "/lib", complete: true, files: 0)],
      assets: PlainListing([asset("S1", "S")]), settings: .defaults, now: t0 + 3 * day)
    #expect(again.candidates.first?.missingSince == t0 + 2 * day)
  }
}

import CairnRecords
import CairnRuns
import CairnTestSupport
import Foundation
import Testing

/// A restore that one purged asset must not block, and Live Photos restored whole: `RestoreRun`
/// and `RestoreCheck` over the in-memory server.
struct RestoreAgainstServerTests {
  /// A fake server with `count` trashed assets `a0`, `a1`, … tagged by run `R`.
  func trashedRun(_ count: Int) -> FakeRunServer {
    let server = FakeRunServer()
    for i in 0..<count {
      server.add("a\(i)")
      server.assets["a\(i)"]?.trashed = true
      server.assets["a\(i)"]?.tags.insert("tag-R")
    }
    return server
  }

  func targets(_ ids: [String]) -> [RestoreRun.Target] {
    ids.map { RestoreRun.Target(id: $0, runID: "R", tagID: "tag-R", runSize: ids.count) }
  }

  @Test func onePurgedAssetNeverBlocksTheOthers() async throws {
    let dir = TemporaryDirectory()
    let server = trashedRun(3)
    server.assets["a1"] = nil  // emptied from the trash by hand, then purged
    let journal = Journal(path: dir.path + "/j.ndjson")
    var results: [String: ResultRecord] = [:]
    let outcome = await RestoreRun(server: server, journal: journal).execute(
      targets(["a0", "a1", "a2"]), dryRun: false, emit: { results[$0.assetId] = $0 })
    #expect(outcome.failure == nil)
    #expect(outcome.restored.map(\.id) == ["a0", "a2"])
    #expect(outcome.failed.map(\.id) == ["a1"])
    #expect(server.assets["a0"]?.trashed == false && server.assets["a2"]?.trashed == false)
    #expect(results["a1"]?.action == "failed")
    #expect(results["a1"]?.message?.hasPrefix("purged") == true)
    let run = try #require(try journal.read().runs.first)
    #expect(run.restored == ["a0", "a2"])
    #expect(run.failed["a1"]?.hasPrefix("purged") == true)
    #expect(run.restoreSent.isEmpty)
  }

  @Test func anEmptiedAssetIsCountedButNotRestoredAndSaidSo() async throws {
    let dir = TemporaryDirectory()
    let server = trashedRun(2)
    server.emptied = ["a1"]
    let journal = Journal(path: dir.path + "/j.ndjson")
    var results: [String: ResultRecord] = [:]
    let outcome = await RestoreRun(server: server, journal: journal).execute(
      targets(["a0", "a1"]), dryRun: false, emit: { results[$0.assetId] = $0 })
    #expect(outcome.restored.map(\.id) == ["a0"])
    #expect(server.restoreCalls == 1)
    #expect(results["a1"]?.message?.contains("emptied from Immich's trash") == true)
  }

  @Test func refusedBatchesAreHalvedUntilEachRefusedIdStandsAlone() async throws {
    let dir = TemporaryDirectory()
    let server = trashedRun(1000)
    for gone in ["a17", "a500", "a999"] { server.assets[gone] = nil }
    var restore = RestoreRun(server: server, journal: Journal(path: dir.path + "/j.ndjson"))
    restore.batchSize = 1000
    let outcome = await restore.execute(
      targets((0..<1000).map { "a\($0)" }), dryRun: false, emit: { _ in })
    #expect(outcome.restored.count == 997)
    #expect(Set(outcome.failed.map(\.id)) == ["a17", "a500", "a999"])
    // Three refused ids in 1,000 cost at most 2·3·log2(1000) requests, not one per asset.
    #expect(server.restoreCalls <= 1 + 2 * 3 * 10)
  }

  @Test func aFailingRestoreStopsAndStaysInDoubt() async throws {
    let dir = TemporaryDirectory()
    let server = trashedRun(2)
    server.faults["restore"] = .before
    let journal = Journal(path: dir.path + "/j.ndjson")
    let outcome = await RestoreRun(server: server, journal: journal).execute(
      targets(["a0", "a1"]), dryRun: false, emit: { _ in })
    #expect(outcome.failure != nil)
    #expect(outcome.restored.isEmpty && outcome.failed.count == 2)
    // Sent and unanswered: still `restoring` in the journal, so found active later it is
    // cairn's own restore, not someone else's.
    #expect(try journal.read().runs.first?.restoreSent == ["a0", "a1"])
  }

  /// A run that trashed `ids` as the journal tells it.
  func history(_ ids: [String], stills: [String: String] = [:]) -> [RunHistory] {
    RunHistory.reconstruct([
      JournalEntry(.started, runID: "R", tagID: "tag-R"),
      JournalEntry(
        .planned, runID: "R",
        assets: ids.map { JournalAsset(id: $0, checksum: "sum-\($0)", stillID: stills[$0]) }),
      JournalEntry(.trashed, runID: "R", assetIDs: ids),
      JournalEntry(.completed, runID: "R"),
    ])
  }

  @Test(arguments: ["s", "v"])
  func eitherHalfOfALivePhotoRestoresTheWholeOfIt(_ named: String) async throws {
    let server = FakeRunServer()
    server.add("s", video: "v")
    server.add("v", visibility: "hidden")
    for id in ["s", "v"] {
      server.assets[id]?.trashed = true
      server.assets[id]?.tags.insert("tag-R")
    }
    // Trashed as two candidates: the journal does not link them.
    let runs = history(["s", "v"])
    var ledger = FateLedger()
    let checked = try await RestoreCheck(server: server, history: runs).check(
      [RestoreRun.Target(id: named, runID: "R", tagID: "tag-R", runSize: 2)], ledger: &ledger,
      at: Date())
    #expect(Set(checked.targets.map(\.id)) == ["s", "v"])
  }

  @Test func whatTheServerShowsDecidesWhatIsStillCairnsToRestore() async throws {
    let server = trashedRun(4)
    server.assets["a1"]?.trashed = false  // restored in the web app
    server.assets["a2"] = nil  // purged
    let runs = history(["a0", "a1", "a2", "a3"])
    var ledger = FateLedger()
    let check = RestoreCheck(server: server, history: runs)
    let first = try await check.check(
      targets(["a0", "a1", "a2", "a3"]), ledger: &ledger, at: Date())
    #expect(first.targets.map(\.id) == ["a0", "a3"])
    #expect(first.purged.map(\.id) == ["a2"])
    #expect(first.notes.contains { $0.contains("a1") && $0.contains("someone else") })
    #expect(ledger.fate(of: "a1", in: runs[0]) == .restoredElsewhere)

    // Trashed again in the web app: theirs, and it stays so.
    server.assets["a1"]?.trashed = true
    let second = try await check.check(targets(["a1"]), ledger: &ledger, at: Date())
    #expect(second.targets.isEmpty)
    #expect(ledger.fate(of: "a1", in: runs[0]) == .trashedElsewhere)
    #expect(ledger.cairnsTrash(runs) == ["a0": "R", "a3": "R"])
  }
}

/// The journal read against the server: the fates and what follows from them.
struct FateLedgerTests {
  let runs = RunHistory.reconstruct([
    JournalEntry(.started, runID: "R"),
    JournalEntry(
      .planned, runID: "R",
      assets: ["a", "b", "c", "d"].map { JournalAsset(id: $0, checksum: "sum-\($0)") }),
    JournalEntry(.trashed, runID: "R", assetIDs: ["a", "b", "c", "d"]),
    JournalEntry(.restoring, runID: "R", assetIDs: ["d"]),
    JournalEntry(.completed, runID: "R"),
  ])

  @Test func anAssetActiveAgainWasRestoredByCairnOnlyIfCairnSentTheRestore() {
    var ledger = FateLedger()
    ledger.learn(
      ["a": .active, "b": .trashed, "c": .absent, "d": .active], history: runs, at: Date())
    #expect(ledger.fate(of: "a", in: runs[0]) == .restoredElsewhere)
    #expect(ledger.fate(of: "b", in: runs[0]) == .inCairnTrash)
    #expect(ledger.fate(of: "c", in: runs[0]) == .purged)
    #expect(ledger.fate(of: "d", in: runs[0]) == .restoredByCairn)
    #expect(ledger.cairnsTrash(runs) == ["b": "R"])
    // Only what changed is saved: "b" is where the journal says.
    #expect(Set(ledger.changed.map(\.assetID)) == ["a", "c", "d"])
  }

  @Test func aRestoredAssetIsKeptOnTheServerUntilItsFileComesBack() {
    var ledger = FateLedger()
    ledger.learn(["a": .active], history: runs, at: Date())
    #expect(ledger.keptOnServer(runs) == ["sum-a"])
    ledger.noteFilesSeenAgain(history: runs, at: Date(), isPresent: { $0 == "sum-b" })
    #expect(ledger.keptOnServer(runs) == ["sum-a"])
    ledger.noteFilesSeenAgain(history: runs, at: Date(), isPresent: { $0 == "sum-a" })
    #expect(ledger.keptOnServer(runs).isEmpty)
  }

  @Test func aLaterRunThatTrashedItAgainOwnsIt() {
    var ledger = FateLedger()
    ledger.learn(["a": .active], history: runs, at: Date())
    let later =
      runs
      + RunHistory.reconstruct([
        JournalEntry(.started, runID: "S"),
        JournalEntry(.planned, runID: "S", assets: [JournalAsset(id: "a", checksum: "sum-a")]),
        JournalEntry(.trashed, runID: "S", assetIDs: ["a"]),
      ])
    #expect(ledger.cairnsTrash(later)["a"] == "S")
    #expect(ledger.keptOnServer(later).isEmpty)
  }
}

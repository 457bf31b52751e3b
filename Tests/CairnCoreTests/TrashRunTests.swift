import CairnRecords
import CairnRuns
import CairnTestSupport
import Foundation
import Testing

struct TrashRunTests {
  func setUp() -> (FakeRunServer, Journal, TemporaryDirectory) {
    let dir = TemporaryDirectory()
    let server = FakeRunServer()
    return (server, Journal(path: dir.path + "/journal.ndjson"), dir)
  }

  func run(
    _ server: FakeRunServer, _ journal: Journal, _ ids: [String], batch: Int = 1000,
    second: Double = 0, stopAfter: Int? = nil
  ) async throws -> (TrashRun.Outcome, [ResultRecord]) {
    let history = try journal.read().runs
    _ = try await RunRecovery(server: server, journal: journal).settle(history)
    var inTrash: [String: String] = [:]
    for run in try journal.read().runs { for id in run.inTrash { inTrash[id] = run.runID } }
    let plan = TrashPlan(candidates: ids.map(server.candidate), userID: "me", inTrash: inTrash)
    // As cairn-trash does: a `skipped` result for each candidate the screening left out.
    var results = plan.skipped.map {
      ResultRecord(assetId: $0.candidate.assetId, action: "skipped")
    }
    var batches = 0
    let outcome = await TrashRun(server: server, journal: journal, batchSize: batch).execute(
      plan, planDigest: "d",
      runID: RunID(started: Date(timeIntervalSince1970: 1e9 + second), host: "AAAAAAAA"),
      emit: { results.append($0) },
      shouldStop: {
        batches += 1
        return stopAfter.map { batches >= $0 } ?? false
      })
    return (outcome, results)
  }

  @Test func tagsThenTrashesStillsAndTheirMotionVideos() async throws {
    let (server, journal, _) = setUp()
    server.add("s1", video: "v1")
    server.add("v1", visibility: "hidden")
    server.add("keep")
    let (outcome, results) = try await run(server, journal, ["s1"])
    #expect(outcome.complete)
    #expect(server.assets["s1"]?.trashed == true && server.assets["v1"]?.trashed == true)
    #expect(server.assets["keep"]?.trashed == false)
    #expect(server.assets["v1"]?.tags.count == 1)
    #expect(server.mutations == ["PUT /api/tags", "PUT /api/tags/assets", "DELETE /api/assets"])
    #expect(Set(results.map(\.assetId)) == ["s1", "v1"])
    let history = try journal.read().runs
    #expect(history.count == 1 && !history[0].isUnfinished)
    #expect(history[0].trashed == ["s1", "v1"])
  }

  @Test func partnerAndLockedAssetsAreNeverSent() async throws {
    let (server, journal, _) = setUp()
    server.add("mine")
    server.add("partner", owner: "someone-else")
    server.add("locked", visibility: "locked")
    let (outcome, results) = try await run(server, journal, ["mine", "partner", "locked"])
    #expect(outcome.complete)
    #expect(server.assets["mine"]?.trashed == true)
    #expect(server.assets["partner"]?.trashed == false && server.assets["locked"]?.trashed == false)
    #expect(
      results.filter { $0.action == "skipped" }.map(\.assetId).sorted() == ["locked", "partner"])
  }

  @Test func batchesNeverExceedTheSizeNorSplitAPair() throws {
    let server = FakeRunServer()
    var ids: [String] = []
    for i in 0..<7 {
      server.add("s\(i)", video: "v\(i)")
      ids.append("s\(i)")
    }
    let plan = TrashPlan(candidates: ids.map(server.candidate), userID: "me", inTrash: [:])
    let batches = plan.batches(size: 5)
    #expect(batches.allSatisfy { $0.flatMap(\.ids).count <= 5 })
    #expect(batches.flatMap { $0 }.count == 7)
  }

  @Test(arguments: [
    ("upsertTag", FakeRunServer.Fault.before), ("upsertTag", .after),
    ("tagAssets", .before), ("tagAssets", .after), ("trash", .before), ("trash", .after),
  ])
  func aFailedRequestConvergesOnTheNextRun(_ method: String, _ when: FakeRunServer.Fault)
    async throws
  {
    let (server, journal, _) = setUp()
    var ids: [String] = []
    for i in 0..<6 {
      server.add("s\(i)", video: i % 2 == 0 ? "v\(i)" : nil)
      if i % 2 == 0 { server.add("v\(i)", visibility: "hidden") }
      ids.append("s\(i)")
    }
    server.add("bystander")
    server.faults[method] = when
    let (first, _) = try await run(server, journal, ids, batch: 4)
    #expect(!first.complete)
    // Whatever happened, nothing is in the trash without its run's tag.
    for (_, asset) in server.assets where asset.trashed { #expect(!asset.tags.isEmpty) }

    let (second, _) = try await run(server, journal, ids, batch: 4, second: 1)
    #expect(second.complete)
    let wanted = Set(ids + ["v0", "v2", "v4"])
    for (id, asset) in server.assets {
      #expect(asset.trashed == wanted.contains(id), "\(id)")
      if asset.trashed { #expect(asset.tags.count == 1, "\(id) carries exactly one run tag") }
    }
    #expect(server.trashedTwice == 0)
    let runs = try journal.read().runs
    #expect(runs.allSatisfy { !$0.isUnfinished })
    let journalled = runs.reduce(into: Set<String>()) { $0.formUnion($1.inTrash) }
    #expect(journalled == wanted)
  }

  @Test func stoppingBetweenBatchesClosesTheRunAsInterrupted() async throws {
    let (server, journal, _) = setUp()
    let ids = (0..<6).map { "s\($0)" }
    for id in ids { server.add(id) }
    let (outcome, results) = try await run(server, journal, ids, batch: 2, stopAfter: 1)
    #expect(outcome.interrupted)
    #expect(server.assets.values.filter(\.trashed).count == 2)
    #expect(results.filter { $0.action == "skipped" }.count == 4)
    let run = try #require(try journal.read().runs.first)
    #expect(run.completed && run.interrupted)
  }

  @Test func aPlanReplayedAfterSuccessTrashesNothingTwice() async throws {
    let (server, journal, _) = setUp()
    server.add("a")
    _ = try await run(server, journal, ["a"])
    let (_, results) = try await run(server, journal, ["a"], second: 1)
    #expect(results.map(\.action) == ["skipped"])
    #expect(server.trashCalls == 1)
  }
}

struct RestoreRunTests {
  @Test func restoresVerifiesAndJournalsUnderTheOriginalRun() async throws {
    let dir = TemporaryDirectory()
    let server = FakeRunServer()
    server.add("s", video: "v")
    server.add("v", visibility: "hidden")
    server.assets["s"]?.trashed = true
    server.assets["v"]?.trashed = true
    let journal = Journal(path: dir.path + "/j.ndjson")
    let outcome = await RestoreRun(server: server, journal: journal).execute(
      [.init(id: "s", runID: "R"), .init(id: "v", runID: "R", livePhotoVideo: true)],
      dryRun: false, emit: { _ in })
    #expect(outcome.restored.count == 2)
    #expect(Set(outcome.restoredChecksums) == ["sum-s", "sum-v"])
    #expect(server.assets["s"]?.trashed == false && server.assets["v"]?.trashed == false)
    #expect(try journal.read().runs.first?.restored == ["s", "v"])
  }

  @Test func aDryRunChangesNothing() async throws {
    let dir = TemporaryDirectory()
    let server = FakeRunServer()
    server.add("s")
    server.assets["s"]?.trashed = true
    let journal = Journal(path: dir.path + "/j.ndjson")
    var actions: [String] = []
    _ = await RestoreRun(server: server, journal: journal).execute(
      [.init(id: "s", runID: "R")], dryRun: true, emit: { actions.append($0.action) })
    #expect(actions == ["would-restore"])
    #expect(server.mutations.isEmpty)
    #expect(try journal.read().entries.isEmpty)
  }
}

import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// cairn-gate, cairn-trash, cairn-tag and cairn-restore through real pipes against the test
/// double, in both server modes.
@Suite(.serialized)
struct TrashPipelineTests {
  @Test(arguments: ImmichVersion.allCases)
  func firstRunIsDryThenTrashesExactlyTheCandidatesAndRestoreBringsThemBack(
    _ version: ImmichVersion
  ) async throws {
    let f = try await ActFixture(version: version)
    defer { Task { await f.stop() } }
    let wanted = [f.candidate(f.live.still), f.candidate(f.photos[0])]
    let stream = try f.reconcileStream(wanted)

    // First run with candidates: a dry run whatever the flags, and nothing mutates.
    let first = try await f.gateAndTrash(stream)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.contains("first run on this partition"))
    #expect(
      try first.records(ofType: "result").allSatisfy { $0["action"] as? String == "would-trash" })
    #expect(f.mutations.isEmpty)

    // The next run trashes the still, its motion video and the photo, tagged and journalled.
    let second = try await f.gateAndTrash(stream)
    #expect(second.status == 0, "\(second.stderr)")
    let results = try second.records(ofType: "result")
    #expect(
      Set(results.compactMap { $0["assetId"] as? String })
        == [f.live.still.id, f.live.video.id, f.photos[0].id])
    #expect(results.allSatisfy { $0["action"] as? String == "trashed" })
    for asset in [f.live.still, f.live.video, f.photos[0]] {
      #expect(f.isTrashed(asset), "\(asset.originalFileName)")
      #expect(f.tagValues(asset).contains { $0.hasPrefix("cairn/v1/run/") })
    }
    // Never-local, untouched photos and the partner's copy of the same bytes stay.
    for asset in [f.neverLocal, f.partnerPhoto, f.photos[1]] { #expect(!f.isTrashed(asset)) }
    let deletes = f.server.log.requests(method: "DELETE", path: "/api/assets")
    #expect(deletes.count == 1)
    #expect(deletes.allSatisfy { $0.body.contains("\"force\":false") && !$0.body.contains("true") })
    #expect(f.server.log.requests(method: "POST", path: "/api/tags").isEmpty)
    let end = try #require(try second.records(ofType: "end").first)
    let runID = try #require(end["runId"] as? String)
    let runs = try f.journal().runs.filter { !$0.reviewedOnly }
    #expect(runs.count == 1 && runs[0].completed && runs[0].runID == runID)
    #expect(runs[0].trashed == [f.live.still.id, f.live.video.id, f.photos[0].id])

    // cairn-tag sees the run from the server; cairn-restore undoes it.
    let tags = try await f.shell("cairn-tag list")
    let run = try #require(try tags.records(ofType: "run").first)
    #expect(run["runId"] as? String == runID)
    #expect(run["inTrash"] as? Int == 3)
    let restore = try await f.shell("cairn-restore --run-id \(runID)")
    #expect(restore.status == 0, "\(restore.stderr)")
    for asset in [f.live.still, f.live.video, f.photos[0]] { #expect(!f.isTrashed(asset)) }
    #expect(try f.journal().runs.first { $0.runID == runID }?.restored.count == 3)

    // Restored checksums are excluded: the same stream now trashes nothing.
    f.server.log.clear()
    let again = try await f.gateAndTrash(stream)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try again.records(ofType: "candidate").isEmpty)
    #expect(f.mutations.isEmpty)
  }

  @Test func aSeedRunWithNoCandidatesTrashesNothingAndDoesNotCountAsTheReview() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let empty = try await f.gateAndTrash(f.reconcileStream([]))
    #expect(empty.status == 0, "\(empty.stderr)")
    let next = try await f.gateAndTrash(f.reconcileStream([f.candidate(f.photos[1])]))
    #expect(next.status == 0)
    #expect(next.stderr.contains("first run on this partition"))
    #expect(f.mutations.isEmpty)
  }

  @Test func dryRunIsAccurateAndChangesNothing() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let stream = try f.reconcileStream([f.candidate(f.live.still), f.candidate(f.photos[2])])
    _ = try await f.gateAndTrash(stream)  // the forced first dry run
    f.server.log.clear()
    let dry = try await f.gateAndTrash(stream, trash: "--dry-run --yes")
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(
      Set(try dry.records(ofType: "result").compactMap { $0["assetId"] as? String })
        == [f.live.still.id, f.live.video.id, f.photos[2].id])
    #expect(f.mutations.isEmpty)
    // And the real run then does exactly what the dry run said.
    let real = try await f.gateAndTrash(stream)
    #expect(
      Set(try real.records(ofType: "result").compactMap { $0["assetId"] as? String })
        == Set(try dry.records(ofType: "result").compactMap { $0["assetId"] as? String }))
  }

  @Test func restoreAndTagDryRunsChangeNothing() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let stream = try f.reconcileStream([f.candidate(f.photos[0])])
    _ = try await f.gateAndTrash(stream)
    let trashed = try await f.gateAndTrash(stream)
    let runID = try #require(try trashed.records(ofType: "end").first?["runId"] as? String)
    f.server.log.clear()
    let restore = try await f.shell("cairn-restore --dry-run --run-id \(runID)")
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(
      try restore.records(ofType: "result").map { $0["action"] as? String } == ["would-restore"])
    let output = try f.write("trash-output.ndjson", trashed.stdout)
    let tag = try await f.shell("cairn-tag --add holiday/keep --dry-run < '\(output)'")
    #expect(tag.status == 0, "\(tag.stderr)")
    #expect(try tag.records(ofType: "result").count == 1)
    #expect(f.mutations.isEmpty)
    #expect(f.isTrashed(f.photos[0]))

    // The real thing tags the asset read from stdin.
    let tagged = try await f.shell("cairn-tag --add holiday/keep < '\(output)'")
    #expect(tagged.status == 0, "\(tagged.stderr)")
    #expect(f.tagValues(f.photos[0]).contains("holiday/keep"))
  }

  @Test func withoutATerminalAndWithoutYesItRefuses() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let stream = try f.reconcileStream([f.candidate(f.photos[0])])
    _ = try await f.gateAndTrash(stream)
    let refused = try await f.gateAndTrash(stream, trash: "")
    #expect(refused.status == 25)
    #expect(refused.stderr.contains("--yes"))
    #expect(f.mutations.isEmpty)
  }

  @Test func theJournalIsLostAndTheServerStillKnowsTheRun() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let stream = try f.reconcileStream([f.candidate(f.live.still)])
    _ = try await f.gateAndTrash(stream)
    let trashed = try await f.gateAndTrash(stream)
    let runID = try #require(try trashed.records(ofType: "end").first?["runId"] as? String)
    try FileManager.default.removeItem(atPath: f.journalPath)

    let show = try await f.shell("cairn-tag show \(runID)")
    #expect(show.status == 0, "\(show.stderr)")
    let assets = try show.records(ofType: "asset")
    #expect(Set(assets.compactMap { $0["id"] as? String }) == [f.live.still.id, f.live.video.id])
    #expect(assets.allSatisfy { $0["isTrashed"] as? Bool == true })

    let restore = try await f.shell("cairn-restore --file-name-matches '^IMG_0001'")
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(!f.isTrashed(f.live.still) && !f.isTrashed(f.live.video))
  }

  @Test func restoreLeavesAlonePhotosNoCairnRunTrashed() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    f.server.state.trash([f.photos[3].id])
    let restore = try await f.shell("cairn-restore --asset-id \(f.photos[3].id)")
    #expect(restore.stderr.contains("not trashed by a cairn run"))
    #expect(f.isTrashed(f.photos[3]))
    #expect(f.mutations.isEmpty)
  }

  @Test func theAPIKeyAppearsInNoOutputJournalOrStateFile() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let stream = try f.reconcileStream([f.candidate(f.live.still), f.candidate(f.photos[0])])
    var outputs: [ToolResult] = []
    outputs.append(try await f.gateAndTrash(stream))
    outputs.append(try await f.gateAndTrash(stream))
    let runID = try #require(try outputs[1].records(ofType: "end").first?["runId"] as? String)
    outputs.append(try await f.shell("cairn-tag list"))
    outputs.append(try await f.shell("cairn-tag show \(runID)"))
    outputs.append(try await f.shell("cairn-restore --run-id \(runID) -v"))
    outputs.append(try await f.shell("cairn-restore list"))
    // A failing server and a rejected key make error messages; they must not carry it either.
    f.server.faults.inject(Fault(path: "/api/tags", count: 5, action: .status(500, body: "{}")))
    outputs.append(try await f.gateAndTrash(f.reconcileStream([f.candidate(f.photos[1])])))
    outputs.append(
      try await f.shell("cairn-tag list", extra: ["IMMICH_API_KEY": ActFixture.secret + "x"]))
    for output in outputs {
      #expect(!output.stdout.contains(ActFixture.secret))
      #expect(!output.stderr.contains(ActFixture.secret))
    }
    let files = FileManager.default.enumerator(atPath: f.dir.path)
    var checked = 0
    while let relative = files?.nextObject() as? String {
      let path = f.dir.path + "/" + relative
      // The test's own input files are not cairn's.
      if relative.hasPrefix("reconcile-") { continue }
      guard let data = FileManager.default.contents(atPath: path) else { continue }
      #expect(!String(decoding: data, as: UTF8.self).contains(ActFixture.secret), "\(relative)")
      checked += 1
    }
    #expect(checked >= 2)  // at least the journal and the state database
  }
}

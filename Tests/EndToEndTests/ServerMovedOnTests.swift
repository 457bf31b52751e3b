import CairnRecords
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// What a person does in Immich's web app between cairn's runs, as real HTTP requests to the
/// test double with their key: restore from the trash, move to the trash, delete from the trash
/// for good, empty the trash.
struct WebApp {
  let apiBase: String
  let environment: [String: String]

  func send(_ method: String, _ path: String, _ body: String? = nil) async throws {
    let data = body.map { " -H 'Content-Type: application/json' --data '\($0)'" } ?? ""
    let script =
      "curl -sS -f -X \(method) -H \"x-api-key: $IMMICH_API_KEY\" '\(apiBase)\(path)'" + data
    let env = environment
    let result = try await ActFixture.offPool {
      try ToolRunner.shell(script, environment: env)
    }
    #expect(result.status == 0, "\(method) \(path): \(result.stderr)")
  }

  func restore(_ ids: String...) async throws {
    try await send("POST", "/trash/restore/assets", Self.ids(ids))
  }

  func trash(_ ids: String...) async throws {
    try await send("DELETE", "/assets", Self.ids(ids))
  }

  /// "Delete permanently" of assets in the trash: marked deleted until the purge job runs.
  func deleteForGood(_ ids: String...) async throws {
    try await send(
      "DELETE", "/assets",
      "{\"ids\":[\(ids.map { "\"\($0)\"" }.joined(separator: ","))],\"force\":true}")
  }

  static func ids(_ ids: [String]) -> String {
    "{\"ids\":[\(ids.map { "\"\($0)\"" }.joined(separator: ","))]}"
  }
}

/// Restores: the journal read against the server as it is now, through the built
/// binaries against the test double in both versions.
@Suite(.serialized)
struct ServerMovedOnTests {
  /// Trashes `assets` through cairn-gate and cairn-trash (the first run is the forced dry run)
  /// and returns the run's id.
  func trashed(_ f: ActFixture, _ candidates: [CandidateRecord]) async throws -> String {
    let stream = try f.reconcileStream(candidates)
    _ = try await f.gateAndTrash(stream)
    let real = try await f.gateAndTrash(stream)
    #expect(real.status == 0, "\(real.stderr)")
    return try #require(try real.records(ofType: "end").first?["runId"] as? String)
  }

  func webApp(_ f: ActFixture) -> WebApp { WebApp(apiBase: f.apiBase, environment: f.environment) }

  @Test(arguments: ImmichVersion.allCases)
  func aPurgedAssetNeverBlocksTheRestoreOfTheOthers(_ version: ImmichVersion) async throws {
    let f = try await ActFixture(version: version)
    defer { Task { await f.stop() } }
    let photos = Array(f.photos[0..<3])
    let runID = try await trashed(f, photos.map { f.candidate($0) })
    // The person deletes one for good from Immich's trash; the purge job runs.
    try await webApp(f).deleteForGood(photos[1].id)
    f.server.state.runQueuedJobs()

    let restore = try await f.shell("cairn-restore --run-id \(runID)")
    #expect(restore.status == 1, "\(restore.stderr)")
    #expect(!f.isTrashed(photos[0]) && !f.isTrashed(photos[2]))
    let results = try restore.records(ofType: "result")
    let failed = results.filter { $0["action"] as? String == "failed" }
    #expect(failed.compactMap { $0["assetId"] as? String } == [photos[1].id])
    #expect((failed.first?["message"] as? String)?.hasPrefix("purged") == true)
    #expect(
      Set(
        results.filter { $0["action"] as? String == "restored" }.compactMap {
          $0["assetId"] as? String
        })
        == [photos[0].id, photos[2].id])
    let run = try #require(try f.journal().runs.first { $0.runID == runID })
    #expect(run.restored == [photos[0].id, photos[2].id])

    let show = try await f.shell("cairn-restore show \(runID)")
    let shown = try show.records(ofType: "result")
    let purged = shown.first { $0["assetId"] as? String == photos[1].id }
    #expect(purged?["message"] as? String == "purged")
  }

  @Test(arguments: ImmichVersion.allCases)
  func anAssetEmptiedButNotYetPurgedIsReportedAndTheOthersRestored(_ version: ImmichVersion)
    async throws
  {
    let f = try await ActFixture(version: version)
    defer { Task { await f.stop() } }
    let photos = Array(f.photos[0..<3])
    let runID = try await trashed(f, photos.map { f.candidate($0) })
    // Deleted for good, the purge job not run yet: the server counts it, restores nothing.
    try await webApp(f).deleteForGood(photos[2].id)

    let restore = try await f.shell("cairn-restore --run-id \(runID)")
    #expect(restore.status == 1, "\(restore.stderr)")
    #expect(!f.isTrashed(photos[0]) && !f.isTrashed(photos[1]))
    let failed = try restore.records(ofType: "result").filter {
      $0["action"] as? String == "failed"
    }
    #expect(failed.compactMap { $0["assetId"] as? String } == [photos[2].id])
    #expect((failed.first?["message"] as? String)?.contains("emptied") == true)
    #expect(f.server.log.requests(method: "POST", path: "/api/trash/restore/assets").count >= 1)
  }

  @Test(arguments: ImmichVersion.allCases)
  func aLivePhotoTrashedAsTwoCandidatesIsRestoredWholeWhicheverHalfIsNamed(
    _ version: ImmichVersion
  ) async throws {
    for named in ["still", "video", "name"] {
      let f = try await ActFixture(version: version)
      defer { Task { await f.stop() } }
      // The whole Live Photo deleted: a candidate for each half, so the journal holds them as
      // two assets and only the server links them.
      _ = try await trashed(f, [f.candidate(f.live.video), f.candidate(f.live.still)])
      #expect(f.isTrashed(f.live.still) && f.isTrashed(f.live.video))
      let selection =
        switch named {
        case "still": "--asset-id \(f.live.still.id)"
        case "video": "--asset-id \(f.live.video.id)"
        default: "--file-name-matches '^IMG_0001\\.HEIC$'"
        }
      let restore = try await f.shell("cairn-restore \(selection)")
      #expect(restore.status == 0, "\(named): \(restore.stderr)")
      #expect(!f.isTrashed(f.live.still), "\(named)")
      #expect(!f.isTrashed(f.live.video), "\(named)")
    }
  }

  @Test(arguments: ImmichVersion.allCases)
  func aRunRestoredPartlyInTheWebAppRestoresTheRestAndSaysWhatHappened(
    _ version: ImmichVersion
  ) async throws {
    let f = try await ActFixture(version: version)
    defer { Task { await f.stop() } }
    let photos = Array(f.photos[0..<4])
    let runID = try await trashed(f, photos.map { f.candidate($0) })
    let web = webApp(f)
    try await web.restore(photos[0].id)  // kept
    try await web.restore(photos[1].id)  // restored, then trashed again by the person
    try await web.deleteForGood(photos[2].id)
    f.server.state.runQueuedJobs()

    // A dry run looks at the server and learns; it restores nothing.
    f.server.log.clear()
    let dry = try await f.shell("cairn-restore --dry-run --run-id \(runID)")
    #expect(dry.status == 1, "\(dry.stderr)")
    #expect(f.mutations.isEmpty)
    #expect(dry.stderr.contains("someone else"))
    try await web.trash(photos[1].id)

    let restore = try await f.shell("cairn-restore --run-id \(runID)")
    #expect(restore.status == 1, "\(restore.stderr)")
    #expect(!f.isTrashed(photos[3]))
    #expect(f.isTrashed(photos[1]), "trashed again by the person: theirs")
    #expect(restore.stderr.contains("not cairn's to restore"))
    let restoreBodies = f.server.log.requests(method: "POST", path: "/api/trash/restore/assets")
      .map(\.body)
    #expect(restoreBodies.allSatisfy { !$0.contains(photos[1].id) && !$0.contains(photos[0].id) })

    let show = try await f.shell("cairn-restore show \(runID)")
    var said: [String: String] = [:]
    for record in try show.records(ofType: "result") {
      said[record["assetId"] as? String ?? ""] = record["message"] as? String
    }
    #expect(said[photos[0].id] == "restored by someone else")
    #expect(said[photos[1].id] == "trashed again by someone else")
    #expect(said[photos[2].id] == "purged")
    #expect(said[photos[3].id] == "restored by cairn")
  }
}

/// The same through the documented pipeline on a library of real files: what the person
/// restored in the web app is theirs from then on.
@Suite(.serialized)
struct WebAppRestoreTests {
  func webApp(_ f: FieldLibrary) -> WebApp {
    WebApp(apiBase: f.env["IMMICH_URL"] ?? "", environment: f.env)
  }

  /// Seeds the state, deletes `a.jpg` and trashes it (the first run is the forced dry run).
  func trashA(_ f: FieldLibrary, gate: String = "") async throws {
    let seed = try await f.pipeline(gate: gate)
    #expect(seed.status == 0, "\(seed.stderr)")
    try f.remove("a.jpg")
    _ = try await f.pipeline(gate: gate)
    let real = try await f.pipeline(gate: gate)
    #expect(real.status == 0, "\(real.stderr)")
    #expect(try f.isTrashed("a.jpg"))
  }

  @Test(arguments: ImmichVersion.allCases)
  func aRestoreInTheWebAppIsLearnedAndNeverCountsAgainstTheThreshold(
    _ version: ImmichVersion
  ) async throws {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    // One candidate in five matched passes (under the floor of 2); two would be refused.
    let config = try f.dir.file(
      "config/cairn/config", "CAIRN_THRESHOLD_PERCENT=20\nCAIRN_FLOOR=2\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
    let gate = ""
    try await trashA(f, gate: gate)
    try await webApp(f).restore(try f.asset("a.jpg").id)

    // The file is still gone: the person wants the photo on the server. No warning about the
    // trash, nothing sent, and it is no candidate.
    f.server.log.clear()
    let next = try await f.pipeline(gate: gate)
    #expect(next.status == 0, "\(next.stderr)")
    #expect(!next.stderr.contains("already in the trash"))
    #expect(next.stderr.contains("1 restored by someone else"))
    #expect(f.server.log.mutating.isEmpty)
    #expect(try !f.isTrashed("a.jpg"))

    // The next real deletion is not refused for it.
    try f.remove("b.jpg")
    let deletion = try await f.pipeline(gate: gate)
    #expect(deletion.status == 0, "\(deletion.stderr)")
    #expect(try f.isTrashed("b.jpg"))
    #expect(try !f.isTrashed("a.jpg"))
  }

  @Test(arguments: ImmichVersion.allCases)
  func aPhotoPutBackAndDeletedAgainIsTrashedAgain(_ version: ImmichVersion) async throws {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    try await trashA(f)
    try await webApp(f).restore(try f.asset("a.jpg").id)
    try f.putBack("a.jpg")
    let back = try await f.pipeline()
    #expect(back.status == 0, "\(back.stderr)")
    #expect(try !f.isTrashed("a.jpg"))

    try f.remove("a.jpg")
    let again = try await f.pipeline()
    #expect(again.status == 0, "\(again.stderr)")
    #expect(!again.stderr.contains("already in the trash"))
    #expect(try f.isTrashed("a.jpg"))
    let runs = try f.journalRuns.filter { $0.trashed.contains(try f.asset("a.jpg").id) }
    #expect(runs.count == 2)
  }

  @Test(arguments: ImmichVersion.allCases)
  func aPhotoRestoredThenTrashedAgainInTheWebAppIsTheirsNotCairns(_ version: ImmichVersion)
    async throws
  {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    try await trashA(f)
    let a = try f.asset("a.jpg").id
    let web = webApp(f)
    try await web.restore(a)
    try f.putBack("a.jpg")
    let looked = try await f.pipeline()
    #expect(looked.status == 0, "\(looked.stderr)")
    // The person trashes it in Immich, keeping the local file: cairn leaves their decision.
    try await web.trash(a)
    f.server.log.clear()
    let next = try await f.pipeline()
    #expect(next.status == 0, "\(next.stderr)")
    #expect(try f.isTrashed("a.jpg"))
    #expect(f.server.log.requests(method: "POST", path: "/api/trash/restore/assets").isEmpty)
    let restore = try await ActFixture.offPool { [env = f.env] in
      try ToolRunner.shell("cairn-restore --asset-id \(a)", environment: env)
    }
    #expect(try f.isTrashed("a.jpg"))
    #expect(restore.stderr.contains("not cairn's to restore"), "\(restore.stderr)")
  }
}

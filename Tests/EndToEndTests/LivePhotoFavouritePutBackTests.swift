import CairnRecords
import CairnRuns
import CairnSettings
import CairnState
import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A library of real files uploaded to the test double — a Live Photo (`IMG_1.HEIC` and its
/// hidden `IMG_1.MOV`), a favourite and plain photos — driven through the documented pipeline
/// `cairn-hash LIB | cairn-reconcile | cairn-gate | cairn-trash`.
final class FieldLibrary: @unchecked Sendable {
  let dir = TemporaryDirectory("cairn-field")
  let server: ImmichTestServer
  let env: [String: String]
  let userId: String
  var byName: [String: Scenario.Asset] = [:]
  var library: String { dir.path + "/Photos" }
  static let names = ["a.jpg", "b.jpg", "fav.jpg", "IMG_1.HEIC", "IMG_1.MOV"]

  static func bytes(_ name: String) -> [UInt8] { Array("cairn field bytes of \(name)\n".utf8) }

  init(version: ImmichVersion) async throws {
    for name in Self.names { try dir.file("Photos/\(name)", contents: Self.bytes(name)) }
    var scenario = Scenario(version: version)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    let video = Scenario.Asset(
      ownerId: me.id, checksum: Scenario.checksum(of: Self.bytes("IMG_1.MOV")),
      originalFileName: "IMG_1.MOV", type: .video, visibility: .hidden, durationMs: 2000)
    let still = Scenario.Asset(
      ownerId: me.id, checksum: Scenario.checksum(of: Self.bytes("IMG_1.HEIC")),
      originalFileName: "IMG_1.HEIC", livePhotoVideoId: video.id)
    let favourite = Scenario.Asset(
      ownerId: me.id, checksum: Scenario.checksum(of: Self.bytes("fav.jpg")),
      originalFileName: "fav.jpg", isFavorite: true)
    scenario.assets += [video, still, favourite]
    var byName = ["IMG_1.MOV": video, "IMG_1.HEIC": still, "fav.jpg": favourite]
    for name in Self.names where byName[name] == nil {
      byName[name] = scenario.addAsset(
        owner: me, fileName: name, checksum: Scenario.checksum(of: Self.bytes(name)))
    }
    self.byName = byName
    userId = me.id
    server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    env = dir.isolatedEnvironment([
      "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
    ])
  }

  func stop() async { await server.stop() }

  func asset(_ name: String) throws -> Scenario.Asset { try #require(byName[name]) }

  func isTrashed(_ name: String) throws -> Bool {
    server.state.asset(try asset(name).id)?.isTrashed ?? false
  }

  func remove(_ names: String...) throws {
    for name in names { try FileManager.default.removeItem(atPath: library + "/" + name) }
  }

  func putBack(_ names: String...) throws {
    for name in names { try dir.file("Photos/\(name)", contents: Self.bytes(name)) }
  }

  /// The documented pipeline, `gate` added to cairn-gate's arguments, without a terminal.
  func pipeline(gate: String = "") async throws -> ToolResult {
    let script =
      "cairn-hash '\(library)' | cairn-reconcile | cairn-gate \(gate) | setsid cairn-trash --yes"
    let env = self.env
    let directory = dir.path
    return try await ActFixture.offPool {
      try ToolRunner.shell(script, environment: env, workingDirectory: directory)
    }
  }

  /// `cairn-gate --exclude` of a checksum on its own (a candidate-less stream of this server).
  func exclude(_ checksum: String) async throws {
    let script = "cairn-hash '\(library)' | cairn-reconcile | cairn-gate --exclude '\(checksum)'"
    let env = self.env
    let directory = dir.path
    let result = try await ActFixture.offPool {
      try ToolRunner.shell(script, environment: env, workingDirectory: directory)
    }
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// `cairn-gate | cairn-trash` on a hand-made reconcile stream of `candidates` for this server,
  /// naming the latest recorded scan and counted as a real stream is: only the state can tell
  /// it from cairn-reconcile's.
  func gateAndTrash(_ candidates: [CandidateRecord]) async throws -> ToolResult {
    let partition = ServerPartition(serverURL: env["IMMICH_URL"] ?? "", userId: userId)
    let store = try PartitionStore.open(partition, paths: CairnPaths(environment: env))
    let scan = try store.binding.latestScan()
    store.close()
    var lines = [
      HeaderRecord(
        tool: "cairn-reconcile", pipeline: ["cairn-hash"], roots: [library],
        server: ServerIdentity(url: env["IMMICH_URL"] ?? "", userId: userId), scan: scan
      ).jsonString()
    ]
    lines += candidates.map { $0.jsonString() }
    lines.append(
      EndRecord(
        tool: "cairn-reconcile", complete: true, errors: 0,
        counts: ["matched": 1000, "serverAssets": 1000],
        roots: [RootStatus(path: library, complete: true, files: 5)]
      ).jsonString())
    let input = try dir.file(
      "stream-\(UUID().uuidString).ndjson", StreamText.counted(lines.joined(separator: "\n") + "\n")
    )
    let env = self.env
    let directory = dir.path
    return try await ActFixture.offPool {
      try ToolRunner.shell(
        "cairn-gate -q < '\(input)' | setsid cairn-trash --yes", environment: env,
        workingDirectory: directory)
    }
  }

  /// A candidate for the asset named `name`, as a stream might (wrongly) say it.
  func candidate(_ name: String, _ bucket: Bucket, reason: String = "gone") throws
    -> CandidateRecord
  {
    let asset = try asset(name)
    let video = asset.livePhotoVideoId.flatMap { id in byName.values.first { $0.id == id } }
    return CandidateRecord(
      assetId: asset.id, checksum: asset.checksum, bucket: bucket, reason: reason,
      paths: [library + "/" + name], originalFileName: name, assetType: asset.type.rawValue,
      visibility: asset.visibility.rawValue, ownerId: userId,
      livePhotoVideoId: asset.livePhotoVideoId, livePhotoVideoChecksum: video?.checksum)
  }

  var journalRuns: [RunHistory] {
    get throws {
      let path = Journal.path(
        CairnPaths(environment: env),
        ServerPartition(serverURL: env["IMMICH_URL"] ?? "", userId: userId))
      return try Journal(path: path).read().runs
    }
  }

  /// The ids sent in every `DELETE /api/assets`.
  var trashRequests: [String] {
    server.log.requests(method: "DELETE", path: "/api/assets").map(\.body)
  }
}

/// The asset rules through the real binaries, in both server versions: a Live Photo's
/// motion video that stays in the library (or is excluded) is never trashed with its still, a
/// favourite waits for an explicit approval, and what a person put back after a cairn run
/// trashed it comes back from the trash by the next run — only what cairn trashed.
@Suite(.serialized)
struct LivePhotoFavouritePutBackTests {
  @Test(arguments: ImmichVersion.allCases)
  func aStillDeletedWithItsVideoKeptWaitsThenGoesAlone(_ version: ImmichVersion) async throws {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")

    try f.remove("IMG_1.HEIC")
    let review = try await f.pipeline()
    #expect(review.status == 0, "\(review.stderr)")
    #expect(review.stderr.contains("pending review"))
    #expect(review.stderr.contains("its motion video stays on the server"))
    #expect(f.server.log.mutating.isEmpty)

    // Approved: the first run with something to trash is a dry run, then the still goes alone.
    let still = try f.asset("IMG_1.HEIC")
    let video = try f.asset("IMG_1.MOV")
    let dry = try await f.pipeline(gate: "--approve \(still.id)")
    #expect(dry.status == 0, "\(dry.stderr)")
    let would = try dry.records(ofType: "result").compactMap { $0["assetId"] as? String }
    #expect(would == [still.id])
    #expect(f.server.log.mutating.isEmpty)
    let real = try await f.pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    #expect(try f.isTrashed("IMG_1.HEIC"))
    #expect(try !f.isTrashed("IMG_1.MOV"))
    #expect(f.trashRequests.count == 1)
    #expect(f.trashRequests.allSatisfy { !$0.contains(video.id) })
    #expect(try f.journalRuns.flatMap(\.trashed) == [still.id])
  }

  @Test(arguments: ImmichVersion.allCases)
  func anExcludedVideoStaysWhenTheWholeLivePhotoIsDeleted(_ version: ImmichVersion)
    async throws
  {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    let still = try f.asset("IMG_1.HEIC")
    let video = try f.asset("IMG_1.MOV")
    try await f.exclude(video.checksum)

    try f.remove("IMG_1.HEIC", "IMG_1.MOV")
    let review = try await f.pipeline(gate: "--approve \(still.id)")
    #expect(review.status == 0, "\(review.stderr)")
    #expect(f.server.log.mutating.isEmpty)  // the first run with candidates is a dry run
    let real = try await f.pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    #expect(try f.isTrashed("IMG_1.HEIC"))
    #expect(try !f.isTrashed("IMG_1.MOV"))
    #expect(f.trashRequests.allSatisfy { !$0.contains(video.id) })
  }

  @Test(arguments: ImmichVersion.allCases)
  func aFavouriteWaitsForAnExplicitApproval(_ version: ImmichVersion) async throws {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")

    try f.remove("fav.jpg", "a.jpg")
    let dry = try await f.pipeline()
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("marked favourite on Immich"))
    let real = try await f.pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    #expect(try f.isTrashed("a.jpg"))
    #expect(try !f.isTrashed("fav.jpg"))

    let favourite = try f.asset("fav.jpg")
    let approved = try await f.pipeline(gate: "--approve \(favourite.id)")
    #expect(approved.status == 0, "\(approved.stderr)")
    #expect(try f.isTrashed("fav.jpg"))
  }

  @Test(arguments: ImmichVersion.allCases)
  func whatCairnTrashedAndThePersonPutBackIsRestoredAndNothingElse(_ version: ImmichVersion)
    async throws
  {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    try f.remove("b.jpg", "IMG_1.HEIC", "IMG_1.MOV")
    let dry = try await f.pipeline()
    #expect(dry.status == 0, "\(dry.stderr)")
    let real = try await f.pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    let runID = try #require(try real.records(ofType: "end").first?["runId"] as? String)
    let trashed = try ["b.jpg", "IMG_1.HEIC", "IMG_1.MOV"].map { try f.asset($0).id }
    #expect(f.server.state.trashedAssetIDs == Set(trashed))

    // The person puts the Live Photo and b.jpg back, and trashes a.jpg in Immich's web app
    // while its file stays: cairn never trashed a.jpg, so it is not cairn's to bring back.
    try f.putBack("b.jpg", "IMG_1.HEIC", "IMG_1.MOV")
    let a = try f.asset("a.jpg")
    f.server.state.trash([a.id])
    f.server.log.clear()
    let next = try await f.pipeline()
    #expect(next.status == 0, "\(next.stderr)")
    #expect(f.server.state.trashedAssetIDs == [a.id])
    let restores = f.server.log.requests(method: "POST", path: "/api/trash/restore/assets")
    #expect(restores.count == 1)
    #expect(restores.allSatisfy { !$0.body.contains(a.id) })
    #expect(f.server.log.requests(method: "DELETE", path: "/api/assets").isEmpty)
    let results = try next.records(ofType: "result")
    #expect(
      Set(
        results.filter { $0["action"] as? String == "restored" }.compactMap {
          $0["assetId"] as? String
        }) == Set(trashed))
    let run = try #require(try f.journalRuns.first { $0.runID == runID })
    #expect(run.restored == Set(trashed))
    #expect(run.inTrash.isEmpty)

    // Done once: the next run has nothing to restore.
    f.server.log.clear()
    let after = try await f.pipeline()
    #expect(after.status == 0, "\(after.stderr)")
    #expect(f.server.log.mutating.isEmpty)
  }

  /// The acting stage checks the partition's state itself: a stream that says a Live Photo's
  /// still goes to the trash (with its video, which the latest scan holds) when cairn-reconcile
  /// put it up for review, and asks to restore an asset no cairn run trashed, changes nothing;
  /// approved through the pipeline, the still goes alone and the other asset stays put.
  @Test(arguments: ImmichVersion.allCases)
  func theTrashStageChecksTheLatestScanAndTheJournalWhateverTheStreamSays(
    _ version: ImmichVersion
  ) async throws {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    // The latest recorded scan lacks the still and holds its video.
    try f.remove("IMG_1.HEIC")
    let review = try await f.pipeline()
    #expect(review.status == 0, "\(review.stderr)")
    let a = try f.asset("a.jpg")
    f.server.state.trash([a.id])
    f.server.log.clear()
    let forged = try await f.gateAndTrash([
      try f.candidate("IMG_1.HEIC", .delete),
      try f.candidate("a.jpg", .restore, reason: "put-back"),
    ])
    #expect(forged.status == Int32(ExitStatus.refused.rawValue), "\(forged.stderr)")
    #expect(forged.stderr.contains("point-of-action"), "\(forged.stderr)")
    #expect(f.server.log.mutating.isEmpty)
    #expect(try !f.isTrashed("IMG_1.HEIC"))
    #expect(try f.isTrashed("a.jpg"))

    // Approved: the first run that would trash anything is a dry run, the next trashes.
    let still = try f.asset("IMG_1.HEIC")
    let dry = try await f.pipeline(gate: "--approve \(still.id)")
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(try !f.isTrashed("IMG_1.HEIC"))
    let approved = try await f.pipeline()
    #expect(approved.status == 0, "\(approved.stderr)")
    #expect(try f.isTrashed("IMG_1.HEIC"))
    #expect(try !f.isTrashed("IMG_1.MOV"))
    #expect(try f.isTrashed("a.jpg"))
    #expect(f.server.log.requests(method: "POST", path: "/api/trash/restore/assets").isEmpty)
  }
}

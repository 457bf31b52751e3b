import CairnMarks
import CairnRecords
import CairnSettings
import CairnState
import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A library and a server holding, besides the library's photos, photos cairn never hashed:
/// `IMG_9.JPG` (the user's own, and another user's of the same name and time), two
/// `IMG_8.JPG` taken minutes apart, and `IMG_7.JPG`. The watcher's unhashed arrivals are
/// recorded the way `cairn-observe watch` records them (`recordArrivals(_:unhashed:at:)`).
final class SightingLibrary: @unchecked Sendable {
  let dir = TemporaryDirectory("cairn-sighting")
  let server: ImmichTestServer
  let env: [String: String]
  let userId: String
  var byName: [String: Scenario.Asset] = [:]
  var library: String { dir.path + "/Photos" }
  /// When the photos cairn never hashed were taken.
  static let taken = Date(timeIntervalSince1970: 1_780_000_000)

  static func bytes(_ name: String) -> [UInt8] { Array("cairn sighting bytes of \(name)\n".utf8) }

  init(version: ImmichVersion, extra: [String: String] = [:]) async throws {
    for name in ["a.jpg", "b.jpg"] { try dir.file("Photos/\(name)", contents: Self.bytes(name)) }
    var scenario = Scenario(version: version)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    let (other, _) = scenario.addUser(email: "other@example.com")
    for name in ["a.jpg", "b.jpg"] {
      byName[name] = scenario.addAsset(
        owner: me, fileName: name, checksum: Scenario.checksum(of: Self.bytes(name)))
    }
    byName["IMG_9.JPG"] = scenario.addAsset(owner: me, fileName: "IMG_9.JPG", createdAt: Self.taken)
    byName["other's IMG_9.JPG"] = scenario.addAsset(
      owner: other, fileName: "IMG_9.JPG", createdAt: Self.taken)
    byName["IMG_8.JPG"] = scenario.addAsset(owner: me, fileName: "IMG_8.JPG", createdAt: Self.taken)
    byName["IMG_8.JPG again"] = scenario.addAsset(
      owner: me, fileName: "IMG_8.JPG", createdAt: Self.taken + 300)
    byName["IMG_7.JPG"] = scenario.addAsset(owner: me, fileName: "IMG_7.JPG", createdAt: Self.taken)
    userId = me.id
    server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    var environment = extra
    environment["IMMICH_URL"] = url.absoluteString + "/api"
    environment["IMMICH_API_KEY"] = ActFixture.secret
    env = dir.isolatedEnvironment(environment)
  }

  func stop() async { await server.stop() }

  func asset(_ name: String) throws -> Scenario.Asset { try #require(byName[name]) }

  func isTrashed(_ name: String) throws -> Bool {
    server.state.asset(try asset(name).id)?.isTrashed ?? false
  }

  var partition: ServerPartition {
    ServerPartition(serverURL: env["IMMICH_URL"] ?? "", userId: userId)
  }

  /// Records, as the watcher would, that it saw each of `names` arrive under `DCIM/` a minute
  /// ago, written `modifiedAfter` seconds after the photos were taken, and could not hash it.
  func sawUnhashed(_ names: [String], modifiedAfter: TimeInterval = 40) throws {
    let store = try PartitionStore.open(partition, paths: CairnPaths(environment: env))
    defer { store.close() }
    try store.recordArrivals(
      [],
      unhashed: names.map { name in
        UnhashedArrival(
          root: library, path: library + "/DCIM/" + name, name: name, size: 4_000_000,
          modifiedAt: Self.taken + modifiedAfter, changedAt: Self.taken + modifiedAfter,
          seenAt: Date() - 60, reason: "ENOENT")
      }, at: Date())
  }

  func unhashedLeft() throws -> [String] {
    let store = try PartitionStore.open(partition, paths: CairnPaths(environment: env))
    defer { store.close() }
    return try store.unhashedArrivals().map(\.name)
  }

  func sh(_ script: String) async throws -> ToolResult {
    let env = self.env
    let directory = dir.path
    return try await ActFixture.offPool {
      try ToolRunner.shell(script, environment: env, workingDirectory: directory)
    }
  }

  /// The documented pipeline, `gate` added to cairn-gate's arguments, without a terminal.
  func pipeline(gate: String = "") async throws -> ToolResult {
    try await sh(
      "cairn-hash '\(library)' | cairn-reconcile | cairn-gate \(gate) | setsid cairn-trash --yes")
  }

  /// `cairn-hash | cairn-reconcile -v`: its candidates by asset id, and what it said.
  func reconcile() async throws -> (candidates: [String: [String: Any]], stderr: String) {
    let result = try await sh("cairn-hash '\(library)' | cairn-reconcile -v")
    #expect(result.status == 0, "\(result.stderr)")
    var found: [String: [String: Any]] = [:]
    for record in try result.records(ofType: "candidate") {
      if let id = record["assetId"] as? String { found[id] = record }
    }
    return (found, result.stderr)
  }

  /// A candidate stream of the latest scan putting `name`'s asset in `bucket`, through
  /// `cairn-gate | cairn-trash`, as an edited stream would.
  func forged(_ name: String, _ bucket: Bucket) async throws -> ToolResult {
    let store = try PartitionStore.open(partition, paths: CairnPaths(environment: env))
    let scan = try store.binding.latestScan()
    store.close()
    let asset = try asset(name)
    let lines = [
      HeaderRecord(
        tool: "cairn-reconcile", pipeline: ["cairn-hash"], roots: [library],
        server: ServerIdentity(url: env["IMMICH_URL"] ?? "", userId: userId), scan: scan
      ).jsonString(),
      CandidateRecord(
        assetId: asset.id, checksum: asset.checksum, bucket: bucket, reason: "gone",
        paths: [library + "/DCIM/" + name], originalFileName: name, assetType: "IMAGE",
        visibility: "timeline", ownerId: userId
      ).jsonString(),
      EndRecord(
        tool: "cairn-reconcile", complete: true, errors: 0,
        counts: ["matched": 2, "serverAssets": 6],
        roots: [RootStatus(path: library, complete: true, files: 2)]
      ).jsonString(),
    ]
    let input = try dir.file(
      "stream-\(UUID().uuidString).ndjson", StreamText.counted(lines.joined(separator: "\n") + "\n")
    )
    return try await sh("cairn-gate < '\(input)' | setsid cairn-trash --yes")
  }
}

/// Seen but never hashed: a photo deleted before the watcher could hash it is
/// matched by name and time to the one asset of the user's that it was, which then waits for a
/// person — never trashed without an approval, trashed with one — and a sighting that matches
/// nothing, or several, proposes nothing and is forgotten.
@Suite(.serialized)
struct SeenUnhashedPipelineTests {
  static let versions = ImmichVersion.allCases

  @Test(arguments: versions)
  func theOneMatchWaitsForApprovalAndGoesWithIt(version: ImmichVersion) async throws {
    let f = try await SightingLibrary(version: version)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    try f.sawUnhashed(["IMG_9.JPG", "IMG_8.JPG", "nothing.jpg"])
    try f.sawUnhashed(["IMG_7.JPG"], modifiedAfter: 3 * 86_400)  // IMG_7's name, not its time

    let mine = try f.asset("IMG_9.JPG")
    let reconciled = try await f.reconcile()
    #expect(Array(reconciled.candidates.keys) == [mine.id.lowercased()])
    let candidate = try #require(reconciled.candidates[mine.id.lowercased()])
    #expect(candidate["bucket"] as? String == "pending")
    #expect(candidate["reason"] as? String == "seen-unhashed")
    #expect(candidate["paths"] as? [String] == [f.library + "/DCIM/IMG_9.JPG"])
    #expect(reconciled.stderr.contains("matches 2 assets by name and time; none is proposed"))
    #expect(!reconciled.stderr.contains(try f.asset("IMG_8.JPG").id))
    // Judged: only the one that waits for a person is kept to be judged again.
    #expect(try f.unhashedLeft() == ["IMG_9.JPG"])

    // Proposed at every run until decided, shown as what it is, never trashed without a word.
    for _ in 0..<2 {
      let run = try await f.pipeline()
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stderr.contains("1 pending review"), "\(run.stderr)")
      #expect(run.stderr.contains("cairn never saw its bytes"))
      #expect(run.stderr.contains("1 of those pending were matched by name and time"))
    }
    #expect(try !f.isTrashed("IMG_9.JPG"))
    let page = f.dir.path + "/review.html"
    let reviewed = try await f.pipeline(gate: "--review '\(page)'")
    #expect(reviewed.status == 0, "\(reviewed.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("seen-unhashed</span>: a file of this name arrived in the library"))
    #expect(html.contains("matched by its name and time, never by its bytes"))

    // An edited stream putting it in the delete bucket changes nothing.
    for _ in 0..<2 {
      let forged = try await f.forged("IMG_9.JPG", .delete)
      #expect(forged.stderr.contains("never hashed are not pending"), "\(forged.stderr)")
    }
    #expect(try !f.isTrashed("IMG_9.JPG"))
    #expect(f.server.log.requests(method: "DELETE", path: "/api/assets").isEmpty)

    // Approved, it goes (the first run with something to trash is a dry run); the other
    // user's photo of the same name stays.
    let dry = try await f.pipeline(gate: "--approve \(mine.id)")
    #expect(dry.status == 0, "\(dry.stderr)")
    let real = try await f.pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    #expect(try f.isTrashed("IMG_9.JPG"))
    #expect(try !f.isTrashed("other's IMG_9.JPG"))
    #expect(try !f.isTrashed("IMG_8.JPG") && !f.isTrashed("IMG_7.JPG"))
    // Its asset gone to the trash, the sighting matches nothing and is forgotten.
    #expect(try await f.reconcile().candidates.isEmpty)
    #expect(try f.unhashedLeft().isEmpty)
  }

  /// A file the scan finds at the sighted path was hashed after all: nothing is proposed, and
  /// the sighting goes.
  @Test(arguments: versions)
  func aSightedFileTheScanFindsIsAFileLikeAnyOther(version: ImmichVersion) async throws {
    let f = try await SightingLibrary(version: version)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    try f.sawUnhashed(["IMG_9.JPG"])
    try f.dir.file("Photos/DCIM/IMG_9.JPG", contents: SightingLibrary.bytes("IMG_9.JPG"))
    #expect(try await f.reconcile().candidates.isEmpty)
    #expect(try f.unhashedLeft().isEmpty)
  }

  /// With review in Immich on, the sighted asset is marked for review like any pending one,
  /// and the approve tag a person sets in the web app lets it go.
  @Test(arguments: versions)
  func reviewInImmichMarksItAndItsApproveTagLetsItGo(version: ImmichVersion) async throws {
    let f = try await SightingLibrary(
      version: version, extra: ReviewInImmichTests.on)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    try f.sawUnhashed(["IMG_9.JPG"])
    let mine = try f.asset("IMG_9.JPG")
    // A photo deleted as usual, so that a run has something to trash (the first is dry).
    try FileManager.default.removeItem(atPath: f.library + "/a.jpg")
    let dry = try await f.pipeline()
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("would mark 1 and unmark 0 candidate(s) for review"))
    let real = try await f.pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    #expect(try f.isTrashed("a.jpg"))
    let review = try #require(f.server.state.tag(value: ReviewTags.review))
    #expect(f.server.state.tagIDs(onAsset: mine.id).contains(review.id))
    #expect(try !f.isTrashed("IMG_9.JPG"))

    // In the web app: the person tags it approved; the next run trashes it.
    let curl =
      "curl -sSf -H 'x-api-key: \(ActFixture.secret)' -H 'Content-Type: application/json' -X PUT"
    let made = try await f.sh(
      "\(curl) --data '{\"tags\":[\"\(ReviewTags.approve)\"]}' \"$IMMICH_URL/tags\"")
    let tags = try #require(
      try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [[String: Any]])
    let tag = try #require(tags.first?["id"] as? String)
    let tagged = try await f.sh(
      "\(curl) --data '{\"tagIds\":[\"\(tag)\"],\"assetIds\":[\"\(mine.id)\"]}' "
        + "\"$IMMICH_URL/tags/assets\"")
    #expect(tagged.status == 0, "\(tagged.stderr)")
    let decided = try await f.pipeline()
    #expect(decided.status == 0, "\(decided.stderr)")
    #expect(decided.stderr.contains("approved 1 candidate(s) (tagged cairn/v1/approve in Immich)"))
    #expect(try f.isTrashed("IMG_9.JPG"))
  }
}

/// The same through `cairn-observe watch`: a photo synced in and deleted within the second the
/// watcher leaves it alone before reading it.
@Suite(.serialized)
struct SeenUnhashedWatcherTests {
  @Test func aPhotoDeletedBeforeTheWatcherCouldHashItWaitsForApproval() async throws {
    let (f, watcher) = try await WatcherArrivalTests.start(["R"])
    defer {
      watcher.killIfRunning()
      Task { await f.stop() }
    }
    let bytes = String(decoding: FieldFixture.bytes("R"), as: UTF8.self)
    try await f.sh("printf '%s' '\(bytes)' > R.jpg && sleep 0.6 && rm R.jpg")
    try await watcher.waitForLog(containing: "could not be hashed")
    #expect(try await watcher.stop() == 0)

    let candidates = try await f.candidates()
    #expect(candidates.mapValues(\.bucket) == ["R": "pending"])
    #expect(candidates["R"]?.reason == "seen-unhashed")
    try await WatcherArrivalTests.runsPastQuarantine(f)
    #expect(f.trashed.isEmpty)

    let id = try #require(f.assets["R"]?.id)
    for gate in ["--approve \(id)", ""] {  // the first run with something to trash is dry
      let run = try await ToolRunner.shellDetached(
        "cairn-hash '\(f.library)' | cairn-reconcile | cairn-gate \(gate) | setsid cairn-trash --yes",
        environment: f.env, workingDirectory: f.dir.path)
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(f.trashed == ["R"])
  }
}

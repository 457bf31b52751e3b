import CairnMarks
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A library with one Live Photo (`IMG_1.HEIC` and its hidden `IMG_1.MOV`) and a few plain
/// photos, uploaded to the test double, driven through
/// `cairn-hash LIB | cairn-reconcile | cairn-gate | cairn-trash`.
final class LivePhotoWorld: @unchecked Sendable {
  let dir = TemporaryDirectory("cairn-live")
  let server: ImmichTestServer
  let env: [String: String]
  let still: Scenario.Asset
  let video: Scenario.Asset
  var library: String { dir.path + "/Photos" }
  static let plain = ["a.jpg", "b.jpg", "c.jpg", "d.jpg"]

  static func bytes(_ name: String) -> [UInt8] { Array("cairn live bytes of \(name)\n".utf8) }

  /// `stillTaken`: the still's taken date (the video's is now); `environment`: settings.
  init(
    version: ImmichVersion, favourite: Bool = false, stillTaken: Date = Date(),
    environment: [String: String] = [:]
  ) async throws {
    for name in Self.plain + ["IMG_1.HEIC", "IMG_1.MOV"] {
      try dir.file("Photos/\(name)", contents: Self.bytes(name))
    }
    var scenario = Scenario(version: version)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    video = Scenario.Asset(
      ownerId: me.id, checksum: Scenario.checksum(of: Self.bytes("IMG_1.MOV")),
      originalFileName: "IMG_1.MOV", type: .video, visibility: .hidden, durationMs: 2000)
    still = Scenario.Asset(
      ownerId: me.id, checksum: Scenario.checksum(of: Self.bytes("IMG_1.HEIC")),
      originalFileName: "IMG_1.HEIC", livePhotoVideoId: video.id, fileCreatedAt: stillTaken,
      isFavorite: favourite)
    scenario.assets += [video, still]
    for name in Self.plain {
      scenario.addAsset(
        owner: me, fileName: name, checksum: Scenario.checksum(of: Self.bytes(name)))
    }
    server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    env = dir.isolatedEnvironment(
      [
        "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
      ].merging(environment) { $1 })
  }

  func stop() async { await server.stop() }

  var stillTrashed: Bool { server.state.asset(still.id)?.isTrashed ?? false }
  var videoTrashed: Bool { server.state.asset(video.id)?.isTrashed ?? false }

  /// The ids sent in every `DELETE /api/assets`.
  var trashRequests: [String] {
    server.log.requests(method: "DELETE", path: "/api/assets").map(\.body)
  }

  func shell(_ script: String) async throws -> ToolResult {
    let env = self.env
    let directory = dir.path
    return try await ActFixture.offPool {
      try ToolRunner.shell(script, environment: env, workingDirectory: directory)
    }
  }

  /// The documented pipeline; `gate` is added to cairn-gate's arguments, `filter` put between
  /// cairn-gate and cairn-trash.
  func pipeline(gate: String = "", filter: String? = nil) async throws -> ToolResult {
    let between = filter.map { " | \($0)" } ?? ""
    return try await shell(
      "cairn-hash '\(library)' | cairn-reconcile | cairn-gate \(gate)\(between) "
        + "| setsid cairn-trash --yes")
  }

  /// Deletes both halves locally.
  func deleteTheLivePhoto() throws {
    for name in ["IMG_1.HEIC", "IMG_1.MOV"] {
      try FileManager.default.removeItem(atPath: library + "/" + name)
    }
  }

  /// Files the still in an album, as the web app does.
  func fileTheStillInAnAlbum() async throws {
    let base = env["IMMICH_URL"] ?? ""
    let created = try await AlbumProtectionPipelineTests.send(
      "POST", base + "/albums", #"{"albumName":"Summer"}"#)
    let albumId = try #require(
      created.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first.map(String.init))
    _ = try await AlbumProtectionPipelineTests.send(
      "PUT", base + "/albums/\(albumId)/assets", #"{"ids":["\#(still.id)"]}"#)
  }

  /// Tags `asset` with `value` as Immich's web app does (`PUT /api/tags`, then
  /// `PUT /api/tags/assets`).
  func webTag(_ value: String, _ asset: Scenario.Asset) async throws {
    let base = env["IMMICH_URL"] ?? ""
    let made = try await AlbumProtectionPipelineTests.send(
      "PUT", base + "/tags", #"{"tags":["\#(value)"]}"#)
    let tags = try #require(
      try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [[String: Any]])
    let id = try #require(tags.first?["id"] as? String)
    _ = try await AlbumProtectionPipelineTests.send(
      "PUT", base + "/tags/assets", #"{"tagIds":["\#(id)"],"assetIds":["\#(asset.id)"]}"#)
  }

  /// Seeds the library, deletes the Live Photo and `a.jpg` and runs twice (the first run with
  /// something to trash is a dry run, the second trashes `a.jpg`); returns the second run.
  func deleteAndRunTwice() async throws -> ToolResult {
    let seed = try await pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    try deleteTheLivePhoto()
    try FileManager.default.removeItem(atPath: library + "/a.jpg")
    let dry = try await pipeline()
    #expect(dry.status == 0, "\(dry.stderr)")
    let real = try await pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    return real
  }

  /// Neither half is trashed, nor named in a trash request.
  func expectWhole(_ run: ToolResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!stillTrashed, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(!videoTrashed, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(
      trashRequests.allSatisfy { !$0.contains(video.id) && !$0.contains(still.id) },
      sourceLocation: sourceLocation)
  }

  /// Both halves went to the trash in one request.
  func expectTrashedTogether(
    _ run: ToolResult, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(stillTrashed && videoTrashed, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(
      trashRequests.contains { $0.contains(video.id) && $0.contains(still.id) },
      sourceLocation: sourceLocation)
    #expect(
      run.stderr.contains("1 asset(s) and 1 motion video(s) moved to the trash"),
      "\(run.stderr)", sourceLocation: sourceLocation)
  }
}

/// A Live Photo is decided whole, through the built binaries against the double.
/// Whatever makes the still wait (an album, a favourite, the age window, a keep decision in
/// Immich, a quarantine) makes its motion video wait with it, the video is never trashed
/// alone, and an approval of one half trashes both.
@Suite(.serialized)
struct LivePhotoWholePipelineTests {
  static let versions = ImmichVersion.allCases

  @Test(arguments: versions)
  func aStillInAnAlbumKeepsItsMotionVideo(_ version: ImmichVersion) async throws {
    let w = try await LivePhotoWorld(version: version)
    defer { Task { await w.stop() } }
    try await w.fileTheStillInAnAlbum()
    let real = try await w.deleteAndRunTwice()
    w.expectWhole(real)
    #expect(real.stderr.contains("it waits with its still IMG_1.HEIC (in-album)"))

    let approved = try await w.pipeline(gate: "--approve \(w.still.id)")
    w.expectTrashedTogether(approved)
  }

  @Test(arguments: versions)
  func aFavouriteStillKeepsItsMotionVideoAndApprovingTheVideoTakesBoth(
    _ version: ImmichVersion
  ) async throws {
    let w = try await LivePhotoWorld(version: version, favourite: true)
    defer { Task { await w.stop() } }
    let real = try await w.deleteAndRunTwice()
    w.expectWhole(real)
    #expect(real.stderr.contains("(favorite)"), "\(real.stderr)")

    let approved = try await w.pipeline(gate: "--approve \(w.video.id)")
    w.expectTrashedTogether(approved)
  }

  @Test(arguments: versions)
  func theAgeWindowKeepsBothHalves(_ version: ImmichVersion) async throws {
    let w = try await LivePhotoWorld(
      version: version, stillTaken: Date().addingTimeInterval(-400 * 86_400),
      environment: ["CAIRN_MAX_AGE_DAYS": "30"])
    defer { Task { await w.stop() } }
    let real = try await w.deleteAndRunTwice()
    w.expectWhole(real)
    #expect(real.stderr.contains("2 kept by the age window"), "\(real.stderr)")

    let approved = try await w.pipeline(gate: "--approve \(w.still.id)")
    w.expectTrashedTogether(approved)
  }

  @Test(arguments: versions)
  func aStillHeldInQuarantineHoldsItsMotionVideo(_ version: ImmichVersion) async throws {
    let w = try await LivePhotoWorld(version: version)
    defer { Task { await w.stop() } }
    let seed = try await w.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    // The still goes to the desktop trash (a recorded deletion, held 14 days); the motion
    // video is deleted outright.
    let trash = (w.env["XDG_DATA_HOME"] ?? "") + "/Trash"
    let moved = try await w.shell(
      """
      mkdir -p '\(trash)/files' '\(trash)/info' && \
      mv '\(w.library)/IMG_1.HEIC' '\(trash)/files/IMG_1.HEIC' && \
      printf '[Trash Info]\\nPath=%s\\nDeletionDate=%s\\n' '\(w.library)/IMG_1.HEIC' \
        "$(date +%Y-%m-%dT%H:%M:%S)" > '\(trash)/info/IMG_1.HEIC.trashinfo' && \
      rm '\(w.library)/IMG_1.MOV' '\(w.library)/a.jpg'
      """)
    #expect(moved.status == 0, "\(moved.stderr)")
    for _ in 0..<2 {
      let run = try await w.pipeline()
      #expect(run.status == 0, "\(run.stderr)")
      w.expectWhole(run)
      #expect(run.stderr.contains("2 held"), "\(run.stderr)")
    }

    let approved = try await w.pipeline(gate: "--approve \(w.still.id)")
    w.expectTrashedTogether(approved)
  }

  @Test(arguments: versions)
  func keptInImmichKeepsTheMotionVideoToo(_ version: ImmichVersion) async throws {
    let w = try await LivePhotoWorld(
      version: version, favourite: true, environment: ["CAIRN_REVIEW_IN_IMMICH": "on"])
    defer { Task { await w.stop() } }
    let real = try await w.deleteAndRunTwice()
    w.expectWhole(real)

    try await w.webTag(ReviewTags.keep, w.still)
    let kept = try await w.pipeline()
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(kept.stderr.contains("2 excluded"), "\(kept.stderr)")
    w.expectWhole(kept)
    let later = try await w.pipeline()
    #expect(later.status == 0, "\(later.stderr)")
    w.expectWhole(later)
    let excluded = try await w.shell("cairn-observe list --exclusions")
    #expect(excluded.stdout.contains(w.video.checksum), "\(excluded.stdout)\(excluded.stderr)")
    #expect(excluded.stdout.contains(w.still.checksum))
  }

  /// The trash stage holds the pair rule itself: a plan filtered down to the motion video
  /// (a `grep -v` of the still's line between the stages) trashes nothing.
  @Test(arguments: versions)
  func aPlanWithoutTheStillNeverTrashesTheVideo(_ version: ImmichVersion) async throws {
    let w = try await LivePhotoWorld(version: version, favourite: true)
    defer { Task { await w.stop() } }
    let real = try await w.deleteAndRunTwice()
    w.expectWhole(real)

    let filtered = try await w.pipeline(
      gate: "--approve \(w.still.id)", filter: "grep -v '\"assetId\":\"\(w.still.id)\"'")
    #expect(filtered.status == 0, "\(filtered.stderr)")
    w.expectWhole(filtered)
    #expect(filtered.stderr.contains("a Live Photo goes whole"), "\(filtered.stderr)")

    let whole = try await w.pipeline()
    w.expectTrashedTogether(whole)
  }
}

import CairnImmich
import CairnRecords
import CairnSettings
import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// `cairn-fetch` as a user and the other tools run it: a real process, real pipes.
/// Build first: `swift build --product cairn-fetch`.
@Suite struct FetchToolTests {
  /// Every output of every run, to prove the key, password and session never appear.
  final class Transcript: @unchecked Sendable {
    var text = ""
    func add(_ result: ToolResult) { text += result.stdout + result.stderr }
  }

  func fetch(
    _ h: Harness, _ arguments: [String] = [], _ extra: [String: String] = [:],
    transcript: Transcript? = nil
  ) async throws -> ToolResult {
    var env = h.environment(["CAIRN_HTTP_ATTEMPTS": "2"])
    for (key, value) in extra { env[key] = value }
    let result = try await runTool(arguments, environment: env, folder: h.folder.path)
    transcript?.add(result)
    return result
  }

  /// Runs the binary off the cooperative pool, which the other tests need.
  func runTool(_ arguments: [String], environment: [String: String], folder: String)
    async throws -> ToolResult
  {
    try await ToolRunner.runDetached(
      "cairn-fetch", arguments, environment: environment, workingDirectory: folder)
  }

  func assetIds(_ result: ToolResult) throws -> [String] {
    try result.records(ofType: "asset").compactMap { $0["id"] as? String }
  }

  func end(_ result: ToolResult) throws -> [String: Any] {
    // A failed listing ends with its end record and then the abort record.
    try #require(try result.records().last { $0["type"] as? String == "end" })
  }

  @Test(arguments: ImmichVersion.both)
  func listsTheUsersAssetsBetweenHeaderAndEnd(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      let result = try await fetch(h)
      #expect(result.status == 0, "\(result.stderr)")
      let records = try result.records()
      let header = try #require(records.first)
      #expect(header["type"] as? String == "header")
      let server = try #require(header["server"] as? [String: Any])
      #expect(server["url"] as? String == h.base + "/api")
      #expect(server["userId"] as? String == library.alice.id)
      #expect(try assetIds(result) == library.expectedIds)
      let end = try end(result)
      #expect(end["complete"] as? Bool == true)
      let counts = try #require(end["counts"] as? [String: Int])
      #expect(counts["assets"] == library.expectedIds.count)
      #expect(counts["trashed"] == 1)
      #expect(counts["partnerSkipped"] == 1)
      #expect(counts["lockedSkipped"] == 0)
      #expect(counts["requests"] == h.server.log.all.count)
      // No session: one line says how to get the fast path.
      #expect(result.stderr.contains("cairn-fetch login"))
      #expect(result.stderr.split(separator: "\n").count == 1)
    }
  }

  @Test func identityPrintsOnlyTheHeaderAndEnd() async throws {
    let library = Library(.v3_1)
    try await withServer(library.scenario) { h in
      let result = try await fetch(h, ["identity"])
      #expect(result.status == 0)
      let records = try result.records()
      #expect(records.map { $0["type"] as? String } == ["header", "end"])
      let server = try #require(records.first?["server"] as? [String: Any])
      #expect(server["userId"] as? String == library.alice.id)
      #expect(server["version"] as? String == "3.1.0")
      #expect(h.server.log.requests(method: "POST", path: "/api/search/metadata").isEmpty)
    }
  }

  @Test func aFailedListingIsNeverComplete() async throws {
    try await withServer(Library(.v3_1).scenario) { h in
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/search/metadata", count: 100, action: .status(500)))
      let result = try await fetch(h)
      #expect(result.status == 69)
      #expect(try result.records(ofType: "asset").isEmpty)
      #expect(try end(result)["complete"] as? Bool == false)
      #expect(result.stderr.contains("server error 500"))
      #expect(result.stderr.hasPrefix("cairn-fetch: "))
    }
  }

  @Test func exitStatusesSayWhatIsWrong() async throws {
    var library = Library(.v3_1)
    library.scenario.addKey(
      for: library.alice, name: "narrow", secret: "narrow-key-Ht5", permissions: ["user.read"])
    try await withServer(library.scenario) { h in
      #expect(try await fetch(h, [], ["IMMICH_API_KEY": "not-the-key-Gg2"]).status == 77)
      let narrow = try await fetch(h, [], ["IMMICH_API_KEY": "narrow-key-Ht5"])
      #expect(narrow.status == 77)
      #expect(narrow.stderr.contains("asset.read"))
      let html = try await fetch(h, [], ["IMMICH_URL": h.base + "/photos"])
      #expect(html.status == 69)
      #expect(html.stderr.contains("not an Immich API URL"))
      var noURL = h.environment()
      noURL.removeValue(forKey: "IMMICH_URL")
      let missing = try await runTool([], environment: noURL, folder: h.folder.path)
      #expect(missing.status == 78)
      #expect(missing.stderr.contains("IMMICH_URL is not set"))
    }
  }

  @Test func checkReportsEachCheckAndWhetherCairnCanRun() async throws {
    var library = Library(.v2_7)
    library.scenario.addKey(
      for: library.alice, name: "no-delete", secret: "no-delete-Kx1",
      permissions: ["asset.read", "tag.create", "tag.asset", "user.read"])
    try await withServer(library.scenario) { h in
      let good = try await fetch(h, ["check"])
      #expect(good.status == 0, "\(good.stderr)")
      #expect(good.stderr.contains("[ok]"))
      #expect(!good.stderr.contains("[FAIL]"))
      #expect(good.stderr.contains("permission asset.delete"))
      #expect(good.stderr.contains("30 days"))
      #expect(try good.records().map { $0["type"] as? String } == ["header", "end"])

      let noDelete = try await fetch(h, ["check"], ["IMMICH_API_KEY": "no-delete-Kx1"])
      #expect(noDelete.status == 77)
      #expect(noDelete.stderr.contains("[FAIL] permission asset.delete missing"))
      #expect(noDelete.stderr.contains("[warn] permission tag.read missing"))
      #expect(
        noDelete.stderr.contains(
          "[warn] permission asset.view missing (optional: to show thumbnails on the review page"))

      h.server.state.setTrash(enabled: false)
      let noTrash = try await fetch(h, ["check"])
      #expect(noTrash.status == 25)
      #expect(noTrash.stderr.contains("trash is disabled"))
    }
  }

  @Test(arguments: ImmichVersion.both)
  func afterLoginListingsComeFromTheSyncStream(version: ImmichVersion) async throws {
    let library = Library(version, extraAliceAssets: 40)
    let transcript = Transcript()
    try await withServer(library.scenario) { h in
      let credentials = [
        "IMMICH_EMAIL": "alice@example.com", "IMMICH_PASSWORD": Library.alicePassword,
      ]
      let login = try await fetch(h, ["login"], credentials, transcript: transcript)
      #expect(login.status == 0, "\(login.stderr)")
      #expect(login.stdout.isEmpty)
      let paths = CairnPaths(environment: h.environment())
      let partition = ServerPartition(serverURL: h.base + "/api", userId: library.alice.id)
      let sessionFile = SessionStore.path(paths, partition)
      let mode = try FileManager.default.attributesOfItem(atPath: sessionFile)[.posixPermissions]
      #expect((mode as? NSNumber)?.intValue == 0o600)
      let token = try #require(try SessionStore.load(paths, partition)).token.reveal()

      let streamed = try await fetch(h, [], transcript: transcript)
      #expect(streamed.status == 0, "\(streamed.stderr)")
      #expect(h.server.log.requests(path: "/api/sync/stream").count == 1)
      #expect(!streamed.stderr.contains("cairn-fetch login"))
      let paged = try await fetch(h, ["--no-sync"], transcript: transcript)
      let full = try await fetch(h, ["--full"], transcript: transcript)
      #expect(try assetIds(streamed) == library.expectedIds)
      #expect(try streamed.records(ofType: "asset").count == paged.records(ofType: "asset").count)
      let isAsset = { (line: String) in line.hasPrefix(#"{"type":"asset""#) }
      #expect(streamed.lines.filter(isAsset) == paged.lines.filter(isAsset))
      #expect(full.lines.filter(isAsset) == paged.lines.filter(isAsset))
      #expect(h.server.log.requests(path: "/api/sync/stream").count == 1)

      h.server.state.trash([library.timeline.id])
      h.server.log.clear()
      let refreshed = try await fetch(h, [], transcript: transcript)
      #expect(refreshed.status == 0)
      #expect(h.server.log.requests(path: "/api/sync/stream").count == 1)
      #expect(h.server.log.requests(method: "POST", path: "/api/sync/ack").count == 1)
      #expect(h.server.log.requests(method: "POST", path: "/api/search/metadata").isEmpty)
      let trashed = try refreshed.records(ofType: "asset").first {
        $0["id"] as? String == library.timeline.id
      }
      #expect(trashed?["isTrashed"] as? Bool == true)

      let logout = try await fetch(h, ["logout"], transcript: transcript)
      #expect(logout.status == 0)
      #expect(!FileManager.default.fileExists(atPath: sessionFile))

      #expect(!transcript.text.contains(Library.aliceKey))
      #expect(!transcript.text.contains(Library.alicePassword))
      #expect(!transcript.text.contains(token))
      // Nor did the key reach the server's view of the request (query strings, bodies).
      #expect(!h.server.log.all.contains { $0.body.contains(Library.aliceKey) })
    }
  }

  @Test func anExpiredSessionFallsBackToTheListing() async throws {
    let library = Library(.v3_1)
    try await withServer(library.scenario) { h in
      let paths = CairnPaths(environment: h.environment())
      let partition = ServerPartition(serverURL: h.base + "/api", userId: library.alice.id)
      try SessionStore.save(
        SavedSession(
          token: Secret("stale-session-token-Vb8"), loginId: "x", email: "alice@example.com",
          userId: library.alice.id, createdAt: Date()), paths, partition)
      let result = try await fetch(h)
      #expect(result.status == 0)
      #expect(try assetIds(result) == library.expectedIds)
      #expect(result.stderr.contains("cairn-fetch login"))
      #expect(!result.stderr.contains("stale-session-token-Vb8"))
    }
  }

  @Test func aCutStreamStillEndsInACompleteListing() async throws {
    let library = Library(.v3_1, extraAliceAssets: 20)
    try await withServer(library.scenario) { h in
      let login = try await fetch(
        h, ["login"],
        ["IMMICH_EMAIL": "alice@example.com", "IMMICH_PASSWORD": Library.alicePassword])
      #expect(login.status == 0)
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/sync/stream", action: .truncateStream(afterLines: 5)))
      let result = try await fetch(h)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try assetIds(result) == library.expectedIds)
      #expect(result.stderr.contains("sync stream failed"))
      #expect(try end(result)["complete"] as? Bool == true)
    }
  }

  /// A stream past `CAIRN_SYNC_MAX_LINES` is abandoned like a cut one: a warning that names
  /// the bound, then the page-by-page listing, complete.
  @Test func anEndlessStreamFallsBackToTheListing() async throws {
    let library = Library(.v3_1, extraAliceAssets: 20)
    try await withServer(library.scenario) { h in
      let login = try await fetch(
        h, ["login"],
        ["IMMICH_EMAIL": "alice@example.com", "IMMICH_PASSWORD": Library.alicePassword])
      #expect(login.status == 0)
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/sync/stream", action: .endlessStream))
      let result = try await fetch(h, [], ["CAIRN_SYNC_MAX_LINES": "1000"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try assetIds(result) == library.expectedIds)
      #expect(result.stderr.contains("more than 1000 lines in one stream"), "\(result.stderr)")
      #expect(result.stderr.contains("listing page by page"))
      #expect(try end(result)["complete"] as? Bool == true)
    }
  }

  /// When the pages never end either, nothing is trusted: exit 69 and an incomplete end.
  @Test func anEndlessStreamAndEndlessPagesFailTheRun() async throws {
    let library = Library(.v3_1)
    try await withServer(library.scenario) { h in
      let login = try await fetch(
        h, ["login"],
        ["IMMICH_EMAIL": "alice@example.com", "IMMICH_PASSWORD": Library.alicePassword])
      #expect(login.status == 0)
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/sync/stream", action: .endlessStream))
      h.server.paging.arm(.emptyPagesWithNext)
      let result = try await fetch(h, [], ["CAIRN_SYNC_MAX_LINES": "1000"])
      #expect(result.status == 69, "\(result.stderr)")
      #expect(result.stderr.contains("more than 1000 lines in one stream"), "\(result.stderr)")
      #expect(try assetIds(result).isEmpty)
      #expect(try end(result)["complete"] as? Bool == false)
    }
  }

  /// The bound is a setting like the others: out of range is a configuration error.
  @Test func aSyncBoundOutOfRangeIsAConfigurationError() async throws {
    try await withServer(Library(.v3_1).scenario) { h in
      let result = try await fetch(h, [], ["CAIRN_SYNC_MAX_LINES": "10"])
      #expect(result.status == 78, "\(result.stderr)")
      #expect(result.stderr.contains("CAIRN_SYNC_MAX_LINES"))
    }
  }

  /// A cairn-fetch told that its parent is a process that is not (any more) its parent has been
  /// orphaned before it could watch: it ends at once, asking the server nothing. Told of its
  /// real parent, it runs as usual.
  @Test func aFetchWhoseParentIsGoneEndsAtOnce() async throws {
    let library = Library(.v3_1)
    try await withServer(library.scenario) { h in
      let orphan = try await fetch(h, [], [ParentWatch.variable: "2"])
      #expect(orphan.status == SIGKILL, "\(orphan.stderr)")
      #expect(orphan.stdout.isEmpty)
      #expect(h.server.log.all.isEmpty)

      let child = try await fetch(h, [], [ParentWatch.variable: String(getpid())])
      #expect(child.status == 0, "\(child.stderr)")
      #expect(try assetIds(child) == library.expectedIds)
    }
  }

  @Test func diagnoseCountsVisibilitiesAndLivePhotoProblems() async throws {
    var library = Library(.v3_1)
    library.scenario.assets.append(
      Scenario.Asset(
        ownerId: library.alice.id, originalFileName: "LIVE_9.HEIC",
        livePhotoVideoId: "00000000-0000-4000-8000-000000000009"))
    library.scenario.assets.append(
      Scenario.Asset(
        ownerId: library.alice.id, originalFileName: "ORPHAN.MOV", type: .video,
        visibility: .hidden))
    try await withServer(library.scenario) { h in
      let result = try await fetch(h, ["diagnose"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try result.records(ofType: "asset").isEmpty)
      let counts = try #require(try end(result)["counts"] as? [String: Int])
      #expect(counts["danglingLivePhoto"] == 1)
      #expect(counts["orphanedHiddenVideos"] == 1)
      #expect(counts["archive"] == 1)
      #expect(counts["hidden"] == 2)
      #expect(result.stderr.contains("LIVE_9.HEIC"))
      #expect(result.stderr.contains("ORPHAN.MOV"))
    }
  }
}

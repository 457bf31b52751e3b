import CairnRecords
import CairnReviewPage
import CairnSafety
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// `cairn-gate --review FILE` against the test server, and `--plan` binding the page's command
/// to the plan it showed.
@Suite(.serialized)
struct ReviewGateTests {
  static let hostile = "<img src=x onerror=alert(1)>.jpg"

  /// Two photos to trash, a Live Photo (both halves candidates), two pending (one with a
  /// hostile name) and one that is no longer on the server.
  static func candidates(_ f: ActFixture) -> [CandidateRecord] {
    var hostile = f.candidate(f.photos[2], .pending)
    hostile.originalFileName = Self.hostile
    hostile.paths = ["/photos/\"><b>bold</b>/\(Self.hostile)"]
    return [
      f.candidate(f.photos[0]), f.candidate(f.live.still), f.candidate(f.live.video),
      f.candidate(f.photos[1], .pending), hostile,
      CandidateRecord(
        assetId: UUID().uuidString.lowercased(), checksum: "R29uZUZyb21UaGVTZXJ2ZXJBQUE=",
        bucket: .pending, reason: "gone", paths: ["/photos/GONE.JPG"],
        originalFileName: "GONE.JPG"),
    ]
  }

  @Test(arguments: [ImmichVersion.v3_3, .v3_2, .v3_1, .v2_7])
  func thePageShowsThePlanInThumbnailsAndItsCommandActsOnlyOnThatPlan(version: ImmichVersion)
    async throws
  {
    let f = try await ActFixture(version: version)
    defer { Task { await f.stop() } }
    let candidates = Self.candidates(f)
    let input = try f.write("reconcile.ndjson", f.reconcileStream(candidates))
    let page = f.dir.path + "/review.html"
    let gate = try await f.shell("cairn-gate --review '\(page)' < '\(input)'")
    #expect(gate.status == 0, "\(gate.stderr)")
    let digest = PlanDigest.of(candidates)
    #expect(gate.stderr.contains("review page: \(page) (5 photo(s), plan \(digest))"))
    #expect(gate.stderr.contains("1 without a thumbnail: not on the server any more"))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(!html.contains(ActFixture.secret))
    #expect(html.contains("href=\"\(f.apiBase.dropLast(4))/photos/\(f.photos[0].id)\""))
    // Only thumbnails were asked for, nothing was changed.
    #expect(f.mutations.isEmpty)
    #expect(f.server.log.all.filter { $0.path.hasSuffix("/thumbnail") }.count == 6)

    guard HeadlessBrowser.isAvailable else { return }
    let shown = try await HeadlessBrowser.render(page, fragment: "approve=\(f.photos[1].id)")
    let dom = shown.dom
    #expect(dom.matches(of: /<figure class="tile"/).count == 5)
    #expect(dom.matches(of: /data-decoded="yes"/).count == 4)  // the stills on the server
    #expect(dom.matches(of: /data-decoded="no"/).count == 0)
    #expect(dom.contains(#"data-missing="gone""#))
    #expect(dom.contains(#"class="motion placeholder" data-missing="noImage""#))
    #expect(!dom.contains("<b>bold</b>") && !dom.contains(#"<img src="x""#))
    #expect(shown.pageRequests == [])
    let command = try #require(dom.firstMatch(of: /<pre id="command">([^<]*)<\/pre>/)?.1)
    #expect(command == "cairn-gate --plan \(digest) --approve \(f.photos[1].id)")

    // The command acts on this plan: the approved photo passes with the delete bucket.
    let acted = try await f.shell("\(command) -q < '\(input)'")
    #expect(acted.status == 0, "\(acted.stderr)")
    #expect(
      try acted.records(ofType: "candidate").compactMap { $0["assetId"] as? String }.contains(
        f.photos[1].id))
    let approvals = try f.withState { try $0.approvals.all().count }
    #expect(approvals == 1)

    // The same command against another plan is refused before anything is stored.
    let other = try f.write("other.ndjson", f.reconcileStream(Array(candidates.dropLast())))
    let refused = try await f.shell(
      "cairn-gate --plan \(digest) --approve \(f.photos[2].id) --exclude \(f.photos[0].id) "
        + "< '\(other)'")
    #expect(refused.status == 25)
    #expect(refused.stderr.contains("refused by --plan: this stream's plan is "))
    #expect(refused.stdout.contains("\"type\":\"candidate\"") == false)
    #expect(try f.withState { try $0.approvals.all().count } == 1)
    #expect(try f.withState { try $0.exclusions.checksums() }.isEmpty)
  }

  @Test func aRefusedPlanStillGetsItsPageSayingWhichRailRefused() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let input = try f.write(
      "incomplete.ndjson", f.reconcileStream([f.candidate(f.photos[0])], complete: false))
    let page = f.dir.path + "/refused.html"
    let gate = try await f.shell("cairn-gate --review '\(page)' < '\(input)'")
    #expect(gate.status == 25)
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("The safety rails refused this plan"))
    #expect(html.contains("refused by the incomplete-stream rail"))
    #expect(html.contains("data:image/jpeg;base64,"))
  }

  @Test func aThumbnailTheServerWithholdsIsAPlaceholderNotAFailedRun() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    f.server.faults.inject(
      Fault(
        method: "GET", path: "/api/assets/:id/thumbnail", count: 1,
        action: .status(403, body: #"{"message":"Missing required permission: asset.view"}"#)))
    f.server.faults.inject(
      Fault(method: "GET", path: "/api/assets/:id/thumbnail", count: 1, action: .status(500)))
    let input = try f.write(
      "two.ndjson", f.reconcileStream([f.candidate(f.photos[0]), f.candidate(f.photos[1])]))
    let page = f.dir.path + "/withheld.html"
    let gate = try await f.shell(
      "cairn-gate --review '\(page)' < '\(input)'", extra: ["CAIRN_HTTP_ATTEMPTS": "1"])
    #expect(gate.status == 0, "\(gate.stderr)")
    #expect(gate.stderr.contains("1 without a thumbnail: not allowed"))
    #expect(gate.stderr.contains("1 without a thumbnail: the server failed to send it"))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains(#"data-missing="noPermission""#))
    #expect(html.contains(#"data-missing="serverError""#))
  }

  /// Immich makes a frame of every video the thumbnail job does not skip: a video's tile
  /// shows it like a photo's; only a Live Photo's hidden motion video has none, and its tile
  /// says so. On every version the neighbouring suites use.
  @Test(arguments: [ImmichVersion.v2_7, .v3_1, .v3_2, .v3_3])
  func aVideoTileShowsItsFrame(version: ImmichVersion) async throws {
    let f = try await ActFixture(version: version)
    defer { Task { await f.stop() } }
    let clip = Scenario.Asset(
      ownerId: f.me.id, originalFileName: "CLIP.MP4", type: .video,
      fileCreatedAt: Date(timeIntervalSince1970: 1_700_000_000), durationMs: 4000)
    f.server.state.add(clip)
    let input = try f.write(
      "videos.ndjson",
      f.reconcileStream([f.candidate(clip), f.candidate(f.live.still), f.candidate(f.live.video)]))
    let page = f.dir.path + "/videos.html"
    let gate = try await f.shell("cairn-gate --review '\(page)' < '\(input)'")
    #expect(gate.status == 0, "\(gate.stderr)")
    // The summary counts tiles: the motion video's missing frame is on its tile alone.
    #expect(!gate.stderr.contains("without a thumbnail"), "\(gate.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    for asset in [clip, f.live.still] {
      let tile = try #require(html.range(of: #"data-asset="\#(asset.id)">"#))
      #expect(html[tile.upperBound...].hasPrefix("\n<img class=\"still\""), "\(asset.id)")
    }
    #expect(html.matches(of: /data-src="data:image\/jpeg;base64,/).count == 2)
    #expect(html.contains(#"<div class="motion placeholder" data-missing="noImage">"#))
  }

  @Test func withoutAServerThePageIsWrittenWithPlaceholders() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let input = try f.write("one.ndjson", f.reconcileStream([f.candidate(f.photos[0])]))
    let page = f.dir.path + "/offline.html"
    let gate = try await f.shell(
      "cairn-gate --review '\(page)' < '\(input)'",
      extra: ["IMMICH_URL": "http://127.0.0.1:9", "CAIRN_HTTP_TIMEOUT": "1"])
    #expect(gate.status == 0, "\(gate.stderr)")
    #expect(gate.stderr.contains("thumbnails not fetched"))
    #expect(!gate.stderr.contains(ActFixture.secret))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains(#"data-missing="notFetched""#))
    #expect(!html.contains(ActFixture.secret))
  }

  @Test func aMalformedPlanDigestIsAUsageError() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let result = try await f.shell("cairn-gate --plan abc < /dev/null")
    #expect(result.status == 64)
    #expect(result.stderr.contains("--plan takes the 64-hex-digit plan digest"))
  }
}

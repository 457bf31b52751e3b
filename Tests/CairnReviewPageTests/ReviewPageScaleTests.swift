import CairnRecords
import CairnReviewPage
import CairnSafety
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The page at the size a real backlog reaches, and what a person's browser makes of names and
/// dates, in Debian's Chromium.
@Suite(.enabled(if: HeadlessBrowser.isAvailable, "chromium is not installed (scripts/setup.sh)"))
struct ReviewPageScaleTests {
  let fixture = ReviewFixture()

  /// `count` candidates to trash, a hundred to a folder, taken ten minutes apart, with 50
  /// different pictures (encoding thousands would take the test minutes).
  static func largeInput(_ count: Int) -> ReviewInput {
    let day = Date(timeIntervalSince1970: 1_717_200_000)
    var candidates: [CandidateRecord] = []
    var thumbnails: [String: ThumbnailOutcome] = [:]
    let pictures = (0..<50).map { seed in
      ThumbnailOutcome.served(
        contentType: "image/jpeg", bytes: AssetImage.drawn(from: [UInt8(seed * 5), 90, 77]).jpeg())
    }
    for index in 0..<count {
      let id = String(format: "10000000-0000-4000-8000-%012d", index)
      candidates.append(
        CandidateRecord(
          assetId: id, checksum: "checksum-\(index)", bucket: .delete, reason: "gone",
          detail: "gone from a complete scan",
          paths: [String(format: "/photos/%02d/IMG_%05d.JPG", index / 100, index)],
          originalFileName: String(format: "IMG_%05d.JPG", index),
          fileCreatedAt: day.addingTimeInterval(Double(index) * 600)))
      thumbnails[id] = pictures[index % pictures.count]
    }
    return ReviewInput(
      plan: GatePlan(candidates: candidates, exclusions: [], approvals: []),
      streamDigest: PlanDigest.of(candidates),
      webBase: HTMLText.webBase(apiBase: "https://photos.example.net/api"), refusal: nil,
      thumbnails: thumbnails)
  }

  @Test func fiveThousandCandidatesFitTheBudgetAndOpenWithTheFirstTilesDecoded() async throws {
    let dir = TemporaryDirectory("cairn-review-scale")
    let path = dir.path + "/review.html"
    let page = ReviewPage.html(Self.largeInput(5_000))
    #expect(page.utf8.count <= 15_000_000, "\(page.utf8.count) bytes")
    try page.write(toFile: path, atomically: true, encoding: .utf8)
    let shown = try await HeadlessBrowser.render(path, window: (1280, 900))
    let dom = shown.dom
    #expect(dom.contains(#"data-ready="yes""#))
    // All but the first tiles started in templates; the script put every one in place.
    #expect(page.matches(of: /<template class="later">/).count > 50)
    #expect(dom.contains(#"data-tiles="all""#) && !dom.contains("<template"))
    #expect(dom.matches(of: /<figure class="tile"/).count == 5_000)
    // The tiles in and near the view are decoded; the thousands below wait for a scroll.
    let decoded = dom.matches(of: /data-decoded="yes"/).count
    #expect(decoded >= 10 && decoded < 400, "\(decoded) decoded")
    #expect(dom.matches(of: /data-decoded="no"/).count == 0)
    let firstTile = try #require(dom.range(of: #"<figure class="tile""#))
    #expect(dom[firstTile.lowerBound...].prefix(3_000).contains(#"data-decoded="yes""#))
    #expect(shown.pageRequests == [])
  }

  @Test func anOverrideInANameDoesNotTurnTheTextAround() async throws {
    let dir = TemporaryDirectory("cairn-review-bidi")
    let path = dir.path + "/review.html"
    var input = fixture.input
    input.plan.toTrash[0].originalFileName = "IMG_\u{202E}gpj.exe"
    try ReviewPage.html(input).write(toFile: path, atomically: true, encoding: .utf8)
    let dom = try await HeadlessBrowser.render(path).dom
    #expect(dom.contains("<bdi>IMG_[U+202E]gpj.exe</bdi>"))
    #expect(!dom.unicodeScalars.contains { $0.value == 0x202E })
  }

  @Test func datesAreShownInTheReadersLocalTimeWithTheUTCInTheTitle() async throws {
    let dir = TemporaryDirectory("cairn-review-time")
    let path = dir.path + "/review.html"
    try ReviewPage.html(fixture.input).write(toFile: path, atomically: true, encoding: .utf8)
    // 2024-06-01T00:00Z is 05:30 in Kolkata (no daylight saving there).
    let dom = try await HeadlessBrowser.render(path, timeZone: "Asia/Kolkata").dom
    let taken = try #require(
      dom.firstMatch(of: /taken <time datetime="2024-06-01T00:00:00.000Z"([^>]*)>([^<]*)<\/time>/))
    #expect(taken.1.contains(#"title="2024-06-01T00:00:00.000Z (UTC)""#))
    #expect(taken.1.contains(#"data-local="yes""#))
    #expect(taken.2.contains("05:30"), "\(taken.2)")
    #expect(taken.2.contains("GMT+5:30"), "\(taken.2)")
  }
}

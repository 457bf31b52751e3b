import CairnReviewPage
import CairnSafety
import CairnTestSupport
import Crypto
import Foundation
import Testing

/// The page as text: self-contained, its policy allowing only its own script, names inert.
struct ReviewPageTests {
  let fixture = ReviewFixture()

  @Test func thePolicyAllowsNothingButTheInlineScriptByItsHash() throws {
    let page = ReviewPage.html(fixture.input)
    let policy = try #require(
      page.firstMatch(of: /http-equiv="Content-Security-Policy" content="([^"]*)"/)?.1)
    #expect(policy.contains("default-src 'none'"))
    #expect(policy.contains("img-src data:;"))
    #expect(policy.contains("style-src 'unsafe-inline'"))
    #expect(!policy.contains("script-src 'unsafe-inline'"))
    let script = try #require(page.firstMatch(of: /<script>([\s\S]*?)<\/script>/)?.1)
    let hash = Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString()
    #expect(policy.contains("script-src 'sha256-\(hash)'"))
    #expect(page.matches(of: /<script/).count == 1)
    // Nothing to fetch: every src is a data: URI, and the only URLs are the Immich links.
    #expect(page.matches(of: /src="(?!data:)/).count == 0)
    #expect(page.contains(#"href="https://photos.example.net/photos/\#(fixture.ids[0])""#))
  }

  @Test func namesAndPathsStayText() {
    let page = ReviewPage.html(fixture.input)
    #expect(!page.contains(ReviewFixture.hostileName))
    #expect(!page.contains("<script>document.title"))
    #expect(
      page.contains("&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;.jpg"))
  }

  @Test func aLivePhotoIsOneTileAndEveryBucketIsShown() {
    let page = ReviewPage.html(fixture.input)
    #expect(page.matches(of: /<figure class="tile"/).count == 8)  // 9 candidates, 1 video half
    #expect(!page.contains(#"data-asset="\#(fixture.ids[2])""#))
    #expect(page.contains(#"data-id="\#(fixture.ids[1])" data-also="\#(fixture.ids[2])""#))
    for title in ["To trash", "Pending review", "Held in quarantine", "Excluded", "To restore"] {
      #expect(page.contains(title))
    }
    #expect(page.contains("eligible in 3 days"))
    #expect(page.contains("favourite on Immich"))
    #expect(
      page.contains(#"deletion seen happening by cairn-observe watch, <time datetime="2024-06-01"#))
    #expect(page.contains(#"deletion confirmed by a trash, <time datetime="2024-06-01"#))
    #expect(page.contains("1 without a thumbnail: not allowed"))
  }

  @Test func anUnexpectedMediaTypeIsAPlaceholder() {
    #expect(
      ThumbnailOutcome.served(contentType: "image/svg+xml", bytes: [1]) == .missing(.notAnImage))
    #expect(
      ThumbnailOutcome.served(contentType: "image/webp", bytes: [1])
        == .image(contentType: "image/webp", bytes: [1]))
  }
}

/// The page in a real browser (Debian's Chromium, headless): the images decode, the boxes build
/// the command, hostile names stay inert, and the page asks the network for nothing.
@Suite(.enabled(if: HeadlessBrowser.isAvailable, "chromium is not installed (scripts/setup.sh)"))
struct ReviewPageBrowserTests {
  let fixture = ReviewFixture()

  @Test func theBoxesBuildTheCommandAndNothingIsFetched() async throws {
    let dir = TemporaryDirectory("cairn-review-page")
    let path = dir.path + "/review.html"
    try ReviewPage.html(fixture.input).write(toFile: path, atomically: true, encoding: .utf8)
    let ids = fixture.ids
    // Approve the favourite, exclude a photo and the Live Photo (both halves), and approve
    // the held folder's day as a group.
    let page = try await HeadlessBrowser.render(
      path, fragment: "approve=\(ids[3])&exclude=\(ids[0]),\(ids[1])&group=held-0-0:approve")
    let dom = page.dom
    #expect(dom.contains(#"data-ready="yes""#))
    #expect(dom.contains("<title>cairn review: plan"))  // no script of a file name ran
    let command = try #require(dom.firstMatch(of: /<pre id="command">([^<]*)<\/pre>/)?.1)
    #expect(
      command
        == "cairn-gate --plan \(PlanDigest.of(fixture.candidates)) --exclude \(ids[0]) "
        + "--exclude \(ids[1]) --exclude \(ids[2]) --approve \(ids[3]) --approve \(ids[5]) "
        + "--approve \(ids[6])")
    #expect(dom.contains("3 to approve, 2 to exclude"))
    // Every tile with a thumbnail shows a decoded image; the others a placeholder.
    #expect(dom.matches(of: /<figure class="tile"/).count == 8)
    #expect(dom.matches(of: /data-decoded="yes"/).count == 7)
    #expect(dom.matches(of: /data-decoded="no"/).count == 0)
    #expect(dom.contains(#"data-missing="noPermission""#))
    #expect(dom.contains(#"data-missing="noImage""#))
    // The hostile name is text, not an element.
    #expect(!dom.contains(#"<img src="x""#))
    #expect(dom.contains("&lt;img src=x onerror="))
    #expect(page.pageRequests == [])
  }

  @Test func theOverrideBoxIsOfferedOnlyWhenTheThresholdRefused() {
    var input = fixture.input
    #expect(!ReviewPage.html(input).contains(#"id="override""#))
    input.refusal = "refused by the threshold rail: 8 candidates are 80.0% of 10 matched assets"
    input.overThreshold = true
    let page = ReviewPage.html(input)
    // Offered, never ticked for the person.
    #expect(page.contains(#"<input type="checkbox" id="override">"#))
    #expect(page.contains("--override-threshold"))
  }

  @Test func theOverrideBoxAddsTheOverrideWithThePagesDigest() async throws {
    let dir = TemporaryDirectory("cairn-review-override")
    let path = dir.path + "/review.html"
    var input = fixture.input
    input.refusal = "refused by the threshold rail"
    input.overThreshold = true
    try ReviewPage.html(input).write(toFile: path, atomically: true, encoding: .utf8)
    let digest = PlanDigest.of(fixture.candidates)
    let page = try await HeadlessBrowser.render(
      path, fragment: "exclude=\(fixture.ids[0])&override=yes")
    let command = try #require(page.dom.firstMatch(of: /<pre id="command">([^<]*)<\/pre>/)?.1)
    #expect(
      command
        == "cairn-gate --plan \(digest) --override-threshold \(digest) --exclude \(fixture.ids[0])")
    let untouched = try await HeadlessBrowser.render(path, fragment: "exclude=\(fixture.ids[0])")
    let plain = try #require(untouched.dom.firstMatch(of: /<pre id="command">([^<]*)<\/pre>/)?.1)
    #expect(plain == "cairn-gate --plan \(digest) --exclude \(fixture.ids[0])")
  }

  /// The net-log check can fail: a page that loads an image over HTTP is caught.
  @Test func aPageThatFetchesIsCaught() async throws {
    let dir = TemporaryDirectory("cairn-review-probe")
    let path = dir.path + "/probe.html"
    try #"<!doctype html><img src="http://127.0.0.1:9/probe.png">"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    let page = try await HeadlessBrowser.render(path)
    #expect(page.pageRequests == ["http://127.0.0.1:9/probe.png"])
  }
}

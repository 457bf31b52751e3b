import CairnRecords
import CairnReviewPage
import CairnSafety
import CairnTestSupport
import Foundation
import Testing

/// What the page says besides the plan: names that cannot turn text around, the command bar,
/// the earlier exclusions, the picture budget.
struct ReviewPageFeatureTests {
  let fixture = ReviewFixture()
  /// `IMG_` then a right-to-left override: shown raw, `gpj.exe` would read `exe.jpg`.
  static let overrideName = "IMG_\u{202E}gpj.exe"

  func input(renaming index: Int, to name: String) -> ReviewInput {
    var input = fixture.input
    for keyPath in [\GatePlan.toTrash, \.pending] {
      for i in input.plan[keyPath: keyPath].indices
      where input.plan[keyPath: keyPath][i].assetId == fixture.ids[index] {
        input.plan[keyPath: keyPath][i].originalFileName = name
        input.plan[keyPath: keyPath][i].paths = ["/photos/\u{2067}inbox/\(name)"]
      }
    }
    return input
  }

  @Test func aBidiOverrideInANameIsShownAndIsolated() {
    let page = ReviewPage.html(input(renaming: 0, to: Self.overrideName))
    #expect(!page.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
    #expect(!page.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) })
    #expect(page.contains("<div class=\"name\"><bdi>IMG_[U+202E]gpj.exe</bdi></div>"))
    #expect(page.contains("<bdi>/photos/[U+2067]inbox/IMG_[U+202E]gpj.exe</bdi>"))
    #expect(HTMLText.showingBidiControls("a\u{200F}b") == "a\u{200F}b")  // a mark is harmless
  }

  /// A candidate matched to a file the watcher never hashed says so on its tile, beside the
  /// reason's words.
  @Test func aSeenUnhashedTileSaysItWasMatchedByNameAndTime() {
    var input = fixture.input
    let at = input.plan.pending.startIndex
    input.plan.pending[at].reason = CandidateReason.seenUnhashed.rawValue
    input.plan.pending[at].detail = "a file of this name arrived in the library"
    let page = ReviewPage.html(input)
    #expect(page.contains("seen-unhashed</span>: a file of this name arrived in the library"))
    #expect(page.contains("matched by its name and time, never by its bytes"))
  }

  @Test func theCommandBarIsOutsideTheHeaderWithACopyButton() throws {
    let page = ReviewPage.html(fixture.input)
    // Sticky only works against its parent: the bar must be the body's own child, not the
    // header's, or it scrolls away with the header.
    let afterHeader = try #require(page.range(of: "</header>\n<div class=\"command\" id=\"bar\">"))
    #expect(page[afterHeader.upperBound...].contains(#"<pre id="command">"#))
    #expect(page.contains(".command{position:sticky;top:0"))
    #expect(page.contains(#"<button type="button" id="copy">Copy the command</button>"#))
    #expect(page.contains("<strong>Excluding is for good</strong>"))
    #expect(page.contains("> exclude for good</label>"))
    // Days are grouped in UTC, and say so; each tile's date is turned local by the script.
    #expect(page.contains("<h4>2024-06-01 (UTC) <span"))
  }

  @Test func earlierExclusionsAreListedWithTheCommandThatLiftsThem() {
    var input = fixture.input
    let when = Date(timeIntervalSince1970: 1_700_000_000)
    input.earlierExclusions = [
      EarlierExclusion(
        checksum: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=", reason: "excluded at cairn-gate",
        createdAt: when, lastPath: "/photos/old/\(Self.overrideName)"),
      EarlierExclusion(
        checksum: "BBBBBBBBBBBBBBBBBBBBBBBBBBB=", reason: "imported", createdAt: when,
        lastPath: nil),
    ]
    let page = ReviewPage.html(input)
    #expect(page.contains("<h2>Excluded earlier <span class=\"n\">2</span></h2>"))
    #expect(page.contains("<code>cairn-observe include AAAAAAAAAAAAAAAAAAAAAAAAAAA=</code>"))
    #expect(page.contains("<bdi>/photos/old/IMG_[U+202E]gpj.exe</bdi>"))
    #expect(page.contains("(not in the observed store)"))
    #expect(page.contains(#"<time datetime="2023-11-14T22:13:20.000Z""#))
    #expect(!ReviewPage.html(fixture.input).contains("Excluded earlier"))
    let odd = EarlierExclusion(checksum: "a b'c", reason: "", createdAt: when, lastPath: nil)
    #expect(odd.includeCommand == #"cairn-observe include 'a b'\''c'"#)
  }

  @Test func picturesPastTheBudgetBecomeLinkedTiles() throws {
    var input = fixture.input
    let first = try #require(input.pageOrder.first)
    guard case .image(let type, let bytes) = input.thumbnails[first] else {
      Issue.record("the first tile has no picture")
      return
    }
    // Room for the first picture only.
    input.imageBudget = ReviewInput.embeddedSize(contentType: type, bytes: bytes.count)
    let page = ReviewPage.html(input)
    #expect(page.matches(of: /data-src="data:/).count == 1)
    #expect(page.contains(#"data-missing="overBudget""#))
    #expect(page.contains("without a thumbnail: left out to keep this page small"))
    #expect(page.contains(#"href="https://photos.example.net/photos/"#))
  }

  /// Thumbnails of a real server's size (12 kB each, 80 MB in all) do not make an 80 MB page:
  /// the first fill what the markup leaves of 15 MB, the rest link to Immich.
  @Test func fiveThousandFullSizeThumbnailsStayWithinFifteenMegabytes() {
    var input = ReviewPageScaleTests.largeInput(5_000)
    let webp = ThumbnailOutcome.image(
      contentType: "image/webp", bytes: Array(repeating: 7, count: 12_000))
    for id in input.thumbnails.keys { input.thumbnails[id] = webp }
    let page = ReviewPage.html(input)
    #expect(page.utf8.count <= ReviewInput.pageBudget, "\(page.utf8.count) bytes")
    #expect(page.utf8.count >= ReviewInput.pageBudget - 1_500_000, "\(page.utf8.count) bytes")
    let embedded = page.matches(of: /data-src="data:image\/webp/).count
    let linked = page.matches(of: /data-missing="overBudget"/).count
    #expect(embedded > 300 && embedded + linked == 5_000, "\(embedded) embedded, \(linked) linked")
    #expect(page.contains("\(linked) without a thumbnail: left out to keep this page small"))
  }
}

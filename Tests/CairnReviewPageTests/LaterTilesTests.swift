import CairnReviewPage
import CairnTestSupport
import Crypto
import Foundation
import Testing

/// The tiles past the page's first screens wait in templates (`LaterTiles`); these tests hold
/// the page to its promise that they are still part of every selection.
struct LaterTilesTests {
  /// 200 photos to trash in three day groups, in page order: `/photos/00` on 2024-06-01
  /// (tiles 0–99), `/photos/01` on 2024-06-01 (100–143) and on 2024-06-02 (144–199).
  static let input = ReviewPageScaleTests.largeInput(200)
  static var ids: [String] { input.pageOrder }

  @Test func theFirstTilesAreLiveAndTheRestWaitInTemplatesInPageOrder() throws {
    let page = ReviewPage.html(Self.input)
    let assets = page.matches(of: /<figure class="tile" data-asset="([^"]*)"/).map { String($0.1) }
    #expect(assets == Self.ids)
    let first = try #require(page.range(of: #"<template class="later">"#))
    #expect(page[..<first.lowerBound].matches(of: /<figure class="tile"/).count == LaterTiles.live)
    // 52, 44 and 56 later tiles, in templates of at most 50.
    let templates = page.matches(of: /<template class="later">\n([\s\S]*?)<\/template>/)
    #expect(templates.map { $0.1.matches(of: /<figure class="tile"/).count } == [50, 2, 44, 50, 6])
    let notes = page.matches(of: /<noscript><p class="later">(\d+) more in this group/)
    #expect(notes.map { String($0.1) } == ["52", "44", "56"])
    #expect(page.contains("Scripts are off for this page: ticking a box does not change"))
  }

  @Test func aSmallPageHasNoTemplates() {
    let page = ReviewPage.html(ReviewFixture().input)
    #expect(!page.contains("<template"))
    #expect(!page.contains("more in this group"))
  }

  /// The page with a second script standing in for a person's hand (it clicks boxes), allowed
  /// by its own hash beside the page's.
  static func driven(_ page: String, by driver: String) -> String {
    let hash = Data(SHA256.hash(data: Data(driver.utf8))).base64EncodedString()
    return page.replacingOccurrences(of: "script-src ", with: "script-src 'sha256-\(hash)' ")
      .replacingOccurrences(of: "</body>", with: "<script>\(driver)</script>\n</body>")
  }

  /// The command the page shows and what it says of the selection, after the browser made every
  /// tile live (no template left, all 200 tiles in the document).
  static func shown(
    _ page: String, fragment: String? = nil
  ) async throws -> (command: String, selection: String, dom: String) {
    let dir = TemporaryDirectory("cairn-review-later")
    let path = dir.path + "/review.html"
    try page.write(toFile: path, atomically: true, encoding: .utf8)
    let dom = try await HeadlessBrowser.render(path, fragment: fragment, window: (1280, 900)).dom
    #expect(dom.contains(#"data-tiles="all""#))
    #expect(!dom.contains("<template"))
    #expect(dom.matches(of: /<figure class="tile"/).count == 200)
    let command = try #require(dom.firstMatch(of: /<pre id="command">([^<]*)<\/pre>/)?.1)
    let selection = try #require(dom.firstMatch(of: /<span id="selection">([^<]*)<\/span>/)?.1)
    return (String(command), String(selection), dom)
  }

  static func command(excluding tiles: [Int]) -> String {
    "cairn-gate --plan \(input.streamDigest)" + tiles.map { " --exclude \(ids[$0])" }.joined()
  }
}

/// The same in Debian's Chromium: a fragment, a tick and a group's box reach tiles that
/// started in a template.
@Suite(.enabled(if: HeadlessBrowser.isAvailable, "chromium is not installed (scripts/setup.sh)"))
struct LaterTilesBrowserTests {
  let ids = LaterTilesTests.ids

  @Test func aFragmentNamingLateTilesRestoresThem() async throws {
    let page = ReviewPage.html(LaterTilesTests.input)
    let shown = try await LaterTilesTests.shown(
      page, fragment: "exclude=\(ids[47]),\(ids[48]),\(ids[199])&group=trash-1-0:exclude")
    #expect(
      shown.command == LaterTilesTests.command(excluding: [47, 48] + Array(100...143) + [199]))
    #expect(shown.selection == "0 to approve, 47 to exclude")
  }

  @Test func aTickOnATileThatStartedInATemplateReachesTheCommand() async throws {
    // At load the late tiles' boxes are not in the document yet; once every tile is, the
    // "person" ticks two of them.
    let driver = """
      (function () {
        var root = document.documentElement;
        var box = function (id) { return document.querySelector('input.pick[data-id="' + id + '"]'); };
        root.setAttribute('data-late-at-load', box('\(ids[199])') === null ? 'yes' : 'no');
        new MutationObserver(function (changes, watcher) {
          if (root.getAttribute('data-tiles') !== 'all') { return; }
          watcher.disconnect();
          box('\(ids[60])').click();
          box('\(ids[199])').click();
        }).observe(root, { attributes: true });
      })();
      """
    let shown = try await LaterTilesTests.shown(
      LaterTilesTests.driven(ReviewPage.html(LaterTilesTests.input), by: driver))
    #expect(shown.dom.contains(#"data-late-at-load="yes""#))
    #expect(shown.command == LaterTilesTests.command(excluding: [60, 199]))
    #expect(shown.selection == "0 to approve, 2 to exclude")
  }

  @Test func tickAllInAGroupCoversTheTilesStillInItsTemplates() async throws {
    // Clicked at load, before the script put any template's tiles in place: a day with live
    // and waiting tiles, and a day whose tiles all wait.
    let driver = """
      window.addEventListener('load', function () {
        var root = document.documentElement;
        root.setAttribute('data-templates-at-click', document.querySelectorAll('template').length);
        document.querySelector('#trash-0-0 > h4 input.group-pick').click();
        document.querySelector('#trash-1-1 > h4 input.group-pick').click();
      });
      """
    let shown = try await LaterTilesTests.shown(
      LaterTilesTests.driven(ReviewPage.html(LaterTilesTests.input), by: driver))
    #expect(shown.dom.contains(#"data-templates-at-click="5""#))
    #expect(shown.command == LaterTilesTests.command(excluding: Array(0...99) + Array(144...199)))
    #expect(shown.selection == "0 to approve, 156 to exclude")
  }
}

import CairnImmich
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A server whose search pages never end: the real `cairn-fetch` stops with exit 69 and says
/// why, after a bounded number of requests, instead of running for minutes and gigabytes.
@Suite struct EndlessListingTests {
  static let cases: [(ImmichVersion, EndlessPaging.Shape, String)] = [
    (.v2_7, .counting, "the server counts"), (.v3_1, .counting, "the server counts"),
    (.v2_7, .emptyPagesWithNext, "is empty but points to page 2"),
    (.v3_1, .emptyPagesWithNext, "is empty but points to page 2"),
  ]

  @Test(arguments: cases)
  func aListingThatPagesForEverStops(
    version: ImmichVersion, shape: EndlessPaging.Shape, reason: String
  ) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      h.server.paging.arm(shape)
      let started = ContinuousClock.now
      let result = try await ToolRunner.runDetached(
        "cairn-fetch", [], environment: h.environment(["CAIRN_HTTP_ATTEMPTS": "1"]),
        workingDirectory: h.folder.path)
      #expect(ContinuousClock.now - started < .seconds(60))
      #expect(result.status == 69, "\(result.stderr)")
      #expect(result.stderr.contains(reason), "\(result.stderr)")
      #expect(try result.records(ofType: "asset").isEmpty)
      // The listing ends incomplete, and the abort record carries the failure down the pipe.
      let records = try result.records()
      let end = try #require(records.last { $0["type"] as? String == "end" })
      #expect(end["complete"] as? Bool == false)
      #expect(records.last?["type"] as? String == "abort")
      #expect(records.last?["status"] as? Int == 69)
      let pages = h.server.log.all.filter { $0.path == "/api/search/metadata" }.count
      // A page of slack over the server's count of a handful of assets: a few hundred pages.
      #expect(pages < 1000, "\(pages) pages asked")
    }
  }
}

import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// `cairn-fetch check` counts the user's external-library assets (all assets less those in
/// the upload library, `libraryId: null`) and says why cairn leaves them alone.
@Suite struct ExternalLibraryCheckTests {
  func check(_ h: Harness) async throws -> ToolResult {
    try await ToolRunner.runDetached(
      "cairn-fetch", ["check"], environment: h.environment(), workingDirectory: h.folder.path)
  }

  @Test func theCheckSaysHowManyExternalLibraryAssetsThereAreAndWhy() async throws {
    try await withServer(Library(.v3_1).scenario) { h in
      let none = try await check(h)
      #expect(none.status == 0, "\(none.stderr)")
      #expect(!none.stderr.contains("external libraries"))
      let bodies = h.server.log.requests(method: "POST", path: "/api/search/statistics")
        .map(\.body)
      #expect(bodies.contains { $0.contains(#""libraryId":null"#) })

      // A server whose count of every library exceeds that of the upload library.
      h.server.faults.inject(
        Fault(
          method: "POST", path: "/api/search/statistics",
          action: .status(200, body: #"{"total":1000}"#)))
      let some = try await check(h)
      #expect(some.status == 0, "\(some.stderr)")
      #expect(some.stderr.contains("asset(s) of external libraries: cairn leaves them alone"))
      #expect(some.stderr.contains("hashes a path, not the bytes"))
    }
  }
}

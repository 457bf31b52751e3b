import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// An asset cairn brought back (by `cairn-restore`, or put back when its file came
/// back) and a later run trashed again is shown under the first run as "trashed again by run
/// ID", as cairn-restore(1) promises, not as restored for ever. Through the documented pipeline
/// on a library of real files, against the test double.
@Suite(.serialized)
struct RestoredThenTrashedAgainTests {
  /// How cairn brought the photo back.
  enum Return: String, CaseIterable, CustomStringConvertible {
    case restoreCommand = "cairn-restore"
    case putBack = "put back"
    var description: String { rawValue }
  }

  @Test(arguments: ImmichVersion.allCases, Return.allCases)
  func aLaterRunsTrashingIsShownUnderTheFirstRun(_ version: ImmichVersion, _ way: Return)
    async throws
  {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    let a = try f.asset("a.jpg").id
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    try f.remove("a.jpg")
    _ = try await f.pipeline()  // the forced dry run
    let first = try await f.pipeline()
    #expect(first.status == 0, "\(first.stderr)")
    #expect(try f.isTrashed("a.jpg"))

    switch way {
    case .restoreCommand:
      let restore = try await ActFixture.offPool { [env = f.env] in
        try ToolRunner.shell("cairn-restore --asset-id \(a)", environment: env)
      }
      #expect(restore.status == 0, "\(restore.stderr)")
      // A restore excludes the checksum from later runs; the person lifts that.
      let checksum = try f.asset("a.jpg").checksum
      let include = try await ActFixture.offPool { [env = f.env] in
        try ToolRunner.shell("cairn-observe include '\(checksum)'", environment: env)
      }
      #expect(include.status == 0, "\(include.stderr)")
      try f.putBack("a.jpg")
      let back = try await f.pipeline()
      #expect(back.status == 0, "\(back.stderr)")
    case .putBack:
      try f.putBack("a.jpg")
      let back = try await f.pipeline()
      #expect(back.status == 0, "\(back.stderr)")
    }
    #expect(try !f.isTrashed("a.jpg"))

    try f.remove("a.jpg")
    let again = try await f.pipeline()
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try f.isTrashed("a.jpg"))
    let runs = try f.journalRuns.filter { $0.trashed.contains(a) }.map(\.runID)
    try #require(runs.count == 2)

    let shown = try await ActFixture.offPool { [env = f.env] in
      try ToolRunner.shell("cairn-restore show \(runs[0])", environment: env)
    }
    #expect(shown.status == 0, "\(shown.stderr)")
    let result = try shown.records(ofType: "result").first { $0["assetId"] as? String == a }
    #expect(result?["message"] as? String == "trashed again by run \(runs[1])", "\(shown.stdout)")
    #expect(result?["action"] as? String == "trashed")
  }
}

import CairnRecords
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A photo a cairn run trashed that the person restores in the web app and trashes
/// again there, with no cairn run in between, is theirs. Immich says when an asset went to the
/// trash (`deletedAt`, searched by `trashedAfter` or `filter.trashedAt`); the run recorded the
/// server's clock once its photos were in the trash, so a later trash is someone else's.
/// Through the built binaries against the test double, in every version.
@Suite(.serialized)
struct PersonsOwnTrashTests {
  func trashed(_ f: ActFixture, _ candidates: [CandidateRecord]) async throws -> String {
    let stream = try f.reconcileStream(candidates)
    _ = try await f.gateAndTrash(stream)
    let real = try await f.gateAndTrash(stream)
    #expect(real.status == 0, "\(real.stderr)")
    return try #require(try real.records(ofType: "end").first?["runId"] as? String)
  }

  /// An hour passes on the server between cairn's run and the person's: Immich's `deletedAt`
  /// of their trash is later than the run's clock by more than the `Date` header's slack.
  func anHourPasses(_ f: ActFixture) { f.server.state.advanceClock(by: 3600) }

  @Test(arguments: ImmichVersion.allCases)
  func aPhotoRestoredAndTrashedAgainBetweenRunsIsNeverRestoredByCairn(_ version: ImmichVersion)
    async throws
  {
    let f = try await ActFixture(version: version)
    defer { Task { await f.stop() } }
    let photos = Array(f.photos[0..<3])
    let runID = try await trashed(f, photos.map { f.candidate($0) })
    let trashedEntries = try f.journal().entries.filter {
      $0.event == .trashed && $0.runID == runID
    }
    #expect(!trashedEntries.isEmpty && trashedEntries.allSatisfy { $0.serverTime != nil })
    anHourPasses(f)
    let web = WebApp(apiBase: f.apiBase, environment: f.environment)
    try await web.restore(photos[1].id)
    try await web.trash(photos[1].id)
    #expect(f.isTrashed(photos[1]))

    f.server.log.clear()
    let restore = try await f.shell("cairn-restore --run-id \(runID)")
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(restore.stderr.contains("not cairn's to restore"), "\(restore.stderr)")
    #expect(f.isTrashed(photos[1]), "restored and trashed again by the person: theirs")
    #expect(!f.isTrashed(photos[0]) && !f.isTrashed(photos[2]), "cairn's own: restored")
    let restoreBodies = f.server.log.requests(method: "POST", path: "/api/trash/restore/assets")
      .map(\.body)
    #expect(!restoreBodies.isEmpty)
    #expect(restoreBodies.allSatisfy { !$0.contains(photos[1].id) })
    // Asked by when it went to the trash, in the version's own words.
    let searches = f.server.log.requests(method: "POST", path: "/api/search/metadata")
      .map(\.body)
    let asked = version == .v2_7 || version == .v3_1 ? "\"trashedAfter\"" : "\"gte\""
    #expect(searches.contains { $0.contains(asked) }, "\(searches)")

    let show = try await f.shell("cairn-restore show \(runID)")
    var said: [String: String] = [:]
    for record in try show.records(ofType: "result") {
      said[record["assetId"] as? String ?? ""] = record["message"] as? String
    }
    #expect(said[photos[1].id] == "trashed again by someone else")
    #expect(said[photos[0].id] == "restored by cairn")
  }

  /// The photo's file comes back after the person's restore and new trash: the put-back of
  /// the next pipeline run leaves it in their trash.
  @Test(arguments: ImmichVersion.allCases)
  func thePutBackLeavesThePersonsOwnTrashAlone(_ version: ImmichVersion) async throws {
    let f = try await FieldLibrary(version: version)
    defer { Task { await f.stop() } }
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    try f.remove("a.jpg")
    try f.remove("b.jpg")
    _ = try await f.pipeline()
    let real = try await f.pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    #expect(try f.isTrashed("a.jpg") && f.isTrashed("b.jpg"))
    f.server.state.advanceClock(by: 3600)
    let web = WebApp(apiBase: f.env["IMMICH_URL"] ?? "", environment: f.env)
    try await web.restore(try f.asset("a.jpg").id)
    try await web.trash(try f.asset("a.jpg").id)

    try f.putBack("a.jpg")
    try f.putBack("b.jpg")
    f.server.log.clear()
    let back = try await f.pipeline()
    #expect(back.status == 0, "\(back.stderr)")
    #expect(try f.isTrashed("a.jpg"), "the person's own trash")
    #expect(try !f.isTrashed("b.jpg"), "cairn's trash, put back")
    let a = try f.asset("a.jpg").id
    let restoreBodies = f.server.log.requests(method: "POST", path: "/api/trash/restore/assets")
      .map(\.body)
    #expect(restoreBodies.allSatisfy { !$0.contains(a) })
    #expect(back.stderr.contains("no longer cairn's to restore"), "\(back.stderr)")
  }
}

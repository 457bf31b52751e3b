import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Every path that makes `asset` records carries `isFavorite`: the paged search, the sync
/// stream and the server-asset cache behind it give the same lines.
@Suite struct FavouriteListingTests {
  func fetch(_ h: Harness, _ arguments: [String], _ extra: [String: String] = [:]) async throws
    -> ToolResult
  {
    var env = h.environment()
    for (key, value) in extra { env[key] = value }
    return try await ToolRunner.runDetached(
      "cairn-fetch", arguments, environment: env, workingDirectory: h.folder.path)
  }

  func favourites(_ result: ToolResult) throws -> Set<String> {
    Set(
      try result.records(ofType: "asset").filter { $0["isFavorite"] as? Bool == true }
        .compactMap { $0["id"] as? String })
  }

  @Test(arguments: ImmichVersion.both)
  func favouritesAreListedAsSuchWhicheverWayTheListingComes(version: ImmichVersion)
    async throws
  {
    var library = Library(version)
    for index in library.scenario.assets.indices
    where library.scenario.assets[index].id == library.timeline.id {
      library.scenario.assets[index].isFavorite = true
    }
    try await withServer(library.scenario) { h in
      let paged = try await fetch(h, ["--no-sync"])
      #expect(paged.status == 0, "\(paged.stderr)")
      #expect(try favourites(paged) == [library.timeline.id])

      let login = try await fetch(
        h, ["login"],
        ["IMMICH_EMAIL": "alice@example.com", "IMMICH_PASSWORD": Library.alicePassword])
      #expect(login.status == 0, "\(login.stderr)")
      let streamed = try await fetch(h, [])
      #expect(streamed.status == 0, "\(streamed.stderr)")
      #expect(h.server.log.requests(path: "/api/sync/stream").count == 1)
      #expect(try favourites(streamed) == [library.timeline.id])
      #expect(
        streamed.lines.filter { $0.contains("\"type\":\"asset\"") }
          == paged.lines.filter { $0.contains("\"type\":\"asset\"") })
      // From the cache, after a refresh that changed nothing.
      let cached = try await fetch(h, [])
      #expect(try favourites(cached) == [library.timeline.id])
    }
  }
}

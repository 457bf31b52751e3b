import CairnImmich
import CairnRecords
import CairnSettings
import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The incremental path: sync stream into the cache, acks after commits, resets, cuts.
@Suite struct SyncTests {
  /// Logs Alice in and builds a refresher over a fresh cache in the harness's folders.
  func refresher(
    _ h: Harness, batchSize: Int = 5000, options: ClientOptions = Harness.fastOptions
  ) async throws -> (SyncRefresher, ServerConnection) {
    let connection = try await ServerConnection.connect(
      configuration: h.configuration(), options: options)
    let login = try await connection.client.login(
      email: "alice@example.com", password: Secret(Library.alicePassword))
    let session = SavedSession(
      token: login.accessToken, loginId: UUID().uuidString.lowercased(), email: login.userEmail,
      userId: login.userId, createdAt: Date())
    let paths = CairnPaths(environment: h.environment())
    let cache = try AssetCache.open(paths, connection.partition)
    let refresher = SyncRefresher(
      client: connection.client.usingSession(session.token), cache: cache,
      version: connection.version, session: session, ownerId: connection.identity.userId,
      batchSize: batchSize)
    return (refresher, connection)
  }

  func searchListing(_ connection: ServerConnection) async throws -> ServerListing {
    try await SearchLister(client: connection.client, ownerId: connection.identity.userId).list()
  }

  /// The lines cairn-fetch copies out of the cache are, byte for byte, the records the page-by-
  /// page listing writes, and the counts SQLite makes are those of the decoded rows. (Partner
  /// and locked counts differ by path: the stream sends locked assets and no partner's, the
  /// search the other way round.)
  func expectCachedLines(_ cached: CachedListing, equal searched: ServerListing) throws {
    var lines: [[UInt8]] = []
    try cached.forEachLine { lines.append(Array($0)) }
    #expect(lines == searched.assets.map { $0.jsonBytes() })
    #expect(cached.summary == (try cached.materialize()).summary)
    #expect(cached.summary.assets == searched.summary.assets)
    #expect(cached.summary.trashed == searched.summary.trashed)
    #expect(cached.summary.perVisibility == searched.summary.perVisibility)
  }

  @Test(arguments: ImmichVersion.both)
  func theStreamAndTheSearchGiveTheSameAssets(version: ImmichVersion) async throws {
    let library = Library(version, extraAliceAssets: 30)
    try await withServer(library.scenario) { h in
      let (refresher, connection) = try await refresher(h)
      let streamed = try await refresher.refresh()
      let searched = try await searchListing(connection)
      let listing = try streamed.listing()
      #expect(listing.assets == searched.assets)
      #expect(listing.assets.map(\.id) == library.expectedIds)
      #expect(listing.lockedSkipped == 1)
      try expectCachedLines(streamed.cached, equal: searched)
      let stream = try #require(h.server.log.requests(path: "/api/sync/stream").first)
      #expect(stream.body.contains(version != .v2_7 ? "AssetsV2" : "AssetsV1"))
      let v3Type = version != .v2_7 ? "AssetV2" : "AssetV1"
      let acks = try await refresher.client.syncAcks()
      #expect(acks.contains { $0.type == v3Type })
      #expect(acks.contains { $0.type == "SyncCompleteV1" })
    }
  }

  @Test(arguments: ImmichVersion.both)
  func aRefreshFetchesOnlyTheChanges(version: ImmichVersion) async throws {
    let library = Library(version, extraAliceAssets: 50)
    try await withServer(library.scenario) { h in
      let (refresher, connection) = try await refresher(h)
      _ = try await refresher.refresh()

      let state = h.server.state
      state.add(Scenario.Asset(ownerId: library.alice.id, originalFileName: "NEW.JPG"))
      state.trash([library.timeline.id])
      state.restore([library.trashed.id])
      state.hardDelete([library.archived.id])
      h.server.log.clear()

      let second = try await refresher.refresh()
      #expect(h.server.log.requests(path: "/api/sync/stream").count == 1)
      #expect(h.server.log.requests(method: "POST", path: "/api/sync/ack").count == 1)
      // Four changes and the completion line; nothing already known.
      #expect(second.lines == 5)
      #expect(second.wasReset == false)
      let searched = try await searchListing(connection)
      #expect(try second.listing().assets == searched.assets)
      try expectCachedLines(second.cached, equal: searched)
      let byId = Dictionary(uniqueKeysWithValues: try second.listing().assets.map { ($0.id, $0) })
      #expect(byId[library.timeline.id]?.isTrashed == true)
      #expect(byId[library.trashed.id]?.isTrashed == false)
      #expect(byId[library.archived.id] == nil)
      #expect(try second.listing().assets.contains { $0.originalFileName == "NEW.JPG" })
    }
  }

  @Test(arguments: ImmichVersion.both)
  func aResetDropsTheCacheAndStreamsAgain(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      let (refresher, connection) = try await refresher(h)
      _ = try await refresher.refresh()
      let session = try #require(h.server.state.sessions.first { $0.userId == library.alice.id })
      h.server.state.setPendingSyncReset(sessionID: session.id)
      h.server.log.clear()

      let outcome = try await refresher.refresh()
      #expect(outcome.wasReset)
      let streams = h.server.log.requests(path: "/api/sync/stream")
      #expect(streams.count == 2)
      #expect(streams.last?.body.contains("\"reset\":true") == true)
      #expect(try outcome.listing().assets == (try await searchListing(connection)).assets)
    }
  }

  @Test(arguments: ImmichVersion.both)
  func aCutStreamKeepsCacheAndAcksInStep(version: ImmichVersion) async throws {
    let library = Library(version, extraAliceAssets: 20)
    try await withServer(library.scenario) { h in
      let (refresher, connection) = try await refresher(h, batchSize: 4)
      // Every attempt is cut the same way: a loaded machine may time out the first before a
      // line arrives, and the client then asks again.
      h.server.faults.inject(
        Fault(
          method: "POST", path: "/api/sync/stream", count: 100,
          action: .truncateStream(afterLines: 10)))
      let cut = try await #require(throws: ImmichError.self) { try await refresher.refresh() }
      h.server.faults.clear()
      #expect(cut.kind == .transport)

      // Every line that arrived whole is in the cache, and the server's checkpoint is the
      // last of them: no more, no less.
      let cached = try refresher.cache.count()
      #expect(cached == 10)
      let type = version != .v2_7 ? "AssetV2" : "AssetV1"
      let serverAck = try await refresher.client.syncAcks().first { $0.type == type }?.ack
      let cacheAck = try refresher.cache.meta("ack.\(type)")
      #expect(serverAck != nil)
      #expect(serverAck == cacheAck)
      #expect(
        try await refresher.client.syncAcks().contains { $0.type == "SyncCompleteV1" } == false)

      // The next refresh resumes after them and ends complete.
      let resumed = try await refresher.refresh()
      let total = library.scenario.assets.filter { $0.ownerId == library.alice.id }.count
      #expect(resumed.lines == total - 10 + 1)
      #expect(try resumed.listing().assets == (try await searchListing(connection)).assets)
    }
  }

  /// A server that never ends its stream is stopped at the bound, not read for ever; what
  /// arrived whole is kept and acknowledged, so a run after the fault resumes and completes.
  @Test(arguments: ImmichVersion.both)
  func anEndlessStreamStopsAtItsBound(version: ImmichVersion) async throws {
    let library = Library(version, extraAliceAssets: 20)
    try await withServer(library.scenario) { h in
      var options = Harness.fastOptions
      options.syncLineLimit = 1000
      let (refresher, connection) = try await refresher(h, batchSize: 300, options: options)
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/sync/stream", count: 100, action: .endlessStream))
      let stopped = try await #require(throws: ImmichError.self) { try await refresher.refresh() }
      h.server.faults.clear()
      #expect(stopped.kind == .server)
      #expect(stopped.message.contains("more than 1000 lines in one stream"), "\(stopped.message)")
      #expect(stopped.exitStatus == .serverFailure)

      // The thousand lines that arrived whole were committed and acknowledged, in batches,
      // and nothing said the stream was complete.
      let type = version == .v2_7 ? "AssetV1" : "AssetV2"
      let serverAck = try await refresher.client.syncAcks().first { $0.type == type }?.ack
      #expect(serverAck != nil)
      #expect(serverAck == (try refresher.cache.meta("ack.\(type)")))
      #expect(try refresher.cache.meta("completedAt") == nil)

      let resumed = try await refresher.refresh()
      #expect(try resumed.listing().assets == (try await searchListing(connection)).assets)
    }
  }

  /// A line that never ends is stopped at a megabyte, not buffered until memory runs out.
  @Test func aLineThatNeverEndsIsStopped() async throws {
    let library = Library(.v3_1)
    try await withServer(library.scenario) { h in
      let (refresher, _) = try await refresher(h)
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/sync/stream", count: 100, action: .endlessLine))
      let stopped = try await #require(throws: ImmichError.self) { try await refresher.refresh() }
      #expect(stopped.kind == .server)
      #expect(stopped.message.contains("line 1 is longer than 1048576 bytes"), "\(stopped.message)")
      #expect(try refresher.cache.count() == 0)
    }
  }

  @Test func aNewLoginStartsTheCacheOver() async throws {
    let library = Library(.v3_1)
    try await withServer(library.scenario) { h in
      let (first, _) = try await refresher(h)
      _ = try await first.refresh()
      let (second, connection) = try await refresher(h)
      h.server.log.clear()
      let outcome = try await second.refresh()
      #expect(outcome.wasReset)
      #expect(
        h.server.log.requests(path: "/api/sync/stream").first?.body.contains("\"reset\":true")
          == true)
      #expect(try outcome.listing().assets == (try await searchListing(connection)).assets)
    }
  }

  @Test func anAPIKeyCannotStream() async throws {
    try await withServer(Library(.v3_1).scenario) { h in
      let connection = try await h.connect()
      let error = try await #require(throws: ImmichError.self) {
        try await connection.client.syncStream(types: ["AssetsV2"], reset: false) { _ in }
      }
      #expect(error.kind == .forbidden)
      #expect(error.serverMessage == "Sync endpoints cannot be used with API keys")
    }
  }
}

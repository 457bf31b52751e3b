import CairnImmich
import CairnRecords
import CairnStream
import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Immich 3.2 (docs/IMMICH-API.md §14): the structured search where the server has it, the trash
/// settings from `GET /config`, and the shape Immich 4 is expected to have.
@Suite struct Immich32Tests {
  /// The same client as `connection`'s, made without the version: it speaks the flat fields.
  func flatClient(_ h: Harness) -> ImmichClient {
    ImmichClient(apiBase: h.base + "/api", apiKey: Secret(Library.aliceKey))
  }

  /// Trashed, force-deleted awaiting the purge, partner, locked: the listing is the same set
  /// in both dialects, and the same on every version.
  @Test func listingIsTheSameSetInBothDialects() async throws {
    var listings: [ImmichVersion: [AssetRecord]] = [:]
    for version in ImmichVersion.allCases {
      let library = Library(version, extraAliceAssets: 7)
      try await withServer(library.scenario) { h in
        let connection = try await h.connect()
        #expect(
          connection.client.searchDialect == (version.hasStructuredSearch ? .structured : .flat))
        let alice = library.alice.id
        // Empty one trash and trash one more asset: both kinds must still be listed.
        h.server.state.emptyTrash(userID: alice)
        h.server.state.trash([library.archived.id])
        let spoken = try await SearchLister(
          client: connection.client, ownerId: alice, pageSize: 4
        ).list()
        let flat = try await SearchLister(client: flatClient(h), ownerId: alice, pageSize: 4)
          .list()
        #expect(spoken == flat)
        #expect(spoken.assets.map(\.id) == library.expectedIds)
        #expect(spoken.trashed == 2)
        #expect(spoken.partnerSkipped == 1)
        listings[version] = spoken.assets
        let bodies = h.server.log.requests(method: "POST", path: "/api/search/metadata")
          .map(\.body)
        #expect(bodies.contains { $0.contains("\"filter\"") } == version.hasStructuredSearch)
        #expect(bodies.contains { $0.contains("\"cursor\"") } == version.hasStructuredSearch)
      }
    }
    let ids = listings.mapValues { $0.map(\.id) }
    #expect(Set(ids.values.map { $0.count }).count == 1)
    #expect(ids[.v3_2]?.count == ids[.v3_1]?.count)
  }

  /// Paging by cursor over many pages while assets are trashed and a trash is emptied between
  /// pages: offsets stay put (the structured search hides nothing), every asset comes once,
  /// the cursors never repeat.
  @Test func cursorPagingSurvivesTrashingBetweenPages() async throws {
    let library = Library(.v3_2, extraAliceAssets: 30)
    try await withServer(library.scenario) { h in
      let connection = try await h.connect()
      let client = connection.client
      var query: MetadataQuery? = MetadataQuery(
        visibility: .timeline, withDeleted: true, size: 4, order: "asc")
      var seen: [String] = []
      var cursors: [String] = []
      var pages = 0
      while let current = query {
        let page = try await client.searchMetadata(current)
        seen += page.items.map { $0.id }
        pages += 1
        if pages == 2 {
          // A page already read and one not yet read lose assets to the trash, then the
          // trash is emptied: they are still there until the purge job runs.
          let later = library.scenario.assets.filter { $0.originalFileName.hasPrefix("BULK_0002") }
          h.server.state.trash([seen[0]] + later.map(\.id))
          h.server.state.emptyTrash(userID: library.alice.id)
        }
        if pages == 4 { h.server.state.trash([seen[5]]) }
        if let cursor = page.nextCursor { cursors.append(cursor) }
        #expect(page.nextPage == nil)
        query = page.next(after: current)
      }
      #expect(pages > 5)
      #expect(Set(cursors).count == cursors.count)
      #expect(Set(seen).count == seen.count, "no asset twice")
      // Bob shares into Alice's timeline: his assets come back too (the lister drops them).
      let owners = [library.alice.id, library.bob.id]
      let expected = library.scenario.assets.filter {
        owners.contains($0.ownerId) && $0.visibility == .timeline
      }
      #expect(Set(seen) == Set(expected.map(\.id)))
      // A cursor the server never gave is a 400 "Invalid cursor".
      var forged = MetadataQuery(visibility: .timeline, withDeleted: true)
      forged.cursor = "not-a-cursor"
      await #expect(throws: ImmichError.self) { try await client.searchMetadata(forged) }
    }
  }

  /// The v4 shape (flat fields answered with 400, the deprecated server config gone): cairn
  /// still lists, finds by checksum, id and tag, and reads the trash settings from `/config`.
  @Test func serverWithoutTheFlatFieldsStillWorks() async throws {
    var library = Library(.v3_2, extraAliceAssets: 5)
    library.scenario.deprecatedRemoved = true
    try await withServer(library.scenario) { h in
      let connection = try await h.connect()
      let client = connection.client
      let listing = try await SearchLister(
        client: client, ownerId: library.alice.id, pageSize: 3
      ).list()
      #expect(listing.assets.map(\.id) == library.expectedIds)
      let byChecksum = try await client.searchAll(
        MetadataQuery(withDeleted: true, checksum: library.trashed.checksum))
      #expect(byChecksum.map { $0.id } == [library.trashed.id])
      let byId = try await client.searchAll(MetadataQuery(id: library.archived.id))
      #expect(byId.map { $0.id } == [library.archived.id])
      let settings = try await client.trashSettings()
      #expect(settings == ServerTrashSettings(enabled: true, days: 30, source: .userConfig))
      // The flat dialect is refused: proof that nothing above used it.
      await #expect(throws: ImmichError.self) {
        try await flatClient(h).searchMetadata(MetadataQuery(visibility: .timeline))
      }
      await #expect(throws: ImmichError.self) { try await flatClient(h).config() }
    }
  }

  /// Where the trash settings come from on each version, with and without `userConfig.read`;
  /// a server where neither can be read is refused, not assumed to keep a trash.
  @Test func trashSettingsFromTheConfigWhereTheServerHasIt() async throws {
    for version in ImmichVersion.allCases {
      var library = Library(version)
      library.scenario.trashDays = 12
      let keyOnly = library.scenario.addUser(
        email: "eve@example.com", keySecret: "eve-secret",
        permissions: Permission.cairnNeeds.filter { $0 != Permission.userConfigRead })
      try await withServer(library.scenario) { h in
        let alice = try await h.connect()
        let expected: ServerTrashSettings.Source =
          version.hasStructuredSearch ? .userConfig : .serverConfig
        #expect(
          try await alice.client.trashSettings()
            == ServerTrashSettings(enabled: true, days: 12, source: expected))
        let eve = try await h.connect(["IMMICH_API_KEY": keyOnly.key.secret])
        let fallback: ServerTrashSettings.Source =
          version.hasStructuredSearch ? .serverConfigWithoutPermission : .serverConfig
        #expect(
          try await eve.client.trashSettings()
            == ServerTrashSettings(enabled: true, days: 12, source: fallback))
      }
    }
    var gone = Library(.v3_2)
    gone.scenario.deprecatedRemoved = true
    let keyOnly = gone.scenario.addUser(
      email: "eve@example.com", keySecret: "eve-secret",
      permissions: Permission.cairnNeeds.filter { $0 != Permission.userConfigRead })
    try await withServer(gone.scenario) { h in
      let eve = try await h.connect(["IMMICH_API_KEY": keyOnly.key.secret])
      await #expect(throws: ImmichError.self) { try await eve.client.trashSettings() }
      await #expect(throws: CairnError.self) { try await eve.runServer.trashSettings() }
    }
  }

  func fetch(_ h: Harness, _ arguments: [String]) async throws -> ToolResult {
    try await ToolRunner.runDetached(
      "cairn-fetch", arguments, environment: h.environment(["CAIRN_HTTP_ATTEMPTS": "2"]),
      workingDirectory: h.folder.path)
  }

  /// A server newer than cairn was tested with: `--check` always says so; listing runs say
  /// it once per new version (remembered in the partition), not under `-q`, and again for the
  /// next new version. The tested versions themselves (3.3.0, which the double reports in
  /// v3.3, and 3.3.1) are not warned about.
  @Test func newerThanTestedIsWarnedOncePerVersion() async throws {
    var library = Library(.v3_3)
    library.scenario.reportedVersion = "3.3.2"
    try await withServer(library.scenario) { h in
      let quiet = try await fetch(h, ["identity", "-q"])
      #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
      let first = try await fetch(h, ["identity"])
      #expect(first.status == 0, "\(first.stderr)")
      #expect(first.stderr.contains("warning: Immich 3.3.2 is newer than 3.3.1"), "\(first.stderr)")
      let second = try await fetch(h, ["identity"])
      #expect(!second.stderr.contains("newer than"), "\(second.stderr)")
      let check = try await fetch(h, ["check"])
      #expect(check.stderr.contains("Immich 3.3.2 is newer than 3.3.1"), "\(check.stderr)")
      #expect(check.stderr.contains("trash settings read from GET /api/config"))
      #expect(check.stderr.contains("permission userConfig.read"))
    }
    // Same state folder, a newer server again: warned anew.
    library.scenario.reportedVersion = "3.4.1"
    try await withServer(library.scenario) { h in
      let next = try await fetch(h, ["identity"])
      #expect(next.stderr.contains("Immich 3.4.1 is newer"), "\(next.stderr)")
    }
    for reported in [nil, "3.3.1", "3.2.2"] {
      var tested = Library(.v3_3)
      tested.scenario.reportedVersion = reported
      try await withServer(tested.scenario) { h in
        for arguments in [["identity"], ["check"]] {
          let result = try await fetch(h, arguments)
          #expect(result.status == 0, "\(reported ?? "3.3.0"): \(result.stderr)")
          #expect(!result.stderr.contains("newer"), "\(reported ?? "3.3.0"): \(result.stderr)")
        }
      }
    }
  }

  /// 3.3's `GET /api-keys/me` may list permission strings cairn has never heard of
  /// (docs/IMMICH-API.md §17): `--check` reads the ones it needs and passes over the rest.
  @Test func checkPassesOverPermissionsNewIn33() async throws {
    var library = Library(.v3_3)
    let eve = library.scenario.addUser(
      email: "eve@example.com", keySecret: "eve-secret",
      permissions: Permission.newIn3_3 + Permission.cairnNeeds + ["asset.view", "album.read"])
    try await withServer(library.scenario) { h in
      let result = try await ToolRunner.runDetached(
        "cairn-fetch", ["check"],
        environment: h.environment(["IMMICH_API_KEY": eve.key.secret]),
        workingDirectory: h.folder.path)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(!result.stderr.contains("missing"), "\(result.stderr)")
      #expect(!result.stderr.contains("newer than"), "\(result.stderr)")
      let keys = h.server.log.requests(method: "GET", path: "/api/api-keys/me")
      #expect(!keys.isEmpty)
    }
  }

  /// `--check` on 3.2 with a key lacking `userConfig.read`: a warning, not a failure, and the
  /// trash settings read from the deprecated endpoints.
  @Test func checkNamesTheConfigPermissionOn32() async throws {
    var library = Library(.v3_2)
    let eve = library.scenario.addUser(
      email: "eve@example.com", keySecret: "eve-secret",
      permissions: Permission.cairnNeeds.filter { $0 != Permission.userConfigRead })
    try await withServer(library.scenario) { h in
      let result = try await ToolRunner.runDetached(
        "cairn-fetch", ["check"],
        environment: h.environment(["IMMICH_API_KEY": eve.key.secret]),
        workingDirectory: h.folder.path)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        result.stderr.contains("[warn] permission userConfig.read missing"), "\(result.stderr)")
      #expect(result.stderr.contains("the deprecated GET /api/server/features"))
      #expect(!result.stderr.contains("newer than"))
    }
  }
}

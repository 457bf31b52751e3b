import Foundation
import ImmichTestServer
import Testing

/// docs/IMMICH-API.md §13: external-library assets carry `libraryId` and a checksum of their path, not
/// of their bytes; an offline one is trashed by the library scan but keeps `status` active, so
/// restore and "empty trash" pass it by.
@Suite struct ExternalLibraryTests {
  static let library = "7f4c1b2a-3d5e-4f60-8a7b-9c0d1e2f3a4b"

  struct Shelf {
    var scenario: Scenario
    var key = "shelf-key"
    var upload: Scenario.Asset
    var imported: Scenario.Asset
    var offline: Scenario.Asset

    init(_ version: ImmichVersion) {
      var s = Scenario(version: version)
      let owner = s.addUser(email: "lib@example.com", password: "pw", keySecret: key).user
      let t0 = Date(timeIntervalSince1970: 1_750_000_000)
      upload = s.addAsset(owner: owner, fileName: "UP.JPG", createdAt: t0)
      imported = s.addAsset(
        owner: owner, fileName: "IN.JPG", createdAt: t0.addingTimeInterval(60),
        libraryId: ExternalLibraryTests.library, originalPath: "/photos/2026/IN.JPG")
      offline = s.addAsset(
        owner: owner, fileName: "GONE.JPG", createdAt: t0.addingTimeInterval(120),
        libraryId: ExternalLibraryTests.library, isOffline: true)
      scenario = s
    }
  }

  @Test func theChecksumIsTheSHA1OfThePathNotOfTheBytes() {
    let shelf = Shelf(.v3_1)
    #expect(shelf.imported.checksum == Scenario.pathChecksum(of: "/photos/2026/IN.JPG"))
    #expect(
      shelf.imported.checksum == Scenario.checksum(of: Array("path:/photos/2026/IN.JPG".utf8)))
    #expect(shelf.offline.originalPath == Scenario.libraryPath(fileName: "GONE.JPG"))
    #expect(shelf.offline.checksum == Scenario.pathChecksum(of: "/mnt/library/GONE.JPG"))
    #expect(shelf.upload.libraryId == nil && shelf.upload.originalPath == nil)
  }

  @Test(arguments: ImmichVersion.allCases)
  func assetsShowTheirLibraryAndOfflineState(version: ImmichVersion) async throws {
    let shelf = Shelf(version)
    try await ImmichTestServer.withRunning(shelf.scenario) { server, url in
      let client = TestClient(base: url)
      let imported = try #require(
        try await client.get("/api/assets/\(shelf.imported.id)", as: .key(shelf.key)).json)
      #expect(imported["libraryId"]?.stringValue == Self.library)
      #expect(imported["originalPath"] == "/photos/2026/IN.JPG")
      #expect(imported["checksum"]?.stringValue == shelf.imported.checksum)
      #expect(imported["isOffline"] == false)
      let offline = try #require(
        try await client.get("/api/assets/\(shelf.offline.id)", as: .key(shelf.key)).json)
      #expect(offline["isOffline"] == true)
      #expect(offline["isTrashed"] == true)
      #expect(server.state.asset(shelf.offline.id)?.status == .active)

      // Trashed, so a plain search leaves it out; `isOffline` implies withDeleted.
      #expect(
        try await client.searchIds([:], as: .key(shelf.key)).contains(shelf.offline.id) == false)
      #expect(
        try await client.searchIds(["isOffline": true], as: .key(shelf.key)) == [shelf.offline.id])
      #expect(
        try await client.searchIds(["libraryId": .string(Self.library)], as: .key(shelf.key))
          == [shelf.imported.id])
      #expect(
        try await client.searchIds(["libraryId": .null], as: .key(shelf.key)) == [shelf.upload.id])
    }
  }

  @Test func restoreAndEmptyTrashPassAnOfflineAssetBy() async throws {
    let shelf = Shelf(.v3_1)
    try await ImmichTestServer.withRunning(shelf.scenario) { server, url in
      let client = TestClient(base: url)
      let one = try await client.post(
        "/api/trash/restore/assets", ["ids": [.string(shelf.offline.id)]], as: .key(shelf.key))
      #expect(one.json == ["count": 1])
      #expect(try await client.post("/api/trash/restore", as: .key(shelf.key)).json == ["count": 0])
      #expect(try await client.post("/api/trash/empty", as: .key(shelf.key)).json == ["count": 0])
      server.state.runQueuedJobs()
      let row = try #require(server.state.asset(shelf.offline.id))
      #expect(row.isOffline && row.isTrashed && row.status == .active)
    }
  }

  @Test func syncSendsTheLibraryId() async throws {
    let shelf = Shelf(.v3_1)
    try await ImmichTestServer.withRunning(shelf.scenario) { _, url in
      let client = TestClient(base: url)
      let token = try await client.login("lib@example.com", "pw")
      let lines = try await client.post(
        "/api/sync/stream", ["types": ["AssetsV2"]], as: .bearer(token)
      ).lines
      let imported = try #require(
        lines.first { $0["data"]?["id"]?.stringValue == shelf.imported.id })
      #expect(imported["data"]?["libraryId"]?.stringValue == Self.library)
      let offline = try #require(lines.first { $0["data"]?["id"]?.stringValue == shelf.offline.id })
      #expect(offline["data"]?["deletedAt"] != .null)
    }
  }

  @Test func scenarioFilesKeepLibraryFields() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "testserver-library-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("scenario.json")
    let shelf = Shelf(.v3_1)
    try shelf.scenario.write(to: file)
    let loaded = try Scenario.load(from: file)
    #expect(loaded.assets.map(\.libraryId) == shelf.scenario.assets.map(\.libraryId))
    #expect(loaded.assets.map(\.isOffline) == [false, false, true])
    #expect(loaded.assets.map(\.originalPath) == shelf.scenario.assets.map(\.originalPath))
    #expect(loaded.assets.map(\.checksum) == shelf.scenario.assets.map(\.checksum))
  }
}

import CairnImmich
import CairnRecords
import CairnSettings
import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The client's contract: URL forms, version differences, and errors a person can act on.
@Suite struct ClientTests {
  @Test(arguments: ImmichVersion.both)
  func everyFormOfTheURLNamesTheSamePartition(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      let base = h.base
      let upper = base.replacingOccurrences(of: "http://", with: "HTTP://")
      var identities: [ServerIdentity] = []
      for form in [base, base + "/", base + "/api", base + "/api/", upper] {
        identities.append(try await h.connect(["IMMICH_URL": form]).identity)
      }
      #expect(Set(identities).count == 1)
      let identity = try #require(identities.first)
      #expect(identity.url == base + "/api")
      #expect(identity.userId == library.alice.id)
      #expect(identity.version == version.number)
      // Without /api the client asked the server where its API is.
      #expect(!h.server.log.requests(method: "GET", path: "/.well-known/immich").isEmpty)
    }
  }

  @Test(arguments: ImmichVersion.both)
  func aWebPageInsteadOfTheAPISaysSo(version: ImmichVersion) async throws {
    try await withServer(Library(version).scenario) { h in
      // A sub-path the web app answers: HTML for browsers, 406 for a JSON client.
      let error = try await #require(throws: ImmichError.self) {
        try await h.connect(["IMMICH_URL": h.base + "/photos"])
      }
      #expect(error.kind == .notImmich)
      #expect(error.exitStatus == .serverFailure)
      #expect(error.message.contains("not an Immich API URL"))

      // A proxy that answers an HTML page with 200.
      h.server.faults.inject(
        Fault(
          method: "GET", path: "/api/server/version",
          action: .status(200, body: "<html></html>", contentType: "text/html")))
      let html = try await #require(throws: ImmichError.self) { try await h.connect() }
      #expect(html.kind == .notImmich)
      #expect(html.message.contains("not an Immich API URL"))
    }
  }

  @Test func missingSettingsSayWhereToSetThem() throws {
    let folder = TemporaryDirectory()
    let configuration = try Configuration.load(
      environment: folder.isolatedEnvironment(), workingDirectory: folder.path)
    let noURL = try #require(throws: ImmichError.self) {
      try ServerConnection.settings(configuration)
    }
    #expect(noURL.exitStatus == .configuration)
    #expect(noURL.message.contains("IMMICH_URL is not set"))
    #expect(noURL.message.contains(folder.path + "/config/cairn/config"))
    #expect(noURL.message.contains(".env"))

    let withURL = try Configuration.load(
      environment: folder.isolatedEnvironment(["IMMICH_URL": "http://127.0.0.1:1"]),
      workingDirectory: folder.path)
    let noKey = try #require(throws: ImmichError.self) { try ServerConnection.settings(withURL) }
    #expect(noKey.exitStatus == .configuration)
    #expect(noKey.message.contains("IMMICH_API_KEY is not set"))
  }

  @Test(arguments: ImmichVersion.both)
  func aRejectedKeyIsExit77WithoutTheKey(version: ImmichVersion) async throws {
    try await withServer(Library(version).scenario) { h in
      let wrong = "cairn-wrong-key-Pq4Ms9"
      let error = try await #require(throws: ImmichError.self) {
        try await h.connect(["IMMICH_API_KEY": wrong])
      }
      #expect(error.kind == .unauthorized)
      #expect(error.exitStatus == .permission)
      #expect(error.message.contains("rejected the API key"))
      #expect(!error.message.contains(wrong))
      #expect(!error.cairnError.description.contains(wrong))
    }
  }

  @Test(arguments: ImmichVersion.both)
  func aMissingPermissionIsNamedWithTheFix(version: ImmichVersion) async throws {
    var library = Library(version)
    library.scenario.addKey(
      for: library.alice, name: "narrow", secret: "narrow-key-Wd2",
      permissions: ["user.read", "tag.read"])
    try await withServer(library.scenario) { h in
      let connection = try await h.connect(["IMMICH_API_KEY": "narrow-key-Wd2"])
      let error = try await #require(throws: ImmichError.self) {
        try await SearchLister(client: connection.client, ownerId: library.alice.id).list()
      }
      #expect(error.kind == .forbidden)
      #expect(error.exitStatus == .permission)
      #expect(error.missingPermission == "asset.read")
      #expect(error.message.contains("'asset.read'"))
      #expect(error.message.contains("Account Settings → API Keys"))
    }
  }

  @Test(arguments: ImmichVersion.both)
  func anOwnershipRefusalCarriesTheServersMessage(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      let client = try await h.connect().client
      let error = try await #require(throws: ImmichError.self) {
        try await client.trash(assetIds: [library.timeline.id, library.bobs.id])
      }
      #expect(error.httpStatus == 400)
      #expect(error.serverMessage == "Not found or no asset.delete access")
      #expect(error.message.contains("DELETE /api/assets"))
      #expect(error.exitStatus == .permission)
      // All or nothing: Alice's own asset was not trashed either.
      #expect(h.server.state.asset(library.timeline.id)?.isTrashed == false)
    }
  }

  @Test(arguments: ImmichVersion.both)
  func idsGoLowerCaseAndTrashIsNeverForced(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      let client = try await h.connect().client
      try await client.trash(assetIds: [library.timeline.id.uppercased()])
      #expect(h.server.state.asset(library.timeline.id)?.isTrashed == true)
      let sent = try #require(h.server.log.requests(method: "DELETE", path: "/api/assets").last)
      #expect(sent.body.contains(library.timeline.id.lowercased()))
      #expect(!sent.body.contains(library.timeline.id.uppercased()))
      #expect(sent.body.contains("\"force\":false"))
      #expect(try await client.restore(assetIds: [library.timeline.id.uppercased()]) == 1)
      #expect(h.server.state.asset(library.timeline.id)?.isTrashed == false)
    }
  }

  @Test func serverErrorsAreRetriedThenReportedAs69() async throws {
    let library = Library(.v3_1)
    try await withServer(library.scenario) { h in
      let client = try await h.connect().client
      h.server.log.clear()
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/search/metadata", count: 50, action: .status(502)))
      let error = try await #require(throws: ImmichError.self) {
        try await SearchLister(client: client, ownerId: library.alice.id).list()
      }
      #expect(error.kind == .server)
      #expect(error.exitStatus == .serverFailure)
      #expect(error.message.contains("502"))
      #expect(error.message.contains("after 3 attempts"))
      #expect(h.server.log.requests(method: "POST", path: "/api/search/metadata").count == 3)
    }
  }

  @Test func aPassingServerErrorIsRetriedAway() async throws {
    let library = Library(.v2_7)
    try await withServer(library.scenario) { h in
      let client = try await h.connect().client
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/search/metadata", count: 1, action: .status(503)))
      h.server.faults.inject(Fault(method: "POST", path: "/api/search/metadata", action: .reset))
      let listing = try await SearchLister(client: client, ownerId: library.alice.id).list()
      #expect(listing.assets.map(\.id) == library.expectedIds)
      // One 503 and one reset, each followed by a successful retry (3 visibilities, 1 page).
      #expect(h.server.log.requests(method: "POST", path: "/api/search/metadata").count == 5)
    }
  }

  @Test func aConnectionResetEveryTimeIsExit69() async throws {
    try await withServer(Library(.v3_1).scenario) { h in
      let client = try await h.connect().client
      h.server.faults.inject(Fault(method: "GET", path: "/api/users/me", count: 10, action: .reset))
      let error = try await #require(throws: ImmichError.self) { try await client.currentUser() }
      #expect(error.kind == .transport)
      #expect(error.exitStatus == .serverFailure)
      #expect(error.message.contains("GET /api/users/me"))
      #expect(error.message.contains("closed the connection"))
    }
  }

  @Test func aServerThatIsNotThereIsConnectionRefused() async throws {
    let library = Library(.v3_1)
    let server = ImmichTestServer(scenario: library.scenario)
    let url = try await server.start()
    await server.stop()
    let folder = TemporaryDirectory()
    let configuration = try Configuration.load(
      environment: folder.isolatedEnvironment([
        "IMMICH_URL": url.absoluteString, "IMMICH_API_KEY": Library.aliceKey,
      ]), workingDirectory: folder.path)
    let error = try await #require(throws: ImmichError.self) {
      try await ServerConnection.connect(configuration: configuration, options: Harness.fastOptions)
    }
    #expect(error.kind == .transport)
    #expect(error.exitStatus == .serverFailure)
    #expect(error.message.contains("connection refused"))
  }

  @Test func aSlowServerTimesOut() async throws {
    try await withServer(Library(.v3_1).scenario) { h in
      let connection = try await h.connect()
      let impatient = ClientOptions(
        requestTimeout: .milliseconds(300), streamTimeout: .milliseconds(300), maxAttempts: 1)
      let client = ImmichClient(
        apiBase: connection.client.apiBase, apiKey: Secret(Library.aliceKey), options: impatient)
      h.server.faults.inject(Fault(method: "GET", path: "/api/tags", action: .delay(seconds: 2)))
      let error = try await #require(throws: ImmichError.self) { try await client.tags() }
      #expect(error.kind == .transport)
      #expect(error.message.contains("no answer within"))
    }
  }

  @Test func loginIsNeverRepeated() async throws {
    try await withServer(Library(.v3_1).scenario) { h in
      let client = try await h.connect().client
      h.server.faults.inject(
        Fault(method: "POST", path: "/api/auth/login", count: 5, action: .status(500)))
      await #expect(throws: ImmichError.self) {
        try await client.login(email: "alice@example.com", password: Secret(Library.alicePassword))
      }
      #expect(h.server.log.requests(method: "POST", path: "/api/auth/login").count == 1)
    }
  }

  @Test(arguments: ImmichVersion.both)
  func serverAnswersDecodeOnBothVersions(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      let connection = try await h.connect()
      let client = connection.client
      #expect(try await client.ping())
      #expect(connection.version.isV3OrLater == (version != .v2_7))
      #expect(try await client.features().trash)
      #expect(try await client.config().trashDays == 30)
      #expect(try await client.about().version.hasPrefix("v"))
      #expect(try await client.currentAPIKey().grants("asset.delete"))
      let video = try await client.asset(id: library.liveVideo.id)
      #expect(video.durationMilliseconds == 2500)
      #expect(video.visibility == "hidden")
      let tags = try await client.upsertTags(["cairn/v1/run/test"])
      let tag = try #require(tags.first)
      #expect(tag.value == "cairn/v1/run/test")
      #expect(try await client.tagAssets(tagIds: [tag.id], assetIds: [library.timeline.id]) == 1)
      let again = try await client.addAssets([library.timeline.id], toTag: tag.id)
      #expect(again.allSatisfy { $0.isTagged })
      #expect(try await client.tag(id: tag.id).name == "test")
      #expect(try await client.tags().map(\.value).contains("cairn/v1"))
      let check = try await client.uploadCheck([
        ("a", library.timeline.checksum), ("b", String(repeating: "0", count: 40)),
      ])
      #expect(check.first?.action == "reject")
      #expect(check.first?.assetId == library.timeline.id)
    }
  }
}

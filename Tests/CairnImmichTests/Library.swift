import CairnImmich
import CairnSettings
import CairnTestSupport
import Foundation
import ImmichTestServer

/// Alice (the cairn user, one asset of every kind), Bob who shares into her timeline, Carol
/// who shares but stays out of it, and Dave, a stranger.
struct Library {
  var scenario: Scenario
  var alice: Scenario.User
  var bob: Scenario.User
  /// A distinctive key, grepped for in every output to prove it never leaks.
  static let aliceKey = "cairn-test-key-Zq8XvT3wLp"
  static let alicePassword = "cairn-test-pw-Hy7Rk2Nd"
  var timeline: Scenario.Asset
  var archived: Scenario.Asset
  var liveStill: Scenario.Asset
  var liveVideo: Scenario.Asset
  var locked: Scenario.Asset
  var trashed: Scenario.Asset
  var bobs: Scenario.Asset

  static let t0 = Date(timeIntervalSince1970: 1_750_000_000)
  static func hours(_ h: Double) -> Date { t0.addingTimeInterval(h * 3600) }

  init(_ version: ImmichVersion, extraAliceAssets: Int = 0) {
    var s = Scenario(version: version)
    alice =
      s.addUser(
        email: "alice@example.com", password: Self.alicePassword, name: "Alice",
        keySecret: Self.aliceKey
      ).user
    bob = s.addUser(email: "bob@example.com", keySecret: "bob-secret").user
    let carol = s.addUser(email: "carol@example.com", keySecret: "carol-secret").user
    let dave = s.addUser(email: "dave@example.com", keySecret: "dave-secret").user
    s.addPartner(sharing: bob, with: alice, inTimeline: true)
    s.addPartner(sharing: carol, with: alice, inTimeline: false)
    timeline = s.addAsset(owner: alice, fileName: "IMG_0001.JPG", createdAt: Self.hours(1))
    trashed = s.addAsset(
      owner: alice, fileName: "IMG_0002.JPG", createdAt: Self.hours(2), trashed: true)
    locked = s.addAsset(
      owner: alice, fileName: "IMG_0003.JPG", visibility: .locked, createdAt: Self.hours(3))
    (liveStill, liveVideo) = s.addLivePhoto(
      owner: alice, baseName: "LIVE_0004", createdAt: Self.hours(4))
    archived = s.addAsset(
      owner: alice, fileName: "IMG_0005.JPG", visibility: .archive, createdAt: Self.hours(5))
    bobs = s.addAsset(owner: bob, fileName: "BOB_0001.JPG", createdAt: Self.hours(7))
    s.addAsset(owner: carol, fileName: "CAROL_0001.JPG", createdAt: Self.hours(8))
    s.addAsset(owner: dave, fileName: "DAVE_0001.JPG", createdAt: Self.hours(9))
    for i in 0..<extraAliceAssets {
      s.addAsset(
        owner: alice, fileName: String(format: "BULK_%05d.JPG", i),
        createdAt: Self.hours(10).addingTimeInterval(Double(i)))
    }
    scenario = s
  }

  /// Alice's assets a listing must return: everything she owns except the locked one.
  var expectedIds: [String] {
    scenario.assets.filter { $0.ownerId == alice.id && $0.visibility != .locked }.map(\.id)
      .sorted()
  }
}

/// A running test server and what a test needs around it.
struct Harness {
  let server: ImmichTestServer
  let url: URL
  let folder: TemporaryDirectory

  var base: String { url.absoluteString }

  /// The environment the tools get: private XDG folders, the server, Alice's key.
  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var env = folder.isolatedEnvironment([
      "IMMICH_URL": base, "IMMICH_API_KEY": Library.aliceKey,
    ])
    for (key, value) in extra { env[key] = value }
    return env
  }

  func configuration(_ extra: [String: String] = [:]) throws -> Configuration {
    try Configuration.load(environment: environment(extra), workingDirectory: folder.path)
  }

  /// Short backoff so failure tests stay quick. The time-outs are the tools' own: the debug
  /// double answering a page of a thousand beside hundreds of other tests on two cores has
  /// taken more than 5 s, and the tests that are about time-outs set their own.
  static let fastOptions = ClientOptions(
    requestTimeout: .seconds(30), streamTimeout: .seconds(30), maxAttempts: 3,
    initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(80))

  func connect(_ extra: [String: String] = [:]) async throws -> ServerConnection {
    try await ServerConnection.connect(
      configuration: configuration(extra), options: Self.fastOptions)
  }
}

/// Starts a server for `scenario`, runs `body`, and stops the server on every path.
func withServer(
  _ scenario: Scenario, _ body: (Harness) async throws -> Void
) async throws {
  try await ImmichTestServer.withRunning(scenario) { server, url in
    try await body(Harness(server: server, url: url, folder: TemporaryDirectory("cairn-immich")))
  }
}

extension ImmichVersion {
  static let both: [ImmichVersion] = allCases
}

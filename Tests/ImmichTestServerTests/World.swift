import Foundation
import ImmichTestServer

/// The standard cast: Alice (the cairn user), Bob who shares into her timeline, Carol who shares
/// but is hidden from her timeline, and Dave, a stranger. Alice owns one asset of every kind.
struct World {
  var scenario: Scenario
  var alice: Scenario.User
  var bob: Scenario.User
  var carol: Scenario.User
  var dave: Scenario.User
  let aliceKey = "alice-secret"
  /// Alice's key with no permissions at all.
  let bareKey = "alice-bare"
  var newest: Scenario.Asset
  var archived: Scenario.Asset
  var liveStill: Scenario.Asset
  var liveVideo: Scenario.Asset
  var locked: Scenario.Asset
  var trashed: Scenario.Asset
  var oldest: Scenario.Asset
  var bobs: Scenario.Asset
  var carols: Scenario.Asset
  var daves: Scenario.Asset

  static let t0 = Date(timeIntervalSince1970: 1_750_000_000)

  static func hours(_ h: Double) -> Date { t0.addingTimeInterval(h * 3600) }

  init(_ version: ImmichVersion) {
    var s = Scenario(version: version)
    alice =
      s.addUser(
        email: "alice@example.com", password: "alice-pw", name: "Alice", keySecret: aliceKey
      ).user
    s.addKey(for: alice, name: "bare", secret: bareKey, permissions: [])
    bob = s.addUser(email: "bob@example.com", keySecret: "bob-secret").user
    carol = s.addUser(email: "carol@example.com", keySecret: "carol-secret").user
    dave = s.addUser(email: "dave@example.com", keySecret: "dave-secret").user
    s.addPartner(sharing: bob, with: alice, inTimeline: true)
    s.addPartner(sharing: carol, with: alice, inTimeline: false)
    oldest = s.addAsset(owner: alice, fileName: "img_0001.jpg", createdAt: World.hours(1))
    trashed = s.addAsset(
      owner: alice, fileName: "IMG_0002.JPG", createdAt: World.hours(2), trashed: true)
    locked = s.addAsset(
      owner: alice, fileName: "IMG_0003.JPG", visibility: .locked, createdAt: World.hours(3))
    (liveStill, liveVideo) = s.addLivePhoto(
      owner: alice, baseName: "LIVE_0004", createdAt: World.hours(4))
    archived = s.addAsset(
      owner: alice, fileName: "IMG_0005.JPG", visibility: .archive, createdAt: World.hours(5))
    newest = s.addAsset(owner: alice, fileName: "IMG_0006.JPG", createdAt: World.hours(6))
    bobs = s.addAsset(owner: bob, fileName: "BOB_0001.JPG", createdAt: World.hours(7))
    carols = s.addAsset(owner: carol, fileName: "CAROL_0001.JPG", createdAt: World.hours(8))
    daves = s.addAsset(owner: dave, fileName: "DAVE_0001.JPG", createdAt: World.hours(9))
    scenario = s
  }

  /// Runs `body` against a fresh server for this world; the server stops on every path.
  func run(
    _ body: (ImmichTestServer, TestClient) async throws -> Void
  ) async throws {
    try await ImmichTestServer.withRunning(scenario) { server, url in
      try await body(server, TestClient(base: url))
    }
  }
}

/// Runs `body` with a fresh standard world on a server of `version`.
func withWorld(
  _ version: ImmichVersion, _ body: (World, ImmichTestServer, TestClient) async throws -> Void
) async throws {
  let world = World(version)
  try await world.run { server, client in try await body(world, server, client) }
}

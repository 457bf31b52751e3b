import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Trying to make cairn trash what is not the user's, or what it cannot restore: a partner's
/// copy of the same bytes, a locked asset, the hidden half of a Live Photo, a server that
/// suddenly lists nothing.
@Suite(.serialized)
struct AdversarialServerTests {
  @Test(arguments: ImmichVersion.allCases)
  func aPartnersAssetWithTheSameBytesIsNeverSent(_ version: ImmichVersion) async throws {
    let lib = AdversarialLibrary(version: version)
    for name in ["a.jpg", "b.jpg", "c.jpg"] { try lib.photo("Photos/" + name) }
    // Bytes only the partner has on the server; the local file goes too.
    try lib.photo("Photos/only-partner.jpg", onServer: false)
    let partner = lib.scenario.addUser(email: "partner@example.com").user
    lib.scenario.addPartner(sharing: partner, with: lib.me)
    let partnerCopy = lib.scenario.addAsset(
      owner: partner, fileName: "a.jpg",
      checksum: Scenario.checksum(of: AdversarialLibrary.bytes("Photos/a.jpg")))
    let partnerOnly = lib.scenario.addAsset(
      owner: partner, fileName: "only-partner.jpg",
      checksum: Scenario.checksum(of: AdversarialLibrary.bytes("Photos/only-partner.jpg")))
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    try lib.remove("Photos/a.jpg")
    try lib.remove("Photos/only-partner.jpg")
    let mine = try lib.asset("Photos/a.jpg")

    let dry = try await lib.pipeline(["Photos"])
    #expect(dry.candidateIDs() == [mine.id], "\(dry.candidates)")
    let real = try await lib.pipeline(["Photos"])
    #expect(real.status["trash"] == 0, "\(real.stderr)")
    #expect(lib.trashed == [mine.id])
    let server = try lib.running()
    for untouched in [partnerCopy, partnerOnly] {
      #expect(server.state.asset(untouched.id)?.isTrashed == false)
      #expect(server.state.tagIDs(onAsset: untouched.id).isEmpty)
    }
    let deletes = server.log.requests(method: "DELETE", path: "/api/assets")
    #expect(deletes.count == 1)
    let body = try #require(deletes.first?.body)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    let ids = try #require(json["ids"] as? [String])
    #expect(ids == [mine.id])
    #expect(ids.allSatisfy { $0 == $0.lowercased() })
    #expect(json["force"] as? Bool == false)
  }

  @Test func aLockedAssetWithTheDeletedBytesIsNeverTrashed() async throws {
    let lib = AdversarialLibrary()
    try lib.photo("Photos/secret.jpg", visibility: .locked)
    for name in ["a.jpg", "b.jpg"] { try lib.photo("Photos/" + name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    try lib.remove("Photos/secret.jpg")
    try lib.remove("Photos/a.jpg")
    let locked = try lib.asset("Photos/secret.jpg")
    let plain = try lib.asset("Photos/a.jpg")

    let dry = try await lib.pipeline(["Photos"])
    #expect(dry.candidateIDs() == [plain.id])
    let real = try await lib.pipeline(["Photos"])
    #expect(real.status["trash"] == 0, "\(real.stderr)")
    #expect(lib.trashed == [plain.id])
    let server = try lib.running()
    #expect(server.state.asset(locked.id)?.isTrashed == false)
    #expect(server.state.tagIDs(onAsset: locked.id).isEmpty)
    #expect(!server.log.mutating.contains { $0.body.contains(locked.id) })
  }

  /// Immich 2.7: the motion half is `hidden` and trash does not cascade to it.
  @Test func aLivePhotoOnV27LosesBothHalvesTaggedWithTheRun() async throws {
    let lib = AdversarialLibrary(version: .v2_7)
    let video = try #require(try lib.photo("Photos/IMG_7.MOV", type: .video, visibility: .hidden))
    let stillBytes = AdversarialLibrary.bytes("Photos/IMG_7.HEIC")
    try lib.dir.file("Photos/IMG_7.HEIC", contents: stillBytes)
    let still = Scenario.Asset(
      ownerId: lib.me.id, checksum: Scenario.checksum(of: stillBytes),
      originalFileName: "IMG_7.HEIC", livePhotoVideoId: video.id)
    lib.scenario.assets.append(still)
    for name in ["a.jpg", "b.jpg"] { try lib.photo("Photos/" + name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    try lib.remove("Photos/IMG_7.HEIC")
    try lib.remove("Photos/IMG_7.MOV")

    let dry = try await lib.pipeline(["Photos"])
    #expect(dry.candidateIDs("delete").contains(still.id), "\(dry.candidates)")
    #expect(lib.mutations.isEmpty)
    let real = try await lib.pipeline(["Photos"])
    #expect(real.status["trash"] == 0, "\(real.stderr)")
    #expect(lib.trashed == [still.id, video.id])
    let runID = try #require(real.runID)
    for id in [still.id, video.id] {
      #expect(lib.tagValues(id) == ["cairn/v1/run/\(runID)"], "\(id)")
    }
    #expect(real.resultIDs("trashed") == [still.id, video.id])
  }

  @Test(arguments: [false, true])
  func aServerThatSuddenlyListsNothingOfMineIsRefused(_ partnerRemains: Bool) async throws {
    let lib = AdversarialLibrary()
    for index in 0..<8 { try lib.photo("Photos/\(index).jpg") }
    if partnerRemains {
      let partner = lib.scenario.addUser(email: "partner@example.com").user
      lib.scenario.addPartner(sharing: partner, with: lib.me)
      lib.scenario.addAsset(
        owner: partner, fileName: "0.jpg",
        checksum: Scenario.checksum(of: AdversarialLibrary.bytes("Photos/0.jpg")))
    }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    try lib.remove("Photos/7.jpg")
    #expect(try await lib.pipeline(["Photos"]).candidateIDs() == [try lib.asset("Photos/7.jpg").id])

    let server = try lib.running()
    server.state.hardDelete(lib.assets.values.map(\.id))
    server.log.clear()
    let run = try await lib.pipeline(["Photos"])
    #expect(run.status["gate"] == 25, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "cairn-gate: refused by the empty-server rail: the server listed no assets, but the last run matched 8"
      ), "\(run.stderr)")
    #expect(run.results.isEmpty)
    #expect(server.log.mutating.isEmpty)
  }
}

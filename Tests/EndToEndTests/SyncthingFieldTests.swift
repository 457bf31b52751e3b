import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Two real Syncthing instances on loopback: an edit made on the "phone" arrives in the library
/// as Syncthing writes it (a temporary file renamed over the photo, the old version moved to
/// `.stversions`), then the documented pipeline runs on the library.
@Suite(.serialized)
struct SyncthingFieldTests {
  @Test(
    .enabled(
      if: SyncthingPair.isInstalled,
      "syncthing is not installed (scripts/setup.sh installs it from Debian's packages)"),
    arguments: ImmichVersion.allCases)
  func anEditArrivingThroughSyncthingKeepsTheOriginalAndADeletionIsHeld(
    version: ImmichVersion
  ) async throws {
    let f = try await FieldFixture(version: version, versions: ["O", "E1", "B"])
    defer { Task { await f.stop() } }
    let phone = f.dir.path + "/phone"
    try FileManager.default.createDirectory(atPath: phone, withIntermediateDirectories: true)
    try Data(FieldFixture.bytes("O")).write(to: URL(fileURLWithPath: phone + "/a.jpg"))
    try Data(FieldFixture.bytes("B")).write(to: URL(fileURLWithPath: phone + "/b.jpg"))
    let pair = try await SyncthingPair.make(
      base: f.dir.path, phone: phone, library: f.library, env: f.env)
    do {
      try pair.start()
      try await syncThenRunThePipeline(f, phone: phone, pair: pair)
    } catch {
      await pair.stop()
      throw error
    }
    await pair.stop()
  }

  private func syncThenRunThePipeline(_ f: FieldFixture, phone: String, pair: SyncthingPair)
    async throws
  {
    func holds(_ relative: String, _ name: String) -> Bool {
      FileManager.default.contents(atPath: f.library + "/" + relative)
        == Data(FieldFixture.bytes(name))
    }

    let synced = await SyncthingPair.wait(90) { holds("a.jpg", "O") && holds("b.jpg", "B") }
    try #require(synced, "the first sync did not arrive: \(pair.logs)")
    let seed = try await f.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")

    // An edit on the phone, written in place there; Syncthing renames it into the library.
    try Data(FieldFixture.bytes("E1")).write(to: URL(fileURLWithPath: phone + "/a.jpg"))
    try await pair.rescanPhone()
    let edited = await SyncthingPair.wait(90) { holds("a.jpg", "E1") }
    try #require(edited, "the edit did not arrive: \(pair.logs)")
    for _ in 0..<2 {
      let run = try await f.pipeline()
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(f.trashed.isEmpty)
    #expect(try await f.candidates().isEmpty)

    // A deletion on the phone: Syncthing moves the library's copy to .stversions.
    try FileManager.default.removeItem(atPath: phone + "/b.jpg")
    try await pair.rescanPhone()
    let deleted = await SyncthingPair.wait(90) {
      !FileManager.default.fileExists(atPath: f.library + "/b.jpg")
    }
    try #require(deleted, "the deletion did not arrive: \(pair.logs)")
    let versions = try FileManager.default.contentsOfDirectory(atPath: f.library + "/.stversions")
    #expect(versions.contains { $0.hasPrefix("b~") }, "\(versions)")
    for _ in 0..<2 {
      let run = try await f.pipeline()
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(f.trashed.isEmpty)
    #expect(try await f.candidates().mapValues(\.bucket) == ["B": "held"])
  }
}

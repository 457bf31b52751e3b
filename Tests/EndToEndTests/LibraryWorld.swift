import CairnTestSupport
import Foundation
import ImmichTestServer

/// A small real library (files on disk under `Photos/`) whose every photo is also on the Immich
/// test double, with an isolated environment: for tests that run the whole pipeline, real
/// binaries and real pipes, the way a person would.
final class LibraryWorld: @unchecked Sendable {
  let dir = TemporaryDirectory("cairn-world")
  let server: ImmichTestServer
  let names: [String]
  /// Asset ids by file name.
  let ids: [String: String]
  var library: String { dir.path + "/Photos" }
  var extra: [String: String] = [:]

  static func bytes(_ name: String) -> [UInt8] { Array("cairn world bytes of \(name)\n".utf8) }

  /// `photos` plain photos, and for each of `livePhotos` a Live Photo: `NAME.HEIC` and its
  /// motion video `NAME.MOV` in the library, a still and its hidden video on the server.
  init(photos: Int, livePhotos: [String] = []) async throws {
    let plain = (1...photos).map { String(format: "IMG_%04d.JPG", $0) }
    names = plain + livePhotos.flatMap { ["\($0).HEIC", "\($0).MOV"] }
    var scenario = Scenario(version: .v3_1)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    var ids: [String: String] = [:]
    for base in livePhotos {
      let video = Scenario.Asset(
        ownerId: me.id, checksum: Scenario.checksum(of: Self.bytes("\(base).MOV")),
        originalFileName: "\(base).MOV", type: .video, visibility: .hidden, durationMs: 2500)
      let still = Scenario.Asset(
        ownerId: me.id, checksum: Scenario.checksum(of: Self.bytes("\(base).HEIC")),
        originalFileName: "\(base).HEIC", livePhotoVideoId: video.id)
      scenario.assets += [video, still]
      ids["\(base).MOV"] = video.id
      ids["\(base).HEIC"] = still.id
    }
    for name in plain {
      ids[name] =
        scenario.addAsset(
          owner: me, fileName: name, checksum: Scenario.checksum(of: Self.bytes(name))
        )
        .id
    }
    self.ids = ids
    for name in names { try dir.file("Photos/\(name)", contents: Self.bytes(name)) }
    server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    extra = ["IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret]
  }

  func stop() async { await server.stop() }

  var environment: [String: String] { dir.isolatedEnvironment(extra) }

  func shell(_ script: String) async throws -> ToolResult {
    let env = environment
    let directory = dir.path
    return try await ActFixture.offPool {
      try ToolRunner.shell(script, environment: env, workingDirectory: directory)
    }
  }

  /// The first two stages, as a shell pipeline prefix.
  var reconcile: String { "cairn-hash '\(library)' | cairn-reconcile" }

  func delete(_ name: String) throws {
    try FileManager.default.removeItem(atPath: library + "/" + name)
  }

  /// File names of the assets in Immich's trash.
  var trashed: Set<String> {
    let byID = Dictionary(uniqueKeysWithValues: ids.map { ($1, $0) })
    return Set(server.state.trashedAssetIDs.compactMap { byID[$0] })
  }

  /// A first run that records the library and finds nothing gone.
  func seed() async throws -> ToolResult {
    try await shell("\(reconcile) | cairn-gate -q | setsid cairn-trash --yes")
  }
}

import CairnStream
import CairnTestSupport
import Foundation
import ImmichTestServer

/// A library folder changed the way real tools change it, the Immich test double holding every
/// version of its photos (as the mobile app and `immich upload` leave them: an edit is a new
/// asset), and the documented pipeline `cairn-hash LIB | cairn-reconcile | cairn-gate |
/// cairn-trash` run on it through real pipes.
final class FieldFixture: @unchecked Sendable {
  let dir = TemporaryDirectory("cairn-field")
  let server: ImmichTestServer
  /// The server's asset for each version, by the version's name.
  let assets: [String: Scenario.Asset]
  let env: [String: String]
  var library: String { dir.path + "/Photos" }

  /// The bytes of the version called `name`: what a photo holds in these tests.
  static func bytes(_ name: String) -> [UInt8] { Array("field test photo \(name)\n".utf8) }

  /// A server holding one asset per version name (plus one never in the library).
  init(version: ImmichVersion, versions: [String], extraEnvironment: [String: String] = [:])
    async throws
  {
    var scenario = Scenario(version: version)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    var assets: [String: Scenario.Asset] = [:]
    for name in versions {
      assets[name] = scenario.addAsset(
        owner: me, fileName: name + ".jpg", checksum: Scenario.checksum(of: Self.bytes(name)))
    }
    assets["server-only"] = scenario.addAsset(owner: me, fileName: "server-only.jpg")
    self.assets = assets
    server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    var extra = extraEnvironment
    extra["IMMICH_URL"] = url.absoluteString + "/api"
    extra["IMMICH_API_KEY"] = ActFixture.secret
    env = dir.isolatedEnvironment(extra)
    try FileManager.default.createDirectory(
      atPath: library, withIntermediateDirectories: true)
  }

  func stop() async { await server.stop() }

  /// Writes the version `name` at `relative` under the library, in place (the inode stays
  /// when the file exists).
  func write(_ relative: String, _ name: String) throws {
    let path = library + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    if FileManager.default.fileExists(atPath: path) {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: Self.bytes(name))
      try handle.close()
    } else {
      try Data(Self.bytes(name)).write(to: URL(fileURLWithPath: path))
    }
  }

  /// Runs a shell script in the library (mv, rm, rsync, ...), off the cooperative pool that
  /// the other tests need.
  @discardableResult
  func sh(_ script: String) async throws -> ToolResult {
    let result = try await ToolRunner.shellDetached(
      script, environment: env, workingDirectory: library)
    guard result.status == 0 else {
      throw CairnError(.malformedInput, "\(script): \(result.stderr)")
    }
    return result
  }

  /// The documented pipeline over `roots` (the library when none).
  func pipeline(_ roots: [String] = []) async throws -> ToolResult {
    let named = (roots.isEmpty ? [library] : roots).map { "'\($0)'" }.joined(separator: " ")
    return try await ActFixture.offPool { [env, dir] in
      try ToolRunner.shell(
        "cairn-hash \(named) | cairn-reconcile | cairn-gate | setsid cairn-trash --yes",
        environment: env, workingDirectory: dir.path)
    }
  }

  /// `cairn-hash | cairn-reconcile` alone: the candidates' buckets and reasons by version.
  func candidates(_ roots: [String] = []) async throws -> [String: (bucket: String, reason: String)]
  {
    let named = (roots.isEmpty ? [library] : roots).map { "'\($0)'" }.joined(separator: " ")
    let result = try await ActFixture.offPool { [env, dir] in
      try ToolRunner.shell(
        "cairn-hash \(named) | cairn-reconcile", environment: env, workingDirectory: dir.path)
    }
    guard result.status == 0 else { throw CairnError(.malformedInput, result.stderr) }
    var found: [String: (bucket: String, reason: String)] = [:]
    for record in try result.records(ofType: "candidate") {
      guard let id = record["assetId"] as? String, let name = version(ofAsset: id) else {
        continue
      }
      found[name] = (record["bucket"] as? String ?? "", record["reason"] as? String ?? "")
    }
    return found
  }

  /// Seeds the store, applies `change`, then runs the pipeline twice (the first run with
  /// candidates on a partition is always a dry run): the versions trashed on the server.
  func trashedAfter(_ roots: [String] = [], _ change: () async throws -> Void) async throws
    -> Set<String>
  {
    let seed = try await pipeline(roots)
    guard seed.status == 0 else { throw CairnError(.malformedInput, "seed: \(seed.stderr)") }
    try await change()
    for _ in 0..<2 {
      let run = try await pipeline(roots)
      guard run.status == 0 else { throw CairnError(.malformedInput, run.stderr) }
    }
    return trashed
  }

  /// The versions whose assets are in the server's trash.
  var trashed: Set<String> {
    Set(server.state.trashedAssetIDs.compactMap { version(ofAsset: $0) })
  }

  func version(ofAsset id: String) -> String? {
    assets.first { $0.value.id.lowercased() == id.lowercased() }?.key
  }
}

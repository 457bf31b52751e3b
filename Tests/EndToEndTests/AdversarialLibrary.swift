import CairnTestSupport
import Foundation
import ImmichTestServer

/// A real library folder and an Immich test double whose assets carry the checksums of those
/// files, for the adversarial tests: every run is the user's own pipeline through real pipes,
/// `cairn-hash ROOTS | cairn-reconcile | cairn-gate | cairn-trash`, with each stage's exit status
/// and the candidates cairn-reconcile proposed kept aside for the assertions.
final class AdversarialLibrary: @unchecked Sendable {
  static let secret = "cairn-adversarial-KEY-d41c9e07b2aa4f58"

  let dir = TemporaryDirectory("cairn-adv")
  var scenario: Scenario
  let me: Scenario.User
  private(set) var server: ImmichTestServer?
  private(set) var apiBase = ""
  /// Assets by the library-relative path whose bytes they hold.
  private(set) var assets: [String: Scenario.Asset] = [:]

  init(version: ImmichVersion = .v3_1) {
    scenario = Scenario(version: version)
    me = scenario.addUser(email: "me@example.com", keySecret: Self.secret).user
  }

  /// The bytes a library file gets, distinct per relative path unless told otherwise.
  static func bytes(_ label: String) -> [UInt8] { Array("adversarial bytes of \(label)\n".utf8) }

  /// `dir/relative`.
  func path(_ relative: String) -> String { dir.path + "/" + relative }

  /// Writes a library file (its bytes derive from `label`, by default its own path) and, unless
  /// `onServer` is false, gives the server an asset of mine with the same checksum.
  @discardableResult
  func photo(
    _ relative: String, label: String? = nil, onServer: Bool = true,
    type: AssetType = .image, visibility: AssetVisibility = .timeline
  ) throws -> Scenario.Asset? {
    let bytes = Self.bytes(label ?? relative)
    try dir.file(relative, contents: bytes)
    guard onServer else { return nil }
    let asset = scenario.addAsset(
      owner: me, fileName: (relative as NSString).lastPathComponent, type: type,
      visibility: visibility, checksum: Scenario.checksum(of: bytes))
    assets[relative] = asset
    return asset
  }

  func asset(_ relative: String) throws -> Scenario.Asset {
    guard let asset = assets[relative] else { throw ToolRunner.Failure("no asset for \(relative)") }
    return asset
  }

  func start() async throws {
    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    self.server = server
    apiBase = url.absoluteString + "/api"
  }

  func stop() async { await server?.stop() }

  func running() throws -> ImmichTestServer {
    guard let server else { throw ToolRunner.Failure("the test server is not running") }
    return server
  }

  var environment: [String: String] {
    dir.isolatedEnvironment([
      "IMMICH_URL": apiBase, "IMMICH_API_KEY": Self.secret, "CAIRN_HTTP_ATTEMPTS": "1",
      "CAIRN_HTTP_TIMEOUT": "60",
    ])
  }

  /// A shell script in the library's folder, off Swift's cooperative pool.
  func shell(_ script: String, environment: [String: String]? = nil) async throws -> ToolResult {
    let env = environment ?? self.environment
    let directory = dir.path
    return try await ActFixture.offPool {
      try ToolRunner.shell(script, environment: env, workingDirectory: directory)
    }
  }

  func remove(_ relative: String) throws {
    try FileManager.default.removeItem(atPath: path(relative))
  }

  func move(_ from: String, _ to: String) throws {
    let target = path(to)
    try FileManager.default.createDirectory(
      atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: path(from), toPath: target)
  }

  // MARK: The pipeline

  /// What one run of the whole pipeline did.
  struct Run {
    let result: ToolResult
    /// Exit status per stage: hash, reconcile, gate, trash (nil when the stage never ran).
    let status: [String: Int32]
    /// The candidate records cairn-reconcile wrote (all buckets).
    let candidates: [[String: Any]]
    /// cairn-trash's result records.
    var results: [[String: Any]] { (try? result.records(ofType: "result")) ?? [] }
    var stderr: String { result.stderr }

    func candidateIDs(_ bucket: String? = nil) -> Set<String> {
      Set(
        candidates.filter { bucket == nil || $0["bucket"] as? String == bucket }
          .compactMap { $0["assetId"] as? String })
    }

    func resultIDs(_ action: String) -> Set<String> {
      Set(
        results.filter { $0["action"] as? String == action }.compactMap { $0["assetId"] as? String }
      )
    }

    var runID: String? {
      (try? result.records(ofType: "end"))?.last?["runId"] as? String
    }
  }

  private var runCount = 0

  /// `cairn-hash ROOTS | cairn-reconcile | cairn-gate | cairn-trash` with the roots relative to
  /// the test folder. `hashFilter` goes between cairn-hash and cairn-reconcile (e.g. `head -n 3`).
  func pipeline(
    _ roots: [String], reconcile: String = "", gate: String = "", trash: String = "--yes",
    hashFilter: String? = nil, verbose: Bool = false, environment: [String: String]? = nil
  ) async throws -> Run {
    runCount += 1
    let scratch = dir.path + "/runs/\(runCount)"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let v = verbose ? " -v" : ""
    let rootArguments = roots.map { "'\(path($0))'" }.joined(separator: " ")
    let filter = hashFilter.map { " | \($0)" } ?? ""
    // Each stage records its own status: sh has no pipefail, and the last stage's status alone
    // can't tell which stage refused.
    let script = """
      { cairn-hash\(v) \(rootArguments); echo $? > '\(scratch)/hash'; }\(filter) \
      | { cairn-reconcile\(v) \(reconcile); echo $? > '\(scratch)/reconcile'; } \
      | tee '\(scratch)/candidates.ndjson' \
      | { cairn-gate\(v) \(gate); echo $? > '\(scratch)/gate'; } \
      | { setsid cairn-trash\(v) \(trash); echo $? > '\(scratch)/trash'; }
      """
    let result = try await shell(script, environment: environment)
    var status: [String: Int32] = [:]
    for stage in ["hash", "reconcile", "gate", "trash"] {
      if let text = try? String(contentsOfFile: scratch + "/" + stage, encoding: .utf8),
        let value = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        status[stage] = value
      }
    }
    let reconciled =
      (try? String(contentsOfFile: scratch + "/candidates.ndjson", encoding: .utf8)) ?? ""
    var candidates: [[String: Any]] = []
    for line in reconciled.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      if let object, object["type"] as? String == "candidate" { candidates.append(object) }
    }
    return Run(result: result, status: status, candidates: candidates)
  }

  /// The mutating requests the server answered, and the trashed asset ids.
  var mutations: [RecordedRequest] { server?.log.mutating ?? [] }
  var trashed: Set<String> { server?.state.trashedAssetIDs ?? [] }

  /// The values of the tags on an asset.
  func tagValues(_ id: String) -> Set<String> {
    guard let server else { return [] }
    let tags = server.state.tags
    return Set(
      server.state.tagIDs(onAsset: id).compactMap { tag in
        tags.first { $0.id == tag }?.value
      })
  }
}

import CairnEngine
import CairnRecords
import CairnRuns
import CairnSettings
import CairnState
import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer

/// A running Immich test double with one user ("me"), a partner who shares into my timeline,
/// a Live Photo, and plain photos; plus an isolated environment whose API key is distinctive,
/// so a test can look for it in everything cairn writes.
final class ActFixture: @unchecked Sendable {
  static let secret = "cairn-e2e-KEY-7f3a9e51c2d84b60"

  let dir = TemporaryDirectory("cairn-act")
  let server: ImmichTestServer
  let apiBase: String
  let me: Scenario.User
  let live: (still: Scenario.Asset, video: Scenario.Asset)
  let photos: [Scenario.Asset]
  let partnerPhoto: Scenario.Asset
  let neverLocal: Scenario.Asset

  var environment: [String: String] {
    dir.isolatedEnvironment([
      "IMMICH_URL": apiBase, "IMMICH_API_KEY": Self.secret, "CAIRN_HTTP_ATTEMPTS": "1",
      "CAIRN_HTTP_TIMEOUT": "60", "CAIRN_SETTLE_WAIT": "8",
    ])
  }

  init(
    version: ImmichVersion = .v3_1, photoCount: Int = 4, trashEnabled: Bool = true,
    permissions: [String] = [Permission.all]
  ) async throws {
    var scenario = Scenario(version: version, trashEnabled: trashEnabled)
    let (me, _) = scenario.addUser(
      email: "me@example.com", keySecret: Self.secret, permissions: permissions)
    let (partner, _) = scenario.addUser(email: "partner@example.com")
    scenario.addPartner(sharing: partner, with: me)
    let created = Date(timeIntervalSince1970: 1_700_000_000)
    live = scenario.addLivePhoto(owner: me, baseName: "IMG_0001", createdAt: created)
    photos = (0..<photoCount).map {
      scenario.addAsset(
        owner: me, fileName: String(format: "IMG_%04d.JPG", 100 + $0),
        createdAt: created.addingTimeInterval(Double($0) * 60))
    }
    // The partner holds the very same bytes as one of my photos.
    partnerPhoto = scenario.addAsset(
      owner: partner, fileName: "PARTNER.JPG", createdAt: created, checksum: photos[0].checksum)
    neverLocal = scenario.addAsset(owner: me, fileName: "NEVER_LOCAL.JPG", createdAt: created)
    self.me = me
    server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    apiBase = url.absoluteString + "/api"
  }

  func stop() async { await server.stop() }

  // MARK: Streams

  func candidate(_ asset: Scenario.Asset, _ bucket: Bucket = .delete, owner: String? = nil)
    -> CandidateRecord
  {
    CandidateRecord(
      assetId: asset.id, checksum: asset.checksum, bucket: bucket, reason: "gone",
      detail: "gone from /photos", paths: ["/photos/\(asset.originalFileName)"],
      originalFileName: asset.originalFileName, assetType: asset.type.rawValue,
      visibility: asset.visibility.rawValue, ownerId: owner ?? asset.ownerId,
      fileCreatedAt: asset.fileCreatedAt, livePhotoVideoId: asset.livePhotoVideoId,
      // As cairn-reconcile finds it in the listing: without it no video is ever sent.
      livePhotoVideoChecksum: asset.livePhotoVideoId.flatMap { server.state.asset($0)?.checksum })
  }

  /// A reconcile-like stream: header naming this server and user, the candidates, an end record.
  ///
  /// The fixture plays cairn-reconcile in the state too (`reconciled`): a scan of /photos
  /// holding all my photos is recorded once, then one without the candidates' files, and the
  /// candidates are recorded as proposed from it, with `matched` and `serverAssets`; the header
  /// names that scan. With `reconciled: false` the stream names the latest scan but the state
  /// is left alone, as for a plan written by hand.
  func reconcileStream(
    _ candidates: [CandidateRecord], matched: Int = 1000, serverAssets: Int = 1000,
    roots: [RootStatus] = [RootStatus(path: "/photos", complete: true, files: 900)],
    errors: [ErrorRecord] = [], end: Bool = true, complete: Bool = true, reconciled: Bool = true
  ) throws -> String {
    let scan =
      reconciled
      ? try recordReconciliation(candidates, matched: matched, serverAssets: serverAssets)
      : try latestScan()
    var lines = [
      HeaderRecord(
        tool: "cairn-reconcile", pipeline: ["cairn-hash"], roots: ["/photos"],
        server: ServerIdentity(url: apiBase, userId: me.id), scan: scan
      ).jsonString()
    ]
    lines += candidates.map { $0.jsonString() }
    lines += errors.map { $0.jsonString() }
    if end {
      lines.append(
        EndRecord(
          tool: "cairn-reconcile", complete: complete, errors: errors.count,
          counts: [
            "matched": matched, "serverAssets": serverAssets, "candidates": candidates.count,
          ],
          roots: roots,
          records: StreamCounts.of(candidates: candidates.count, errors: errors.count)
        ).jsonString())
    }
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: State

  var partition: ServerPartition { ServerPartition(serverURL: apiBase, userId: me.id) }

  /// Opens the partition's state (and its lock) for `body`.
  func withState<T>(_ body: (PartitionStore) throws -> T) throws -> T {
    let store = try PartitionStore.open(partition, paths: CairnPaths(environment: environment))
    defer { store.close() }
    return try body(store)
  }

  /// My assets as files under /photos (the Live Photo's two halves included).
  var libraryFiles: [ScannedFile] {
    ([live.still, live.video] + photos).enumerated().map { index, asset in
      ScannedFile(
        root: "/photos", path: "/photos/\(asset.originalFileName)", checksum: asset.checksum,
        identity: FileIdentity(key: "1:\(index + 1)"))
    }
  }

  /// Records a scan of /photos holding my files but those of `gone`; returns its scan id.
  @discardableResult
  func recordScan(without gone: Set<String>) throws -> String? {
    try withState { store in
      if try store.observed.count() == 0 {
        try store.recordScan(
          ScanFiles(libraryFiles), completeRoots: ["/photos"], at: Date().addingTimeInterval(-60))
      }
      try store.recordScan(
        ScanFiles(libraryFiles.filter { !gone.contains($0.checksum) }),
        completeRoots: ["/photos"], at: Date())
      return try store.binding.latestScan()
    }
  }

  /// What cairn-reconcile leaves in the state for `candidates`: the scan they are gone from
  /// (a Live Photo's video goes with its still), and the proposals.
  func recordReconciliation(_ candidates: [CandidateRecord], matched: Int, serverAssets: Int)
    throws -> String?
  {
    var gone = Set(candidates.map(\.checksum))
    if candidates.contains(where: { $0.assetId == live.still.id }) {
      gone.insert(live.video.checksum)
    }
    let scan = try recordScan(without: gone)
    try withState { store in
      if let scan {
        try store.binding.recordReconciliation(
          scan: scan, matched: matched, serverAssets: serverAssets, candidates: candidates)
      }
    }
    return scan
  }

  func latestScan() throws -> String? { try withState { try $0.binding.latestScan() } }

  /// Writes `text` to a file in the test folder and returns its path.
  func write(_ name: String, _ text: String) throws -> String {
    try dir.file(name, text)
  }

  /// Runs a shell script off Swift's cooperative pool: a test blocked waiting for a child
  /// process would hold one of its two threads (2 cores) from every other test.
  func shell(_ script: String, stdin: String? = nil, extra: [String: String] = [:]) async throws
    -> ToolResult
  {
    var merged = environment
    for (k, v) in extra { merged[k] = v }
    let env = merged
    let directory = dir.path
    return try await Self.offPool {
      try ToolRunner.shell(script, stdin: stdin, environment: env, workingDirectory: directory)
    }
  }

  static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await offCooperativePool(body)
  }

  /// `cairn-gate | cairn-trash` on a reconcile stream.
  /// `cairn-gate | cairn-trash` on a reconcile stream; setsid leaves cairn-trash without a
  /// controlling terminal, as under cron or CI, so `/dev/tty` can't be opened.
  func gateAndTrash(_ stream: String, gate: String = "", trash: String = "--yes") async throws
    -> ToolResult
  {
    let input = try write("reconcile-\(UUID().uuidString).ndjson", stream)
    return try await shell("cairn-gate -q \(gate) < '\(input)' | setsid cairn-trash \(trash)")
  }

  var journalPath: String {
    Journal.path(
      CairnPaths(environment: environment), ServerPartition(serverURL: apiBase, userId: me.id))
  }

  func journal() throws -> JournalContents { try Journal(path: journalPath).read() }

  var mutations: [RecordedRequest] { server.log.mutating }

  func isTrashed(_ asset: Scenario.Asset) -> Bool {
    server.state.asset(asset.id)?.isTrashed ?? false
  }

  /// The values of the tags on an asset.
  func tagValues(_ asset: Scenario.Asset) -> Set<String> {
    let tags = server.state.tags
    return Set(
      server.state.tagIDs(onAsset: asset.id).compactMap { id in
        tags.first { $0.id == id }?.value
      })
  }
}

/// The `records` counts of a stream of candidates and error records, as a writer states them.
enum StreamCounts {
  static func of(candidates: Int, errors: Int) -> [String: Int] {
    var counts: [String: Int] = [:]
    if candidates > 0 { counts[CandidateRecord.recordType] = candidates }
    if errors > 0 { counts[ErrorRecord.recordType] = errors }
    return counts
  }
}

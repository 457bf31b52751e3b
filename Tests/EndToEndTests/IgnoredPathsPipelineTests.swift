import CairnRecords
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// `CAIRN_IGNORE_PATHS` through the built binaries against the double: a folder earlier runs
/// scanned, once ignored, never makes a candidate while a real deletion elsewhere is still
/// trashed; an ignored folder is never walked, so a file in it that would fail the scan does
/// not.
@Suite(.serialized)
struct IgnoredPathsPipelineTests {
  static let names = [
    "a.jpg", "b.jpg", "c.jpg", "d.jpg", "WhatsApp/w1.jpg", "WhatsApp/w2.jpg",
    "2024/Screenshots/s.png",
  ]

  static func bytes(_ name: String) -> [UInt8] { Array("cairn ignore bytes of \(name)\n".utf8) }

  final class Library: @unchecked Sendable {
    let dir = TemporaryDirectory("cairn-ignore")
    var server: ImmichTestServer
    var env: [String: String] = [:]
    var ids: [String: String] = [:]
    var library: String { dir.path + "/Photos" }

    init(version: ImmichVersion) async throws {
      for name in IgnoredPathsPipelineTests.names {
        try dir.file("Photos/\(name)", contents: IgnoredPathsPipelineTests.bytes(name))
      }
      var scenario = Scenario(version: version)
      let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
      for name in IgnoredPathsPipelineTests.names {
        ids[name] =
          scenario.addAsset(
            owner: me, fileName: (name as NSString).lastPathComponent,
            checksum: Scenario.checksum(of: IgnoredPathsPipelineTests.bytes(name))
          ).id
      }
      server = ImmichTestServer(scenario: scenario)
      let url = try await server.start()
      env = dir.isolatedEnvironment([
        "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
      ])
    }

    func run(_ script: String, _ extra: [String: String] = [:]) async throws -> ToolResult {
      let env = self.env.merging(extra) { $1 }
      let directory = dir.path
      return try await ActFixture.offPool {
        try ToolRunner.shell(script, environment: env, workingDirectory: directory)
      }
    }

    func trashed(_ name: String) -> Bool {
      server.state.asset(ids[name] ?? "")?.isTrashed ?? false
    }
  }

  @Test(arguments: [ImmichVersion.v2_7, .v3_1])
  func anIgnoredFolderScannedBeforeIsNeverJudgedGone(_ version: ImmichVersion) async throws {
    let f = try await Library(version: version)
    defer { Task { await f.server.stop() } }
    let pipeline =
      "cairn-hash '\(f.library)' | cairn-reconcile | cairn-gate | setsid cairn-trash --yes"
    let seed = try await f.run(pipeline)
    #expect(seed.status == 0, "\(seed.stderr)")

    let ignore = ["CAIRN_IGNORE_PATHS": "WhatsApp/:**/Screenshots/**"]
    try FileManager.default.removeItem(atPath: f.library + "/a.jpg")
    // Ignored by the scan, and by the stage that judges (each by its own configuration).
    for script in [
      "cairn-hash '\(f.library)' | env -u CAIRN_IGNORE_PATHS cairn-reconcile",
      "env -u CAIRN_IGNORE_PATHS cairn-hash '\(f.library)' | cairn-reconcile",
    ] {
      let reconciled = try await f.run(script, ignore)
      #expect(reconciled.status == 0, "\(reconciled.stderr)")
      let candidates = try reconciled.records(ofType: "candidate")
      #expect(candidates.compactMap { $0["originalFileName"] as? String } == ["a.jpg"])
    }
    // The first run with something to trash is a dry run; the second trashes a.jpg alone.
    for _ in 0..<2 {
      let run = try await f.run(pipeline, ignore)
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(f.trashed("a.jpg"))
    for name in ["WhatsApp/w1.jpg", "WhatsApp/w2.jpg", "2024/Screenshots/s.png", "b.jpg"] {
      #expect(!f.trashed(name), "\(name)")
    }
  }

  @Test func cairnTrashRefusesWhatItsOwnConfigurationIgnores() async throws {
    let f = try await Library(version: .v3_1)
    defer { Task { await f.server.stop() } }
    let pipeline =
      "cairn-hash '\(f.library)' | cairn-reconcile | cairn-gate | setsid cairn-trash --yes"
    #expect(try await f.run(pipeline).status == 0)
    try FileManager.default.removeItem(atPath: f.library + "/WhatsApp/w1.jpg")
    // Every stage before the trash was run without the setting: only cairn-trash has it.
    let unset = "env -u CAIRN_IGNORE_PATHS"
    let staged =
      "\(unset) cairn-hash '\(f.library)' | \(unset) cairn-reconcile | \(unset) cairn-gate "
      + "| setsid cairn-trash --yes"
    let before = f.server.log.mutating.count
    let refused = try await f.run(staged, ["CAIRN_IGNORE_PATHS": "WhatsApp/"])
    #expect(refused.status == 25, "\(refused.stderr)")
    #expect(refused.stderr.contains("CAIRN_IGNORE_PATHS leaves out of scope"))
    #expect(f.server.log.mutating.count == before)
    #expect(!f.trashed("WhatsApp/w1.jpg"))
  }

  @Test func anIgnoredFolderIsNeverWalked() async throws {
    let f = try await Library(version: .v3_2)
    defer { Task { await f.server.stop() } }
    // A name that is not UTF-8 cannot be a record's path: the scan fails on it.
    let broken = try await f.run(
      "mkdir -p Photos/Broken && : > \"Photos/Broken/$(printf 'x\\377.jpg')\" "
        + "&& cairn-hash '\(f.library)'")
    #expect(broken.status != 0)
    let failing = try broken.records(ofType: "end").first
    #expect(failing?["complete"] as? Bool == false)

    let ignored = try await f.run(
      "cairn-hash '\(f.library)'", ["CAIRN_IGNORE_PATHS": "Broken/:WhatsApp/"])
    #expect(ignored.status == 0, "\(ignored.stderr)")
    let end = try #require(try ignored.records(ofType: "end").first)
    #expect(end["complete"] as? Bool == true)
    let roots = try #require(end["roots"] as? [[String: Any]])
    #expect(roots.first?["ignored"] as? [String] == ["Broken/", "WhatsApp/"])
    let paths = try ignored.records(ofType: "file").compactMap { $0["path"] as? String }
    #expect(paths.count == 5)
    #expect(!paths.contains { $0.contains("/WhatsApp/") || $0.contains("/Broken/") })
  }
}

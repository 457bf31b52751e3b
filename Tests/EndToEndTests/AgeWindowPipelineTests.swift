import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The age window through the built binaries against the double: with
/// `CAIRN_MAX_AGE_DAYS=30`, a photo taken a day inside the window goes when deleted locally,
/// one taken a day outside it stays (`kept`, `age-window`), the gate's preview counts it, and
/// an explicit `cairn-gate --approve ID` trashes it through every rail. (The exact boundary,
/// N days against N days and a second, is the engine's, with its fixed clock:
/// `AgeWindowTests`.)
@Suite(.serialized)
struct AgeWindowPipelineTests {
  static let names = ["recent.jpg", "old.jpg", "a.jpg", "b.jpg", "c.jpg", "d.jpg"]

  static func bytes(_ name: String) -> [UInt8] { Array("cairn age bytes of \(name)\n".utf8) }

  @Test(arguments: [ImmichVersion.v2_7, .v3_2, .v3_3])
  func anOldPhotoStaysUnlessApproved(_ version: ImmichVersion) async throws {
    let dir = TemporaryDirectory("cairn-age")
    let library = dir.path + "/Photos"
    for name in Self.names { try dir.file("Photos/\(name)", contents: Self.bytes(name)) }
    var scenario = Scenario(version: version)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    var ids: [String: String] = [:]
    let day: TimeInterval = 86_400
    for name in Self.names {
      let taken: Date =
        switch name {
        case "old.jpg": Date().addingTimeInterval(-31 * day)
        case "recent.jpg": Date().addingTimeInterval(-29 * day)
        default: Date()
        }
      ids[name] =
        scenario.addAsset(
          owner: me, fileName: name, createdAt: taken,
          checksum: Scenario.checksum(of: Self.bytes(name))
        ).id
    }
    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    defer { Task { await server.stop() } }
    let env = dir.isolatedEnvironment([
      "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
      "CAIRN_MAX_AGE_DAYS": "30",
    ])
    func pipeline(gate: String = "") async throws -> ToolResult {
      let script =
        "cairn-hash '\(library)' | cairn-reconcile | cairn-gate \(gate) | setsid cairn-trash --yes"
      let directory = dir.path
      return try await ActFixture.offPool {
        try ToolRunner.shell(script, environment: env, workingDirectory: directory)
      }
    }
    func trashed(_ name: String) -> Bool { server.state.asset(ids[name] ?? "")?.isTrashed ?? false }

    let seed = try await pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    for name in ["recent.jpg", "old.jpg"] {
      try FileManager.default.removeItem(atPath: library + "/" + name)
    }
    // The first run with something to trash is a dry run; the second trashes.
    let dry = try await pipeline()
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("1 kept by the age window"), "\(dry.stderr)")
    #expect(dry.stderr.contains("kept by the age window (taken longer ago"))
    let real = try await pipeline()
    #expect(real.status == 0, "\(real.stderr)")
    #expect(trashed("recent.jpg"))
    #expect(!trashed("old.jpg"))
    let trashRequests = server.log.requests(method: "DELETE", path: "/api/assets").map(\.body)
    #expect(trashRequests.allSatisfy { !$0.contains(ids["old.jpg"] ?? "-") })

    // Kept is not pending: nothing waits for review, and all-pending does not reach it.
    let stillKept = try await pipeline(gate: "--approve all-pending")
    #expect(stillKept.status == 0, "\(stillKept.stderr)")
    #expect(!trashed("old.jpg"))

    let approved = try await pipeline(gate: "--approve \(ids["old.jpg"] ?? "")")
    #expect(approved.status == 0, "\(approved.stderr)")
    #expect(trashed("old.jpg"))
    #expect(!trashed("a.jpg"))
  }
}

import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The README's pipeline exits with the status of the stage that stopped it, so a cron job or
/// a timer can tell a refusal (25) from malformed input (65) from a server failure (69): each
/// failed stage ends its output with an abort record, and each later stage passes it on.
@Suite(.serialized)
struct PipelineStatusTests {
  /// A library of six photos, each also on the server, and the environment to reach it.
  final class Library: @unchecked Sendable {
    let dir = TemporaryDirectory("cairn-status")
    let server: ImmichTestServer
    let environment: [String: String]
    var photos: String { dir.path + "/Photos" }
    static let names = (1...6).map { String(format: "IMG_%04d.JPG", $0) }

    init() async throws {
      var scenario = Scenario(version: .v3_1)
      let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
      for name in Self.names {
        let bytes = Array("cairn status test bytes of \(name)\n".utf8)
        try dir.file("Photos/\(name)", contents: bytes)
        _ = scenario.addAsset(owner: me, fileName: name, checksum: Scenario.checksum(of: bytes))
      }
      server = ImmichTestServer(scenario: scenario)
      let url = try await server.start()
      environment = dir.isolatedEnvironment([
        "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
        "CAIRN_HTTP_ATTEMPTS": "1",
      ])
    }

    func stop() async { await server.stop() }

    /// `script` in the library's folder and environment, off the cooperative pool.
    func shell(_ script: String, extra: [String: String] = [:]) async throws -> ToolResult {
      let env = environment.merging(extra) { $1 }
      let directory = dir.path
      return try await ActFixture.offPool {
        try ToolRunner.shell(script, environment: env, workingDirectory: directory)
      }
    }

    /// The README's cron line, with `filter` between cairn-hash and cairn-reconcile.
    func pipeline(filter: String = "", quiet: Bool = false) async throws -> ToolResult {
      let q = quiet ? " -q" : ""
      return try await shell(
        "cairn-hash '\(photos)'\(filter) | cairn-reconcile\(q) | cairn-gate\(q) "
          + "| setsid cairn-trash\(q) --yes")
    }

    /// The first run, which only records what is there.
    func seed() async throws {
      let seeded = try await pipeline()
      #expect(seeded.status == 0, "\(seeded.stderr)")
      #expect(server.log.mutating.isEmpty)
    }
  }

  @Test func aRefusingGateGivesThePipeline25() async throws {
    let lib = try await Library()
    defer { Task { await lib.stop() } }
    try await lib.seed()
    // Five of six gone: over the threshold, so the gate refuses.
    for name in Library.names.dropFirst() {
      try FileManager.default.removeItem(atPath: lib.photos + "/" + name)
    }
    let refused = try await lib.pipeline()
    #expect(refused.status == 25, "\(refused.stderr)")
    #expect(refused.stderr.contains("cairn-gate: refused by the threshold rail"))
    #expect(refused.stderr.contains("cairn-trash: <stdin>:"))
    #expect(refused.stderr.contains("stopped: cairn-gate failed (exit status 25)"))
    #expect(lib.server.log.mutating.isEmpty)
    let abort = try #require(refused.onlyAbort)
    #expect(abort["tool"] as? String == "cairn-gate")
    #expect(abort["status"] as? Int == 25)
    #expect(abort["via"] as? [String] == ["cairn-trash"])
    #expect((abort["message"] as? String)?.contains("threshold rail") == true)

    // Quiet, as the README's cron line runs it: the refusal is the one line on stderr.
    let quiet = try await lib.pipeline(quiet: true)
    #expect(quiet.status == 25)
    let lines = quiet.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(quiet.stderr)")
    #expect(lines.first?.hasPrefix("cairn-gate: refused by the threshold rail") == true)
    #expect(lib.server.log.mutating.isEmpty)
  }

  @Test func aScanThatLostALineGivesThePipeline65AndRecordsNothing() async throws {
    let lib = try await Library()
    defer { Task { await lib.stop() } }
    try await lib.seed()
    // A stray filter in a script drops one file's line: that is not a deletion.
    let lost = try await lib.pipeline(filter: " | grep -v IMG_0003")
    #expect(lost.status == 65, "\(lost.stderr)")
    #expect(
      lost.stderr.contains(
        "cairn-reconcile: <stdin>:7: the end record counts 6 'file' record(s), but the stream "
          + "carried 5"), "\(lost.stderr)")
    #expect(lost.onlyAbort?["tool"] as? String == "cairn-reconcile")
    #expect(lost.onlyAbort?["via"] as? [String] == ["cairn-gate", "cairn-trash"])
    #expect(lib.server.log.mutating.isEmpty)
    // Nothing was recorded: the next honest scan finds nothing gone.
    let next = try await lib.shell("cairn-hash '\(lib.photos)' | cairn-reconcile")
    #expect(next.status == 0, "\(next.stderr)")
    #expect(try next.records(ofType: "candidate").isEmpty)
  }

  @Test func aMalformedScanGivesThePipeline65() async throws {
    let lib = try await Library()
    defer { Task { await lib.stop() } }
    try await lib.seed()
    // A key written twice in one record.
    let result = try await lib.pipeline(filter: #" | sed '2s/^{/{"size":1,/'"#)
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains("duplicate field name"))
    #expect(lib.server.log.mutating.isEmpty)
  }

  @Test func anUnreachableServerGivesThePipeline69() async throws {
    let lib = try await Library()
    defer { Task { await lib.stop() } }
    // A port nothing listens on.
    let result = try await lib.shell(
      "cairn-hash '\(lib.photos)' | cairn-reconcile | cairn-gate | setsid cairn-trash --yes",
      extra: ["IMMICH_URL": "http://127.0.0.1:1/api"])
    #expect(result.status == 69, "\(result.stderr)")
    #expect(result.onlyAbort?["status"] as? Int == 69)
    #expect(!result.stderr.contains(ActFixture.secret))
    #expect(!result.stdout.contains(ActFixture.secret))
  }

  /// A stage called wrongly says so on stderr and writes only an abort record: the pipeline
  /// ends 64, whichever stage it was, and nothing downstream acts or is recorded.
  @Test func aUsageErrorUpstreamGivesThePipeline64() async throws {
    let lib = try await Library()
    defer { Task { await lib.stop() } }
    try await lib.seed()
    let photos = "'\(lib.photos)'"
    for (pipeline, failing) in [
      ("cairn-hash --bogus \(photos) | cairn-reconcile | cairn-gate", "cairn-hash"),
      ("cairn-hash \(photos) | cairn-reconcile --no-such-flag | cairn-gate", "cairn-reconcile"),
      // The threshold is cairn-gate's: given upstream, it stops the pipeline instead of being
      // carried along unapplied.
      (
        "cairn-hash \(photos) | cairn-reconcile --threshold 50 | cairn-gate | setsid cairn-trash --yes",
        "cairn-reconcile"
      ),
      (
        "cairn-hash -v -q \(photos) | cairn-reconcile | cairn-gate | setsid cairn-trash --yes",
        "cairn-hash"
      ),
      (
        "cairn-hash \(photos) | cairn-reconcile | cairn-gate --override-threshold nothex | setsid cairn-trash --yes",
        "cairn-gate"
      ),
    ] {
      let result = try await lib.shell(pipeline)
      #expect(result.status == 64, "\(pipeline): \(result.stderr)")
      #expect(result.onlyAbort?["tool"] as? String == failing, "\(pipeline): \(result.stdout)")
      #expect(result.onlyAbort?["status"] as? Int == 64)
      #expect(!result.stderr.contains("malformed"), "\(pipeline): \(result.stderr)")
    }
    // `--help` is no failure: no abort record, even into a pipe.
    let help = try await lib.shell("cairn-hash --help | cat")
    #expect(help.status == 0)
    #expect(!help.stdout.contains(#""type":"abort""#))
    #expect(lib.server.log.mutating.isEmpty)
  }

  @Test func anAbortRecordAloneStopsEveryStageWithItsStatus() async throws {
    let lib = try await Library()
    defer { Task { await lib.stop() } }
    let abort =
      #"{"type":"abort","tool":"cairn-hash","status":74,"message":"the hash cache is unwritable"}"#
    for stage in [
      "cairn-reconcile", "cairn-observe record", "cairn-gate", "setsid cairn-trash --yes",
      "cairn-restore", "cairn-tag --add t",
    ] {
      let result = try await lib.shell("printf '%s\\n' '\(abort)' | \(stage)")
      #expect(result.status == 74, "\(stage): \(result.stderr)")
      let name = String(stage.split(separator: " ").first { $0.hasPrefix("cairn-") } ?? "")
      #expect(result.onlyAbort?["via"] as? [String] == [name], "\(stage): \(result.stdout)")
      #expect(result.onlyAbort?["tool"] as? String == "cairn-hash")
    }
    #expect(lib.server.log.mutating.isEmpty)
    // Nothing was recorded either.
    #expect(!FileManager.default.fileExists(atPath: lib.dir.path + "/state/cairn/servers"))
  }
}

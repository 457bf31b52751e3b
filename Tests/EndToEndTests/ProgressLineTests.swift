import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Progress on a terminal, silence in a pipe: the real binaries, once with a pseudo-terminal as
/// their stderr (`script(1)` gives them one and copies what they draw) and once through pipes.
@Suite(.serialized)
struct ProgressLineTests {
  static let erase = "\r\u{1B}[K"

  /// A library of `count` photos and a server holding them (and a little more).
  struct World {
    let dir = TemporaryDirectory("cairn-progress")
    let server: ImmichTestServer
    let library: String
    let names: [String]
    let environment: [String: String]

    init(count: Int) async throws {
      library = dir.path + "/Photos"
      names = (0..<count).map { String(format: "IMG_%04d.JPG", $0) }
      var scenario = Scenario(version: .v3_1)
      let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
      for name in names {
        let bytes = Array("progress test bytes of \(name)\n".utf8)
        try dir.file("Photos/\(name)", contents: bytes)
        scenario.addAsset(owner: me, fileName: name, checksum: Scenario.checksum(of: bytes))
      }
      scenario.addAsset(owner: me, fileName: "server-only.jpg")
      server = ImmichTestServer(scenario: scenario)
      let url = try await server.start()
      // Every update draws (no tenth-of-a-second wait), and colour (so progress) is allowed.
      environment = dir.isolatedEnvironment([
        "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
        "CAIRN_PROGRESS_INTERVAL": "0", "NO_COLOR": "",
        // Trashing two thirds of the library is the point here, not a rail to pass.
        "CAIRN_THRESHOLD_PERCENT": "100",
      ])
    }

    /// Runs `command` with a pseudo-terminal as stdin, stdout and stderr; returns what was
    /// written to the terminal (the command sends its records to files itself).
    func onTerminal(_ command: String, extra: [String: String] = [:]) async throws -> ToolResult {
      #if os(macOS)
        let script = "script -q /dev/null /bin/sh -c \(Self.quoted(command))"
      #else
        let script = "script -qfec \(Self.quoted(command)) /dev/null"
      #endif
      return try await inPipe(script, extra: extra)
    }

    /// Runs `command` through pipes and files, as a timer would.
    func inPipe(_ command: String, extra: [String: String] = [:]) async throws -> ToolResult {
      var env = environment
      for (key, value) in extra { env[key] = value }
      let environment = env
      let directory = dir.path
      return try await ToolRunner.shellDetached(
        command, environment: environment, workingDirectory: directory)
    }

    static func quoted(_ text: String) -> String {
      "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
  }

  /// Each line the terminal was left with ends with no progress drawn on it: the line was
  /// erased before every message and at the end.
  static func leftClean(_ terminal: String, _ progress: String) -> Bool {
    let lines = terminal.replacingOccurrences(of: "\r\n", with: "\n").split(
      separator: "\n", omittingEmptySubsequences: false)
    return lines.allSatisfy { line in
      let shown = line.components(separatedBy: erase).last ?? ""
      return !shown.contains(progress)
    }
  }

  @Test func fetchDrawsTheListingOnATerminalAndNothingInAPipe() async throws {
    let world = try await World(count: 12)
    defer { Task { await world.server.stop() } }

    let terminal = try await world.onTerminal("cairn-fetch > listing.ndjson")
    #expect(terminal.status == 0, "\(terminal.stdout)")
    #expect(terminal.stdout.contains(Self.erase + "cairn-fetch: 13 assets listed"))
    #expect(Self.leftClean(terminal.stdout, "assets listed"))
    // The summary still comes, on a line of its own, and the records went where they were sent.
    #expect(terminal.stdout.contains("cairn-fetch: 13 assets (0 in the trash)"))
    let listing = try String(contentsOfFile: world.dir.path + "/listing.ndjson", encoding: .utf8)
    #expect(listing.split(separator: "\n").count == 15)

    let pipe = try await world.inPipe("cairn-fetch")
    #expect(pipe.status == 0, "\(pipe.stderr)")
    #expect(pipe.lines.count == 15)
    #expect(!pipe.stderr.contains("listed"))
    #expect(!pipe.stderr.contains("\r"))
    #expect(!pipe.stderr.contains("\u{1B}"))

    // -q and NO_COLOR keep a terminal quiet too.
    for (command, extra) in [
      ("cairn-fetch -q > listing.ndjson", [:]),
      ("cairn-fetch > listing.ndjson", ["NO_COLOR": "1"]),
    ] {
      let quiet = try await world.onTerminal(command, extra: extra)
      #expect(quiet.status == 0, "\(quiet.stdout)")
      #expect(!quiet.stdout.contains("listed"), "\(command) \(extra)")
      #expect(!quiet.stdout.contains("\u{1B}[K"), "\(command) \(extra)")
    }

    // After a login, the first listing comes from the sync stream, counted as it comes.
    let login = try await world.inPipe(
      "cairn-fetch login",
      extra: ["IMMICH_EMAIL": "me@example.com", "IMMICH_PASSWORD": "password"])
    #expect(login.status == 0, "\(login.stderr)")
    let synced = try await world.onTerminal("cairn-fetch > synced.ndjson")
    #expect(synced.status == 0, "\(synced.stdout)")
    #expect(world.server.log.requests(path: "/api/sync/stream").count == 1)
    #expect(synced.stdout.contains(Self.erase + "cairn-fetch: 1 changes from the sync stream"))
    #expect(synced.stdout.contains(" 13 changes from the sync stream"))
    #expect(Self.leftClean(synced.stdout, "changes from the sync stream"))
    let syncedPipe = try await world.inPipe("cairn-fetch")
    #expect(syncedPipe.status == 0, "\(syncedPipe.stderr)")
    #expect(!syncedPipe.stderr.contains("changes from") && !syncedPipe.stderr.contains("\r"))
  }

  @Test func thePipelineAndRestoreDrawOnATerminalAndNothingInAPipe() async throws {
    let world = try await World(count: 30)
    defer { Task { await world.server.stop() } }
    let pipeline =
      "cairn-hash Photos | cairn-reconcile | cairn-gate | cairn-trash --yes > trash.ndjson"

    // The seeding run: cairn-hash, the listing (cairn-fetch under cairn-reconcile), then
    // cairn-reconcile's own phases, each drawn, and the terminal left clean.
    let seed = try await world.onTerminal(pipeline)
    #expect(seed.status == 0, "\(seed.stdout)")
    #expect(seed.stdout.contains(Self.erase + "cairn-hash: "))
    #expect(seed.stdout.contains(Self.erase + "cairn-fetch: 31 assets listed"))
    #expect(seed.stdout.contains(Self.erase + "cairn-reconcile: recording 30 files"))
    #expect(seed.stdout.contains(Self.erase + "cairn-reconcile: reconciling with 31 assets"))
    for progress in ["B/s", "assets listed", "recording", "reconciling"] {
      #expect(Self.leftClean(seed.stdout, progress), "\(progress)")
    }

    // Twenty files go; the first run with candidates is a dry run (through pipes: silent).
    for name in world.names.prefix(20) {
      try FileManager.default.removeItem(atPath: world.library + "/" + name)
    }
    let dry = try await world.inPipe(pipeline)
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("dry run"))
    for silent in ["listed", "recording", "reconciling", "\r", "\u{1B}"] {
      #expect(!dry.stderr.contains(silent), "\(silent)")
    }

    // The real run trashes them, counting on the terminal.
    let real = try await world.onTerminal(pipeline)
    #expect(real.status == 0, "\(real.stdout)")
    #expect(world.server.state.trashedAssetIDs.count == 20)
    #expect(real.stdout.contains(Self.erase + "cairn-trash: 1/20 assets"))
    #expect(real.stdout.contains(Self.erase + "cairn-trash: 20/20 assets"))
    #expect(Self.leftClean(real.stdout, "/20 assets"))
    let trash = try String(contentsOfFile: world.dir.path + "/trash.ndjson", encoding: .utf8)
    let runID = try #require(
      trash.split(separator: "\n").last.flatMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["runId"]
          as? String
      })

    // cairn-restore counts too; the same restore in a pipe says only its summary.
    let dryRestore = try await world.inPipe("cairn-restore --dry-run --run-id \(runID)")
    #expect(dryRestore.status == 0, "\(dryRestore.stderr)")
    #expect(dryRestore.stderr.contains("dry run: 20 asset(s) would be restored"))
    #expect(!dryRestore.stderr.contains("\r") && !dryRestore.stderr.contains("\u{1B}"))
    let restore = try await world.onTerminal("cairn-restore --run-id \(runID) > restore.ndjson")
    #expect(restore.status == 0, "\(restore.stdout)")
    #expect(world.server.state.trashedAssetIDs.isEmpty)
    #expect(restore.stdout.contains(Self.erase + "cairn-restore: 20/20 assets"))
    #expect(Self.leftClean(restore.stdout, "/20 assets"))
  }

  @Test func observeDrawsWhileRecordingOnATerminalAndNothingInAPipe() async throws {
    let world = try await World(count: 8)
    defer { Task { await world.server.stop() } }
    let terminal = try await world.onTerminal(
      "cairn-hash Photos | cairn-observe record > observed.ndjson")
    #expect(terminal.status == 0, "\(terminal.stdout)")
    #expect(terminal.stdout.contains(Self.erase + "cairn-observe: recording 8 files"))
    #expect(Self.leftClean(terminal.stdout, "recording"))

    let pipe = try await world.inPipe("cairn-hash Photos | cairn-observe record")
    #expect(pipe.status == 0, "\(pipe.stderr)")
    #expect(!pipe.stderr.contains("recording"))
    #expect(!pipe.stderr.contains("\r"))
  }
}

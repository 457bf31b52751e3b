import CairnTestSupport
import Foundation
import Testing

/// Every tool has one command-line shape: an action that replaces the main job is a
/// subcommand. The options those actions used to be still work, hidden from --help, and must
/// answer exactly as the subcommand does: the same standard output, standard error and exit
/// status, on a partition that holds a real trashed run. (A usage error's usage line names the
/// spelling that was used, as ArgumentParser writes it.)
@Suite(.serialized)
struct OlderSpellingTests {
  /// An older spelling and the subcommand that replaced it, as shell scripts run in turn
  /// against the same server and state.
  struct Spelling: CustomStringConvertible {
    let older: String
    let current: String
    var description: String { older }
  }

  static func spellings(runID: String, mount: String) -> [Spelling] {
    [
      Spelling(older: "cairn-restore --list", current: "cairn-restore list"),
      Spelling(older: "cairn-restore --show \(runID)", current: "cairn-restore show \(runID)"),
      Spelling(
        older: "cairn-restore --show 2026-01-01T00:00:00Z-00000000",
        current: "cairn-restore show 2026-01-01T00:00:00Z-00000000"),
      Spelling(older: "cairn-tag --list", current: "cairn-tag list"),
      Spelling(older: "cairn-tag --run-id \(runID)", current: "cairn-tag show \(runID)"),
      Spelling(
        older: "cairn-tag show \(runID) | cairn-tag --add review/older --dry-run",
        current: "cairn-tag show \(runID) | cairn-tag add review/older --dry-run"),
      Spelling(
        older:
          "cairn-tag show \(runID) > shown.ndjson && cairn-tag --add review/older shown.ndjson",
        current: "cairn-tag show \(runID) > shown.ndjson && cairn-tag add review/older shown.ndjson"
      ),
      Spelling(older: "cairn-hash --all '\(mount)'", current: "cairn-hash --all-files '\(mount)'"),
      Spelling(older: "cairn-fetch --identity", current: "cairn-fetch identity"),
      Spelling(older: "cairn-fetch --check", current: "cairn-fetch check"),
      Spelling(older: "cairn-fetch --diagnose", current: "cairn-fetch diagnose"),
      Spelling(
        older: "cairn-fetch --login --email \"$EMAIL\" && cairn-fetch --logout",
        current: "cairn-fetch login --email \"$EMAIL\" && cairn-fetch logout"),
      Spelling(older: "cairn-observe watch --status", current: "cairn-observe watch status"),
      // (Into a pipe, the older spellings say they no longer scan: MisplacedWordsTests.)
      Spelling(
        older: "cairn-hash --accept-lost-mount '\(mount)' --yes > /dev/null",
        current: "cairn-hash accept-lost-mount '\(mount)' --yes > /dev/null"),
      Spelling(
        older: "cairn-hash --forget-mounts --yes '\(mount)' > /dev/null",
        current: "cairn-hash forget-mounts --yes '\(mount)' > /dev/null"),
    ]
  }

  /// A stream with its header's `createdAt` taken out: the only field two runs a second apart
  /// may write differently.
  static func timeless(_ stream: String) -> String {
    stream.replacingOccurrences(
      of: #","createdAt":"[^"]*""#, with: "", options: .regularExpression)
  }

  @Test func eachOlderSpellingAnswersExactlyAsItsSubcommand() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let stream = try f.reconcileStream([f.candidate(f.photos[0]), f.candidate(f.live.still)])
    _ = try await f.gateAndTrash(stream)
    let trashed = try await f.gateAndTrash(stream)
    let runID = try #require(try trashed.records(ofType: "end").first?["runId"] as? String)
    // A scanned root, so the mount acceptances find a root that holds the path.
    _ = try f.dir.file("library/IMG_0100.JPG", "bytes")
    let mount = f.dir.path + "/library"
    #expect(try await f.shell("cairn-hash '\(mount)' > /dev/null").status == 0)

    let login = ["EMAIL": f.me.email, "IMMICH_PASSWORD": f.me.password]
    var seen = Set<Int32>()
    for spelling in Self.spellings(runID: runID, mount: mount) {
      let older = try await f.shell(spelling.older, extra: login)
      let current = try await f.shell(spelling.current, extra: login)
      #expect(older.status == current.status, "\(spelling)")
      #expect(Self.timeless(older.stdout) == Self.timeless(current.stdout), "\(spelling)")
      #expect(older.stderr == current.stderr, "\(spelling)")
      seen.insert(current.status)
    }
    // The table reaches both answers: successes and refusals.
    #expect(seen.contains(0) && seen.contains(64))
    let shown = try await f.shell("cairn-restore show \(runID)")
    #expect(shown.stdout.contains(f.photos[0].id), "\(shown.stdout)")
    let listed = try await f.shell("cairn-tag list")
    #expect(try listed.records(ofType: "run").first?["runId"] as? String == runID)
    // Both spellings of add tagged every asset of the run.
    #expect(f.tagValues(f.photos[0]).contains("review/older"))
  }

  @Test func helpListsTheSubcommandsAndHidesTheOlderSpellings() throws {
    let dir = TemporaryDirectory("cairn-spellings")
    let env = dir.isolatedEnvironment()
    let hidden: [String: [String]] = [
      "cairn-restore": ["--list", "--show"],
      "cairn-tag": ["--list", "--run-id", "--add"],
      "cairn-fetch": ["--identity", "--check", "--diagnose", "--login", "--logout", "--email"],
      "cairn-hash": ["--accept-lost-mount", "--forget-mounts", "--yes"],
    ]
    let subcommands: [String: [String]] = [
      "cairn-restore": ["list", "show"],
      "cairn-tag": ["list", "show", "add"],
      "cairn-fetch": ["identity", "check", "diagnose", "login", "logout"],
      "cairn-hash": ["accept-lost-mount", "forget-mounts"],
    ]
    let watch = try ToolRunner.run("cairn-observe", ["watch", "--help"], environment: env)
    #expect(!watch.stdout.contains("--status") && watch.stdout.contains("\n  status "))
    let status = try ToolRunner.run(
      "cairn-observe", ["watch", "status", "--help"], environment: env)
    #expect(status.stdout.contains("USAGE: cairn-observe watch status"), "\(status.stdout)")
    for (tool, options) in hidden {
      let help = try ToolRunner.run(tool, ["--help"], environment: env)
      #expect(help.status == 0)
      for option in options { #expect(!help.stdout.contains(option), "\(tool) \(option)") }
      for subcommand in subcommands[tool] ?? [] {
        #expect(help.stdout.contains("\n  \(subcommand) "), "\(tool) lists \(subcommand)")
        let own = try ToolRunner.run(tool, [subcommand, "--help"], environment: env)
        #expect(own.status == 0)
        #expect(own.stdout.contains("USAGE: \(tool) \(subcommand)"), "\(own.stdout)")
        // `cairn help restore list` and `cairn-restore help list` say the same.
        let name = String(tool.dropFirst("cairn-".count))
        let viaCairn = try ToolRunner.run("cairn", ["help", name, subcommand], environment: env)
        let viaHelp = try ToolRunner.run(tool, ["help", subcommand], environment: env)
        #expect(viaCairn.stdout == own.stdout && viaHelp.stdout == own.stdout, "\(tool)")
      }
    }
  }
}

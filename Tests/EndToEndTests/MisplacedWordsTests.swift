import CairnTestSupport
import Foundation
import Testing

/// The small messages: words a person or an old script puts where they no longer mean
/// what they did get one line saying so and the usage status, never an unrelated failure
/// further on.
@Suite(.serialized)
struct MisplacedWordsTests {
  /// The rule is that a subcommand comes first; after an option, `list` was read as a file of
  /// records ("list: No such file or directory").
  @Test func aSubcommandAfterAnOptionIsNamedAsTheRule() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    for (words, moved) in [
      ("cairn-restore --profile anna list", "cairn-restore list --profile anna"),
      (
        "cairn-restore -q show 2026-01-01T00:00:00Z-00000000",
        "cairn-restore show -q 2026-01-01T00:00:00Z-00000000"
      ),
      ("cairn-hash -q forget-mounts --yes", "cairn-hash forget-mounts -q --yes"),
      ("cairn-observe -q list", "cairn-observe list -q"),
      ("cairn-tag --profile anna add review/x", "cairn-tag add --profile anna review/x"),
    ] {
      let run = try await f.shell(words + " < /dev/null")
      #expect(run.status == 64, "\(words): \(run.stderr)")
      let lines = run.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(words): \(run.stderr)")
      #expect(run.stderr.contains("a subcommand comes first: \(moved)"), "\(run.stderr)")
      #expect(!run.stderr.contains("No such file"))
      // A next stage stops with the same status.
      #expect(try run.records(ofType: "abort").first?["status"] as? Int == 64, "\(run.stdout)")
    }
    // An option's value spelled like a subcommand is the option's.
    let pattern = try await f.shell("cairn-restore --dry-run --file-name-matches list")
    #expect(!pattern.stderr.contains("subcommand comes first"), "\(pattern.stderr)")
  }

  /// `cairn-hash --forget-mounts ROOT` once scanned as well; now it only accepts, and the
  /// stage it feeds is told so instead of finding an empty stream.
  @Test func theOlderAcceptanceSpellingInAPipeSaysWhatItMeansNow() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    _ = try f.dir.file("library/IMG_0100.JPG", "bytes")
    let root = f.dir.path + "/library"
    #expect(try await f.shell("cairn-hash '\(root)' > /dev/null").status == 0)
    for older in ["--forget-mounts --yes '\(root)'", "--accept-lost-mount '\(root)' --yes"] {
      let run = try await f.shell(
        "cairn-hash \(older) | cairn-reconcile > /dev/null; echo \"status $?\" >&2")
      #expect(run.stderr.contains("is now `cairn-hash "), "\(older): \(run.stderr)")
      #expect(run.stderr.contains("scanned nothing"), "\(run.stderr)")
      #expect(!run.stderr.contains("empty input"), "\(run.stderr)")
      #expect(run.stderr.contains("status 64"), "\(run.stderr)")
    }
    // Not into a pipe, it accepts as its subcommand does.
    let alone = try await f.shell("cairn-hash --forget-mounts --yes '\(root)' > /dev/null")
    #expect(alone.status == 0, "\(alone.stderr)")
  }
}

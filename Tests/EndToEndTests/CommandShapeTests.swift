import CairnTestSupport
import Foundation
import Testing

/// One command-line shape for every tool (cairn(1), One command-line shape): the main job is
/// the default subcommand, whose options the tool's help shows; every list prints alike;
/// `--yes` and `--dry-run` have one meaning and one help text; every run id is checked alike.
@Suite(.serialized)
struct CommandShapeTests {
  /// Records into a pipe, a table on a terminal or when forced, and never both flags.
  @Test func everyListWritesRecordsIntoAPipeAndATableOnATerminalOrWhenForced() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let stream = try f.reconcileStream([f.candidate(f.photos[0]), f.candidate(f.live.still)])
    _ = try await f.gateAndTrash(stream)
    let trashed = try await f.gateAndTrash(stream)
    let runID = try #require(try trashed.records(ofType: "end").first?["runId"] as? String)
    let photo = f.photos[0].id.lowercased()

    // (command, record type of a pipe, a word every table line set holds)
    let lists: [(String, String, String)] = [
      ("cairn-restore list", "run", runID),
      ("cairn-restore show \(runID)", "result", photo),
      ("cairn-tag list", "run", runID),
      ("cairn-tag", "run", runID),
      ("cairn-tag show \(runID)", "asset", photo),
      ("cairn-observe list", "observed", "CHECKSUM"),
    ]
    for (command, type, word) in lists {
      let piped = try await f.shell(command)
      #expect(piped.status == 0, "\(command): \(piped.stderr)")
      #expect(try !piped.records(ofType: type).isEmpty, "\(command): \(piped.stdout)")
      let forced = try await f.shell(command + " --records")
      #expect(Self.timeless(forced.stdout) == Self.timeless(piped.stdout), "\(command)")
      let table = try await f.shell(command + " --table")
      #expect(table.status == 0, "\(command): \(table.stderr)")
      #expect(!table.stdout.contains("{\""), "\(command): \(table.stdout)")
      #expect(table.stdout.lowercased().contains(word.lowercased()), "\(command): \(table.stdout)")
      #if os(Linux)
        // On a terminal (util-linux's `script` runs the command on one), a table unasked.
        let terminal = try await f.shell("script -qec '\(command)' /dev/null < /dev/null")
        #expect(terminal.status == 0, "\(command) on a terminal: \(terminal.stdout)")
        #expect(!terminal.stdout.contains("{\""), "\(command) on a terminal: \(terminal.stdout)")
        #expect(
          terminal.stdout.lowercased().contains(word.lowercased()),
          "\(command) on a terminal: \(terminal.stdout)")
      #endif
      let both = try await f.shell(command + " --table --records")
      #expect(both.status == 64, "\(command)")
      #expect(both.stderr.contains("--table and --records exclude each other"), "\(both.stderr)")
    }
  }

  /// A header's `createdAt` is the only field two runs a second apart may write differently.
  static func timeless(_ stream: String) -> String {
    stream.replacingOccurrences(
      of: #","createdAt":"[^"]*""#, with: "", options: .regularExpression)
  }

  /// Every way to name a run checks it before anything is read, with one message.
  @Test(arguments: [
    "cairn-restore show nope", "cairn-restore --run-id nope", "cairn-restore --show nope",
    "cairn-tag show nope", "cairn-tag --run-id nope",
  ])
  func everyRunIDIsCheckedAlike(_ command: String) throws {
    let dir = TemporaryDirectory("cairn-shape")
    let result = try ToolRunner.shell(
      command + " < /dev/null", environment: dir.isolatedEnvironment())
    #expect(result.status == 64, "\(result.stderr)")
    #expect(
      result.stderr.hasPrefix(
        "Error: nope is not a cairn run id (like 2026-11-22T10:15:00Z-3F2A9C1B)\n"),
      "\(result.stderr)")
  }

  /// The tool's help is its main job's, with the subcommands; the main job's hidden name
  /// shows nowhere, and a usage error points to the words typed.
  @Test(arguments: [
    ("cairn-hash", [String](), "--jobs", "accept-lost-mount", "hash"),
    ("cairn-fetch", [], "--no-sync", "check", "list"),
    ("cairn-restore", [], "--file-name-matches", "show", "restore"),
    ("cairn-observe", ["watch"], "--server", "status", "follow"),
  ])
  func theHelpOfAToolIsItsMainJobsWithItsSubcommands(
    _ tool: String, _ words: [String], _ option: String, _ subcommand: String, _ hidden: String
  ) throws {
    let env = TemporaryDirectory("cairn-shape").isolatedEnvironment()
    let help = try ToolRunner.run(tool, words + ["--help"], environment: env)
    #expect(help.status == 0)
    #expect(help.stdout.contains(option), "\(help.stdout)")
    #expect(help.stdout.contains("\nSUBCOMMANDS:\n"), "\(help.stdout)")
    #expect(help.stdout.contains("\n  \(subcommand) "), "\(help.stdout)")
    #expect(!help.stdout.contains("(default)") && !help.stdout.contains("\n  \(hidden) "))
    let spelled = ([tool] + words).joined(separator: " ")
    #expect(help.stdout.contains("USAGE: \(spelled) [<options>]"), "\(help.stdout)")
    // `help` and the main job's hidden name give the same page.
    let viaHelp = try ToolRunner.run(tool, words + ["help"], environment: env)
    if words.isEmpty { #expect(viaHelp.stdout == help.stdout) }
    let viaName = try ToolRunner.run(tool, words + [hidden, "--help"], environment: env)
    #expect(viaName.stdout == help.stdout)
    let wrong = try ToolRunner.run(tool, words + ["--no-such-option"], environment: env)
    #expect(wrong.status == 64)
    #expect(wrong.stderr.contains("See '\(spelled) --help'"), "\(wrong.stderr)")
  }

  /// cairn-tag and cairn-observe name their main job (`list`, `record`) in help, as default.
  @Test func aNamedMainJobIsListedAsTheDefault() throws {
    let env = TemporaryDirectory("cairn-shape").isolatedEnvironment()
    for (tool, option, mainJob) in [
      ("cairn-tag", "--table", "list"), ("cairn-observe", "--no-trash", "record"),
    ] {
      let help = try ToolRunner.run(tool, ["--help"], environment: env)
      #expect(help.stdout.contains(option), "\(help.stdout)")
      #expect(help.stdout.contains("\n  \(mainJob) (default) "), "\(help.stdout)")
    }
    let tag = try ToolRunner.run("cairn-tag", ["--help"], environment: env)
    #expect(tag.stdout.contains("\n  add "), "\(tag.stdout)")
  }

  /// A path spelled like a subcommand, or like the main job's name, is a path as `./name`.
  @Test func aPathSpelledLikeASubcommandIsGivenAsDotSlash() throws {
    let dir = TemporaryDirectory("cairn-shape")
    let env = dir.isolatedEnvironment()
    for folder in ["accept-lost-mount", "hash"] {
      _ = try dir.file("\(folder)/IMG_\(folder.count).JPG", "bytes of \(folder)")
      let scan = try ToolRunner.run(
        "cairn-hash", ["./\(folder)"], environment: env, workingDirectory: dir.path)
      #expect(scan.status == 0, "\(scan.stderr)")
      let files = try scan.records(ofType: "file")
      #expect(files.count == 1, "\(scan.stdout)")
    }
    // The main job by its name is the main job.
    let named = try ToolRunner.run(
      "cairn-hash", ["hash", "./hash"], environment: env, workingDirectory: dir.path)
    #expect(try named.records(ofType: "file").count == 1, "\(named.stderr)")
  }

  /// The completion scripts offer the main job's arguments where a person types them: at the
  /// top, and after `cairn-observe watch`.
  @Test func completionsOfferTheMainJobsArgumentsAndTheSubcommands() throws {
    let env = TemporaryDirectory("cairn-shape").isolatedEnvironment()
    for (tool, words) in [
      ("cairn-hash", ["--jobs", "--all-files", "accept-lost-mount"]),
      ("cairn-restore", ["--run-id", "--file-name-matches", "show"]),
      ("cairn-fetch", ["--no-sync", "identity"]),
      ("cairn-observe", ["--no-trash", "*:roots:_files -/", "status"]),
    ] {
      let script = try ToolRunner.run(
        tool, ["--generate-completion-script", "zsh"], environment: env)
      #expect(script.status == 0)
      for word in words { #expect(script.stdout.contains(word), "\(tool): \(word)") }
    }
  }

  /// `--yes`/`-y` and `--dry-run` read the same in every tool that takes them.
  @Test func confirmationAndDryRunHaveOneHelpText() throws {
    let env = TemporaryDirectory("cairn-shape").isolatedEnvironment()
    func line(_ option: String, _ tool: String, _ words: [String]) throws -> String {
      let help = try ToolRunner.run(tool, words + ["--help"], environment: env)
      let found = help.stdout.split(separator: "\n").first {
        $0.hasPrefix("  \(option) ") || $0.hasPrefix("  -y, \(option) ")
      }
      return String(try #require(found, "\(tool) \(words) has no \(option)"))
    }
    let yes = try [
      line("--yes", "cairn-trash", []), line("--yes", "cairn-hash", ["accept-lost-mount"]),
      line("--yes", "cairn-hash", ["forget-mounts"]), line("--yes", "cairn-observe", ["reset"]),
    ]
    #expect(Set(yes).count == 1 && yes[0].contains("-y, --yes"), "\(yes)")
    let dryRun = try [
      line("--dry-run", "cairn-trash", []), line("--dry-run", "cairn-restore", []),
      line("--dry-run", "cairn-tag", ["add"]),
    ]
    #expect(Set(dryRun).count == 1, "\(dryRun)")
  }
}

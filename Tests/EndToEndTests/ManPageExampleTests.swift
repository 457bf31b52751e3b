import CairnStream
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Every example in the man pages runs: the EXAMPLES sections of man/*.1, *.5 and *.7 are
/// read as a person would copy them (`ManPageExample`) and run, page by page, with bash in a
/// scratch home holding a small library at `~/Photos` (and `~/Pictures`) against the Immich
/// test double, and each must exit with the status the page documents for it. An example
/// that is not a command here (a systemd unit, a crontab line, a configuration line) says why;
/// a new example no entry describes fails the test.
@Suite(.serialized)
struct ManPageExampleTests {
  enum Expectation: Sendable {
    /// Run with bash; the status it must exit with.
    case status(Int32)
    /// A listing of records (one per line, folded with a leading space): read by the stream
    /// contract, which must end with this status (0: read through and complete).
    case records(Int32)
    /// Not a command that can run in a test, and why.
    case notHere(String)
  }

  /// By page and first line. Placeholders the pages elide are filled in by `fill`.
  static let expectations: [String: Expectation] = [
    "cairn-fetch.1: cairn-fetch check": .status(0),
    "cairn-fetch.1: cairn-fetch | jq -c 'select(.type == \"asset\" and .isTrashed)' | wc -l":
      .status(0),
    "cairn-fetch.1: IMMICH_EMAIL=me@example.net cairn-fetch login": .status(0),
    "cairn-fetch.1: cairn-fetch identity | jq -r 'select(.type == \"header\") | .server.userId'":
      .status(0),
    "cairn-gate.1: cairn-hash ~/Photos | cairn-reconcile | cairn-gate --review plan.html >/dev/null":
      .status(0),
    "cairn-gate.1: cairn-hash ~/Photos | cairn-reconcile | cairn-gate | cairn-trash": .status(0),
    "cairn-gate.1: ... | cairn-gate --approve all-pending --exclude 9IXBDMjj9OrQb+1YMHprZJgZ/UQ= | ...":
      .status(0),
    "cairn-gate.1: ... | cairn-gate --override-threshold 69004281380b319a2ca1...f662 | cairn-trash":
      .status(0),
    "cairn-gate.1: cairn-hash ~/Photos | cairn-reconcile | cairn-gate \\": .status(0),
    "cairn-hash.1: cairn-hash ~/Pictures > library.ndjson": .status(0),
    "cairn-hash.1: cairn-hash ~/Pictures/2024 | jq -r 'select(.type==\"file\") | .checksum'":
      .status(0),
    "cairn-hash.1: find ~/Pictures -type f -mtime -7 -print0 | cairn-hash -0": .status(0),
    "cairn-hash.1: cairn-hash ~/Pictures | cairn-reconcile | cairn-gate | cairn-trash": .status(0),
    "cairn-hash.1: cairn-hash accept-lost-mount ~/Pictures/Card": .notHere(
      "a volume under a root that went away (a loop mount as root); VolumeIdentityTests runs it"),
    "cairn-nightly.1: echo CAIRN_LIBRARY=$HOME/Photos >> ~/.config/cairn/config": .notHere(
      "a systemd user manager and lingering (systemctl --user, loginctl); "
        + "make check-nightly installs and runs the units"),
    "cairn-nightly.1: systemctl --user status cairn-nightly": .notHere(
      "a systemd user manager"),
    "cairn-nightly.1: journalctl --user -u cairn-nightly": .notHere("the systemd journal"),
    "cairn-nightly.1: 0 3 * * * $HOME/.local/bin/cairn-nightly >/dev/null": .notHere(
      "a crontab line, not a command; make check-nightly runs it as cron would"),
    "cairn-nightly.1: CAIRN_NOTIFY_URL=https://ntfy.sh/my-cairn-topic": .notHere(
      "lines of the configuration file, not commands"),
    "cairn-nightly.1: CAIRN_NOTIFY_URL=https://ntfy.sh/our-photos": .notHere(
      "lines of the configuration file, not commands"),
    "cairn-nightly.1: CAIRN_NOTIFY_URL=https://ntfy.example.net/cairn": .notHere(
      "lines of the configuration file, not commands"),
    "cairn-nightly.1: cairn-nightly --profile ben --override-threshold 5c1f...e2": .notHere(
      "a configuration of two profiles on two servers; make check-nightly runs profiles so"),
    "cairn-nightly.1: cairn-nightly --override-threshold 69004281380b319a2ca1...f662": .status(0),
    "cairn-observe.1: cairn-hash ~/Photos | cairn-observe | cairn-reconcile | cairn-gate":
      .status(0),
    "cairn-observe.1: (cd ~/Photos && find . -type f -exec sha1sum {} +) > sums.txt": .status(0),
    "cairn-observe.1: cairn-observe import sums.txt": .status(0),
    "cairn-observe.1: cairn-observe exclude ~/Photos/2019/wedding/IMG_0042.jpg": .status(0),
    "cairn-observe.1: cairn-observe show ~/Photos/2019/wedding/IMG_0042.jpg": .status(0),
    // A service: it runs until stopped, and SIGINT stops it with 0 (EXIT STATUS).
    "cairn-observe.1: cairn-observe watch -v ~/Photos": .status(0),
    "cairn-observe.1: cairn-observe list | jq -r 'select(.missingSince) | .paths[0]'": .status(0),
    "cairn-reconcile.1: cairn-hash ~/Photos | cairn-reconcile | cairn-gate | cairn-trash":
      .status(0),
    "cairn-reconcile.1: cairn-fetch > server.ndjson": .status(0),
    "cairn-reconcile.1: cairn-hash ~/Photos | cairn-reconcile --server server.ndjson --strictness strict":
      .status(0),
    "cairn-reconcile.1: ... | cairn-reconcile | jq -r 'select(.type==\"candidate\").bucket' | sort | uniq -c":
      .status(0),
    "cairn-records.5: {\"type\":\"header\",\"schema\":\"1.1\",\"tool\":\"cairn-hash\",\"version\":\"0.1.0\",":
      .records(0),
    "cairn-records.5: {\"type\":\"abort\",\"tool\":\"cairn-gate\",\"status\":25,": .records(25),
    "cairn-records.5: cairn-hash ~/Photos | cairn-reconcile |": .status(0),
    "cairn-records.5: cairn-hash ~/Photos | cairn-reconcile | cairn-gate |": .status(0),
    "cairn-restore.1: cairn-restore --run-id 2026-11-22T10:15:00Z-3F2A9C1B": .status(0),
    "cairn-restore.1: cairn-restore --file-name-matches '^IMG_20240[78]' --dry-run": .status(0),
    "cairn-restore.1: cairn-restore --file-name-matches '^IMG_20240[78]'": .status(0),
    "cairn-restore.1: jq -c 'select(.type != \"result\" or (.originalFileName // \"\" | startswith(\"DSC\")))' run.ndjson | cairn-restore":
      .status(0),
    "cairn-tag.1: cairn-tag | jq -r 'select(.type == \"run\") | \"\\(.runId) \\(.inTrash)/\\(.assets)\"'":
      .status(0),
    "cairn-tag.1: cairn-tag show 2026-11-22T10:15:00Z-3F2A9C1B | jq -r '.originalFileName // empty'":
      .status(0),
    "cairn-tag.1: cairn-tag": .status(0),
    "cairn-tag.1: cairn-tag show 2026-11-22T10:15:00Z-3F2A9C1B | cairn-tag add review/2026-11":
      .status(0),
    "cairn-trash.1: cairn-hash ~/Photos | cairn-reconcile | cairn-gate | cairn-trash": .status(0),
    "cairn-trash.1: cairn-hash ~/Photos | cairn-reconcile | cairn-gate -q | cairn-trash --yes":
      .status(0),
    "cairn-trash.1: jq -c 'select(.event == \"completed\")' ~/.local/state/cairn/servers/*/journal.ndjson":
      .status(0),
    "cairn.1: cairn-hash ~/Photos | cairn-reconcile | cairn-gate | cairn-trash": .status(0),
    "cairn.7: cairn-fetch check": .status(0),
    "cairn.7: cairn-hash ~/Photos | cairn-reconcile | cairn-gate | cairn-trash --dry-run":
      .status(0),
    "cairn.7: 0 3 * * * $HOME/.local/bin/cairn-nightly >/dev/null": .notHere(
      "a crontab line, not a command; make check-nightly runs it as cron would"),
    "immich-testserver.1: coproc immich-testserver --version v2.7 --demo-user": .status(0),
    "immich-testserver.1: curl -s -H 'x-api-key: demo-secret' \\": .status(0),
    "immich-testserver.1: curl -s -X POST \"$url/__testserver/faults\" \\": .status(0),
    "immich-testserver.1: curl -s -X DELETE -H 'x-api-key: demo-secret' \\": .status(0),
  ]

  /// The placeholders pages write for what only a real run knows, and what stands in for
  /// them: shell expressions evaluated when the example runs.
  static let placeholders: [(String, String)] = [
    ("3f1c...9e0a", #"$(sed -n 's/.*data-plan="\([0-9a-f]*\)".*/\1/p' plan.html)"#),
    ("6f1c2f4e-...", "$(cat first-asset)"),
    ("69004281380b319a2ca1...f662", "$(cat plan-digest)"),
    ("2026-11-22T10:15:00Z-3F2A9C1B", "$(cat run-id)"),
  ]

  /// `example` with its placeholders filled in; `...` before a pipe is the pipeline's start,
  /// after one its end (`cairn-trash`).
  static func fill(_ example: String) -> String {
    var text = example
    for (placeholder, value) in placeholders {
      text = text.replacingOccurrences(of: placeholder, with: value)
    }
    if text.hasPrefix("... | cairn-reconcile") {
      text = "cairn-hash ~/Photos" + text.dropFirst(3)
    } else if text.hasPrefix("... |") {
      text = "cairn-hash ~/Photos | cairn-reconcile" + text.dropFirst(3)
    }
    if text.hasSuffix("| ...") { text = text.dropLast(3) + "cairn-trash" }
    return text
  }

  /// The files of the scratch library: every example's path exists, and every photo of
  /// `~/Photos` is on the server.
  static let photos = [
    "2019/wedding/IMG_0042.jpg", "IMG_20240712_1.jpg", "IMG_20240802_2.jpg", "DSC_0001.JPG",
    "DSC_0002.JPG", "IMG_0001.JPG", "IMG_0002.JPG", "IMG_0003.JPG", "IMG_0004.JPG",
    "CLIP_0001.MP4",
  ]
  /// Gone before the examples run, and trashed by a real run (`run.ndjson`, `run-id`).
  static let gone = ["IMG_20240712_1.jpg", "DSC_0001.JPG", "DSC_0002.JPG"]

  static func bytes(_ name: String) -> [UInt8] { Array("cairn manual bytes of \(name)\n".utf8) }

  @Test func everyExampleRunsAndExitsAsItsPageSays() async throws {
    let examples = try ManPageExample.all()
    #expect(examples.count >= 40, "only \(examples.count) examples found")
    let unknown = examples.filter { Self.expectations[$0.description] == nil }
    #expect(unknown.isEmpty, "examples no entry describes: \(unknown)")
    let described = Set(examples.map(\.description))
    let stale = Self.expectations.keys.filter { !described.contains($0) }.sorted()
    #expect(stale.isEmpty, "entries for examples the pages no longer hold: \(stale)")

    let scratch = TemporaryDirectory("cairn-manual")
    let home = scratch.path + "/home"
    var scenario = Scenario(version: .v3_1)
    let (me, _) = scenario.addUser(email: "me@example.net", keySecret: ActFixture.secret)
    var firstAsset = ""
    for name in Self.photos {
      try scratch.file("home/Photos/\(name)", contents: Self.bytes(name))
      let asset = scenario.addAsset(
        owner: me, fileName: (name as NSString).lastPathComponent,
        checksum: Scenario.checksum(of: Self.bytes(name)))
      if firstAsset.isEmpty { firstAsset = asset.id }
    }
    try scratch.file("home/Pictures/2024/IMG_2024.JPG", contents: Self.bytes("2024"))
    try scratch.file("home/first-asset", firstAsset + "\n")
    try installNightly(into: scratch.path + "/bin")
    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    defer { Task { await server.stop() } }
    // A person's environment: the tools on PATH, state under ~/.local/state, no terminal.
    let env = [
      "PATH": "\(ToolRunner.productsDirectory):\(scratch.path)/bin:/usr/bin:/bin",
      "HOME": home, "LC_ALL": "C.UTF-8", "NO_COLOR": "1",
      "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
      "IMMICH_PASSWORD": "password", "CAIRN_LIBRARY": home + "/Photos",
    ]
    func bash(_ script: String) async throws -> ToolResult {
      try await ActFixture.offPool {
        try ToolRunner.run(
          "/usr/bin/setsid", ["--wait", "/bin/bash", "-c", script], environment: env,
          workingDirectory: home)
      }
    }

    // A history to show: a first run that found nothing gone, three photos deleted, the
    // forced first dry run, and a real run whose output is run.ndjson.
    let pipeline = "cairn-hash ~/Photos | cairn-reconcile | cairn-gate -q | cairn-trash --yes"
    let seed = try await bash(pipeline)
    #expect(seed.status == 0, "\(seed.stderr)")
    for name in Self.gone { try FileManager.default.removeItem(atPath: home + "/Photos/" + name) }
    let dry = try await bash(pipeline)
    #expect(dry.stderr.contains("first run on this partition"), "\(dry.stderr)")
    let run = try await bash(
      "\(pipeline) > run.ndjson && jq -r 'select(.type == \"header\") | .runId' run.ndjson "
        + "> run-id")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(server.state.trashedAssetIDs.count == Self.gone.count)

    var byPage: [String: [ManPageExample]] = [:]
    for example in examples { byPage[example.page, default: []].append(example) }
    for page in byPage.keys.sorted() {
      for example in byPage[page] ?? [] {
        switch Self.expectations[example.description] {
        case .status(let status):
          let result = try await bash(script(for: example, on: page))
          #expect(
            result.status == status,
            "\(example) exited \(result.status): \(result.stderr.suffix(600))")
        case .records(let status):
          #expect(try readStatus(records: example.text) == status, "\(example)")
        case .notHere, nil:
          continue
        }
      }
    }
  }

  /// The script that runs one example. immich-testserver(1)'s examples are one session: the
  /// first starts the server as a coprocess and names it `$url`, the others use it, so each
  /// runs after those before it, and the server is stopped at the end.
  func script(for example: ManPageExample, on page: String) throws -> String {
    let text = Self.fill(example.text)
    if example.firstLine.hasPrefix("cairn-observe watch") {
      // Runs until stopped: stopped as a person would, with ^C.
      return "timeout --preserve-status -s INT 3 \(text)"
    }
    if example.text.contains("69004281380b319a2ca1...f662") {
      // The digest of the plan as it stands, from a run before (a digest computed inside the
      // example's own pipeline would be of a scan the pipeline replaces).
      return "cairn-hash ~/Photos | cairn-reconcile | cairn-gate -q "
        + "| jq -r 'select(.type == \"end\") | .plan' > plan-digest\n" + text
    }
    guard page == "immich-testserver.1" else { return text }
    let session = try ManPageExample.all().filter { $0.page == page }
    let upTo = session.prefix { $0.text != example.text }.map(\.text) + [text]
    return upTo.joined(separator: "\n") + "\nstatus=$?\nkill $COPROC_PID\nexit $status\n"
  }

  /// Reads a listing of folded records through the stream contract as every stage does.
  func readStatus(records listing: String) throws -> Int32 {
    var lines: [String] = []
    for line in listing.split(separator: "\n").map(String.init) {
      if line.hasPrefix(" "), !lines.isEmpty {
        lines[lines.count - 1] += line.dropFirst()
      } else {
        lines.append(line)
      }
    }
    let folder = TemporaryDirectory()
    let path = try folder.file("listing.ndjson", lines.joined(separator: "\n") + "\n")
    do {
      let stream = try RecordStream(reader: RecordReader(path: path))
      while try stream.next() != nil {}
      try stream.requireComplete()
      return 0
    } catch let error as CairnError {
      return error.status.rawValue
    }
  }

  /// cairn-nightly, as `make install` writes it (its tools found on PATH).
  func installNightly(into bin: String) throws {
    let source = ManPageExample.manFolder.deletingLastPathComponent()
      .appendingPathComponent("dist/cairn-nightly.in")
    let text = try String(contentsOf: source, encoding: .utf8)
      .replacingOccurrences(of: "@BINDIR@", with: ToolRunner.productsDirectory)
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let path = bin + "/cairn-nightly"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
  }
}

import CairnJSON
import CairnTestSupport
import Foundation
import Testing

@Suite struct ReconcileToolTests {
  @Test func firstRunSeedsThenADeletionBecomesACandidate() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.photo("2024/b.jpg", "beta")
    let a = try await fixture.checksum(of: "a.jpg")
    let b = try await fixture.checksum(of: "2024/b.jpg")
    try fixture.writeServer([
      ("asset-a", a), ("asset-b", b), ("asset-z", "bm90LWxvY2FsLWF0LWFsbC0xMjM="),
    ])

    let first = try await fixture.pipeline("", observe: false)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(try first.buckets().isEmpty)
    #expect(try first.endCounts()["matched"] == 2)

    try FileManager.default.removeItem(atPath: fixture.library + "/a.jpg")
    let second = try await fixture.pipeline("", observe: false)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try second.buckets() == ["asset-a": "delete"])
    let header = try #require(try second.records().first)
    #expect(header["tool"] as? String == "cairn-reconcile")
    #expect(header["pipeline"] as? [String] == ["cairn-hash", "cairn-reconcile"])
    #expect(second.stderr.contains("1 to delete"))

    let strict = try await fixture.pipeline("--strictness strict -q", observe: false)
    #expect(try strict.buckets() == ["asset-a": "pending"])
    #expect(strict.stderr.isEmpty)
  }

  /// The threshold is cairn-gate's rail: cairn-reconcile once accepted `--threshold` and
  /// `--floor` and never applied them; now they are a usage error that says where they go.
  @Test func theRailFlagsAreCairnGates() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.writeServer([("asset-a", try await fixture.checksum(of: "a.jpg"))])
    for (flags, named) in [
      ("--threshold 50", "--threshold: the threshold rail is cairn-gate's; give it to cairn-gate"),
      ("--floor 100 --threshold 5", "--threshold and --floor: the threshold rail is cairn-gate's"),
    ] {
      let result = try await fixture.pipeline(flags, observe: false)
      #expect(result.status == 64, "\(result.stderr)")
      let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("cairn-reconcile:") }
      #expect(lines.count == 1, "\(result.stderr)")
      #expect(result.stderr.contains("cairn-reconcile: \(named)"), "\(result.stderr)")
    }
  }

  /// The second run against the same listing carries the lookups of the server's checksums
  /// over from the first (`listing-presence`), and decides what lookups made afresh decide.
  @Test func theLookupsAreCarriedOverWithTheSameDecisions() async throws {
    let fixture = StateToolFixture()
    for name in ["a", "b", "c"] { try fixture.photo("\(name).jpg", name + "-bytes") }
    var server: [(String, String)] = []
    for name in ["a", "b", "c"] {
      server.append(("asset-\(name)", try await fixture.checksum(of: "\(name).jpg")))
    }
    server.append(("asset-z", "bm90LWxvY2FsLWF0LWFsbC0xMjM="))
    try fixture.writeServer(server)

    let first = try await fixture.pipeline("-v", observe: false)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.contains("look up server checksums: made"))
    let kept = try #require(
      FileManager.default.enumerator(atPath: fixture.directory.path)?.allObjects
        .compactMap { $0 as? String }.first { $0.hasSuffix("/listing-presence") })
    #expect(kept.hasPrefix("cache/"), "a cache, kept with the caches: \(kept)")

    try fixture.photo("d.jpg", "d-bytes")  // new, and not on the server
    try FileManager.default.removeItem(atPath: fixture.library + "/a.jpg")
    let carried = try await fixture.pipeline("-v", observe: false)
    #expect(carried.status == 0, "\(carried.stderr)")
    #expect(carried.stderr.contains("look up server checksums: carried over from the last run"))
    #expect(try carried.buckets() == ["asset-a": "delete"])

    // Once more with the lookups made afresh: the same decisions and counts.
    let again = try await fixture.pipeline("-v", observe: false)
    #expect(again.stderr.contains("carried over from the last run"))
    try FileManager.default.removeItem(atPath: fixture.directory.path + "/" + kept)
    let fresh = try await fixture.pipeline("-v", observe: false)
    #expect(fresh.stderr.contains("look up server checksums: made"))
    #expect(try fresh.buckets() == (try again.buckets()))
    #expect(try fresh.endCounts() == (try again.endCounts()))
    #expect(try fresh.endCounts()["matched"] == 3)

    // Another listing: made afresh.
    try fixture.writeServer(server.dropLast())
    let other = try await fixture.pipeline("-v", observe: false)
    #expect(other.stderr.contains("look up server checksums: made"))
    #expect(try other.buckets() == ["asset-a": "delete"])
  }

  @Test func throughCairnObserveTheSameDecisions() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.photo("b.jpg", "beta")
    let a = try await fixture.checksum(of: "a.jpg")
    try fixture.writeServer([("asset-a", a)])
    #expect(try await fixture.pipeline().status == 0)
    try FileManager.default.removeItem(atPath: fixture.library + "/a.jpg")
    let result = try await fixture.pipeline()
    #expect(try result.buckets() == ["asset-a": "delete"])
    let header = try #require(try result.records().first)
    #expect(header["pipeline"] as? [String] == ["cairn-hash", "cairn-observe", "cairn-reconcile"])
  }

  @Test func aTrashedFileIsHeldUntilItsQuarantineEnds() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.photo("b.jpg", "beta")
    let a = try await fixture.checksum(of: "a.jpg")
    try fixture.writeServer([("asset-a", a)])
    #expect(try await fixture.pipeline().status == 0)
    // Move a.jpg to the desktop trash the freedesktop.org way, deleted two days ago.
    let trash = fixture.directory.path + "/data/Trash"
    try FileManager.default.createDirectory(
      atPath: trash + "/files", withIntermediateDirectories: true)
    try FileManager.default.moveItem(
      atPath: fixture.library + "/a.jpg", toPath: trash + "/files/a.jpg")
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    let deleted = Date().addingTimeInterval(-2 * 86_400)
    let encodedPath =
      (fixture.library + "/a.jpg")
      .addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
    try fixture.directory.file(
      "data/Trash/info/a.jpg.trashinfo",
      "[Trash Info]\nPath=\(encodedPath)\nDeletionDate=\(formatter.string(from: deleted))\n")

    let held = try await fixture.pipeline()
    #expect(held.status == 0, "\(held.stderr)")
    #expect(try held.buckets() == ["asset-a": "held"])
    let candidate = try #require(try held.records(ofType: "candidate").first)
    #expect(candidate["reason"] as? String == "quarantine")
    let eligible = try #require(Date(iso8601: candidate["eligibleAt"] as? String ?? ""))
    #expect(abs(eligible.timeIntervalSince(deleted) - 14 * 86_400) < 2)

    let afterQuarantine = try await fixture.pipeline("--quarantine-days 1")
    #expect(try afterQuarantine.buckets() == ["asset-a": "delete"])
  }

  @Test func refusesATruncatedScanAndRecordsNothing() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.writeServer([])
    let scan = try await ToolRunner.runDetached(
      "cairn-hash", [fixture.library], environment: fixture.environment())
    let truncated = scan.lines.dropLast().joined(separator: "\n") + "\n"
    let result = try await ToolRunner.runDetached(
      "cairn-reconcile", ["--server", fixture.serverFile], stdin: truncated,
      environment: fixture.environment())
    #expect(result.status == 65)
    #expect(result.stderr.contains("no end record"))
    #expect(result.onlyAbort?["status"] as? Int == 65)
    #expect(
      !FileManager.default.fileExists(atPath: fixture.directory.path + "/state/cairn/servers"))
  }

  @Test(arguments: [
    (
      "error record",
      #"{"type":"error","tool":"cairn-hash","message":"Permission denied","path":"ROOT/x.jpg","root":"ROOT","code":"EACCES"}"#,
      #"{"type":"end","tool":"cairn-hash","complete":false,"errors":1,"counts":{},"roots":[{"path":"ROOT","complete":false,"files":1}]}"#
    ),
    (
      "empty root", "",
      #"{"type":"end","tool":"cairn-hash","complete":true,"errors":0,"counts":{},"roots":[{"path":"ROOT","complete":true,"files":0,"problem":"empty"}]}"#
    ),
    (
      "an end record that says incomplete while its roots say complete", "",
      #"{"type":"end","tool":"cairn-hash","complete":false,"errors":0,"counts":{},"roots":[{"path":"ROOT","complete":true,"files":1}]}"#
    ),
    (
      "vanished root", "",
      #"{"type":"end","tool":"cairn-hash","complete":false,"errors":0,"counts":{},"roots":[{"path":"ROOT","complete":false,"files":0,"problem":"No such file or directory"}]}"#
    ),
  ])
  func refusesAnIncompleteScope(name: String, error: String, end: String) async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    let a = try await fixture.checksum(of: "a.jpg")
    try fixture.writeServer([("asset-a", a)])
    #expect(try await fixture.pipeline().status == 0)
    let root = fixture.library
    let header =
      #"{"type":"header","schema":"1.0","tool":"cairn-hash","version":"t","pipeline":["cairn-hash"],"roots":["ROOT"]}"#
    let stream = StreamText.counted(
      [header, error, end].filter { !$0.isEmpty }
        .map { $0.replacingOccurrences(of: "ROOT", with: root) }.joined(separator: "\n") + "\n")
    let refused = try await ToolRunner.runDetached(
      "cairn-reconcile", ["--server", fixture.serverFile], stdin: stream,
      environment: fixture.environment())
    #expect(refused.status == 25, "\(name): \(refused.stderr)")
    #expect(refused.stderr.contains("incomplete scan"))
    #expect(refused.onlyAbort?["status"] as? Int == 25)

    let skipping = try await ToolRunner.runDetached(
      "cairn-reconcile", ["--server", fixture.serverFile, "--skip-incomplete-roots"],
      stdin: stream, environment: fixture.environment())
    #expect(skipping.status == 0, "\(name): \(skipping.stderr)")
    #expect(try skipping.buckets().isEmpty)
    // Nothing was recorded as gone: the photo is still not missing.
    let list = try await ToolRunner.runDetached(
      "cairn-observe", ["list", "--server", fixture.serverFile], environment: fixture.environment())
    let observed = try list.records(ofType: "observed")
    #expect(observed.count == 1)
    #expect(observed.first?["missingSince"] == nil || observed.first?["missingSince"] is NSNull)
  }

  @Test func refusesANewerSchema() async throws {
    let fixture = StateToolFixture()
    try fixture.writeServer([])
    let stream =
      #"{"type":"header","schema":"2.0","tool":"cairn-hash","version":"t","pipeline":["cairn-hash"],"roots":[]}"#
      + "\n"
    let result = try await ToolRunner.runDetached(
      "cairn-reconcile", ["--server", fixture.serverFile], stdin: stream,
      environment: fixture.environment())
    #expect(result.status == 65)
    #expect(result.stderr.contains("newer"))
  }

  @Test func invalidSettingsAreConfigurationErrors() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.writeServer([])
    let result = try await fixture.pipeline(
      "", observe: false, extra: ["CAIRN_QUARANTINE_DAYS": "120"])
    #expect(result.status == 78)
    #expect(result.stderr.contains("CAIRN_QUARANTINE_DAYS=120"))
  }

  @Test func runsTheSiblingCairnFetchAndPropagatesItsFailure() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    let a = try await fixture.checksum(of: "a.jpg")
    try fixture.writeServer([("asset-a", a)])
    // A private folder with a copy of cairn-reconcile and a stub cairn-fetch beside it.
    let bin = fixture.directory.path + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: ToolRunner.productsDirectory + "/cairn-reconcile", toPath: bin + "/cairn-reconcile")
    let stub = bin + "/cairn-fetch"
    try fixture.directory.file(
      "bin/cairn-fetch",
      "#!/bin/sh\nif [ -n \"$STUB_FAIL\" ]; then echo 'cairn-fetch: server unreachable' >&2; exit 69; fi\n"
        + "cat '\(fixture.serverFile)'\n")
    chmod(stub, 0o755)
    let scan = try await ToolRunner.runDetached(
      "cairn-hash", [fixture.library], environment: fixture.environment())

    let ok = try await ToolRunner.runDetached(
      bin + "/cairn-reconcile", [], stdin: scan.stdout, environment: fixture.environment())
    #expect(ok.status == 0, "\(ok.stderr)")
    let server = try #require(try ok.records().first?["server"] as? [String: Any])
    #expect(server["userId"] as? String == fixture.userId)

    let failing = try await ToolRunner.runDetached(
      bin + "/cairn-reconcile", [], stdin: scan.stdout,
      environment: fixture.environment(["STUB_FAIL": "1"]))
    #expect(failing.status == 69)
    #expect(failing.stderr.contains("cairn-fetch: server unreachable"))
    #expect(failing.onlyAbort?["status"] as? Int == 69)
  }
}

/// A scan's `file` lines are read by the fast reader; a line the record type refuses is
/// malformed input through the tool, as the record type would have it.
@Suite struct MalformedFileLineTests {
  @Test(arguments: [
    (#""size":12,"#, "", "missing field 'size'"),
    (#""mtime":"2026-01-02T03:04:05Z","#, #""mtime":"yesterday","#, "field 'mtime' must be"),
    (#""size":12,"#, #""size":"12","#, "field 'size' must be an integer"),
    (#""checksum":"QUJD","#, #""checksum":null,"#, "field 'checksum' must be a string"),
    (#""size":12,"#, #""size":12,"#, ""),
  ])
  func refusedAsTheRecordRefusesIt(good: String, bad: String, message: String) async throws {
    let fixture = StateToolFixture()
    try fixture.writeServer([])
    let root = fixture.library
    let file =
      #"{"type":"file","path":"ROOT/a.jpg","root":"ROOT","size":12,"mtime":"2026-01-02T03:04:05Z","checksum":"QUJD","dev":1,"ino":2}"#
      .replacingOccurrences(of: good, with: bad)
    let stream = StreamText.counted(
      [
        #"{"type":"header","schema":"1.0","tool":"cairn-hash","version":"t","pipeline":["cairn-hash"],"roots":["ROOT"]}"#,
        file,
        #"{"type":"end","tool":"cairn-hash","complete":true,"errors":0,"counts":{},"roots":[{"path":"ROOT","complete":true,"files":1}]}"#,
      ].map { $0.replacingOccurrences(of: "ROOT", with: root) }.joined(separator: "\n") + "\n")
    let result = try await ToolRunner.runDetached(
      "cairn-reconcile", ["--server", fixture.serverFile], stdin: stream,
      environment: fixture.environment())
    if message.isEmpty {
      #expect(result.status == 0, "\(result.stderr)")
    } else {
      #expect(result.status == 65, "\(result.stderr)")
      #expect(result.stderr.contains("invalid file record: \(message)"), "\(result.stderr)")
      #expect(result.onlyAbort?["status"] as? Int == 65)
    }
  }
}

import CairnTestSupport
import Foundation
import Testing

@Suite struct ObserveToolTests {
  @Test func passesEveryLineThroughAndNamesItselfInTheHeader() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.photo("b.jpg", "beta")
    try fixture.writeServer([])
    let scan = try await ToolRunner.runDetached(
      "cairn-hash", [fixture.library], environment: fixture.environment())
    let observed = try await ToolRunner.runDetached(
      "cairn-observe", ["--server", fixture.serverFile], stdin: scan.stdout,
      environment: fixture.environment())
    #expect(observed.status == 0, "\(observed.stderr)")
    #expect(Array(observed.lines.dropFirst()) == Array(scan.lines.dropFirst()))
    let header = try #require(try observed.records().first)
    #expect(header["pipeline"] as? [String] == ["cairn-hash", "cairn-observe"])
    #expect((header["server"] as? [String: Any])?["userId"] as? String == fixture.userId)
    #expect(observed.stderr.contains("recorded 2 files (2 new checksums)"))

    let list = try await ToolRunner.runDetached(
      "cairn-observe", ["list", "--server", fixture.serverFile], environment: fixture.environment())
    let entries = try list.records(ofType: "observed")
    #expect(entries.count == 2)
    #expect(entries.allSatisfy { ($0["roots"] as? [String]) == [fixture.library] })
  }

  @Test func aTruncatedScanIsPassedOnRecordedButCompletesNoRoot() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.writeServer([])
    let scan = try await ToolRunner.runDetached(
      "cairn-hash", [fixture.library], environment: fixture.environment())
    let truncated = scan.lines.dropLast().joined(separator: "\n") + "\n"
    let result = try await ToolRunner.runDetached(
      "cairn-observe", ["--server", fixture.serverFile], stdin: truncated,
      environment: fixture.environment())
    #expect(result.status == 65)
    // Every line passed on, then the abort that tells the next stage why the stream ends.
    #expect(result.lines.count == scan.lines.count)
    #expect(try result.records().last?["type"] as? String == "abort")
    let list = try await ToolRunner.runDetached(
      "cairn-observe", ["list", "--server", fixture.serverFile], environment: fixture.environment())
    #expect(try list.records(ofType: "observed").count == 1)
  }

  @Test func excludeByPathSurvivesAReset() async throws {
    let fixture = StateToolFixture()
    let path = try fixture.photo("a.jpg", "alpha")
    try fixture.photo("b.jpg", "beta")
    let a = try await fixture.checksum(of: "a.jpg")
    try fixture.writeServer([("asset-a", a)])
    #expect(try await fixture.pipeline().status == 0)
    let env = fixture.environment()
    let server = ["--server", fixture.serverFile]
    let exclude = try await ToolRunner.runDetached(
      "cairn-observe", ["exclude"] + server + [path], environment: env)
    #expect(exclude.status == 0, "\(exclude.stderr)")
    try FileManager.default.removeItem(atPath: path)
    #expect(try await fixture.pipeline().buckets().isEmpty)

    let refused = try await ToolRunner.runDetached(
      "cairn-observe", ["reset"] + server, environment: env)
    #expect(refused.status == 25)
    let reset = try await ToolRunner.runDetached(
      "cairn-observe", ["reset", "--yes"] + server, environment: env)
    #expect(reset.status == 0, "\(reset.stderr)")
    let exclusions = try await ToolRunner.runDetached(
      "cairn-observe", ["list", "--exclusions"] + server, environment: env)
    #expect(try exclusions.records(ofType: "exclusion").map { $0["checksum"] as? String } == [a])
    let observed = try await ToolRunner.runDetached(
      "cairn-observe", ["list"] + server, environment: env)
    #expect(try observed.records(ofType: "observed").isEmpty)

    // The next scan re-seeds without flagging anything; lifting the exclusion changes nothing
    // now, because a.jpg was never seen since the reset.
    #expect(try await fixture.pipeline().buckets().isEmpty)
    let include = try await ToolRunner.runDetached(
      "cairn-observe", ["include"] + server + [a], environment: env)
    #expect(include.status == 0)
    #expect(try await fixture.pipeline().buckets().isEmpty)
  }

  @Test func importsASha1sumListAsObservedOrExclusions() async throws {
    let fixture = StateToolFixture()
    try fixture.writeServer([])
    let env = fixture.environment()
    let server = ["--server", fixture.serverFile]
    try fixture.directory.file(
      "sums.txt",
      "da39a3ee5e6b4b0d3255bfef95601890afd80709  empty.jpg\n2jmj7l5rSw0yVb/vlWAYkK/YBwk=\n"
        + "a9993e364706816aba3e25717850c26c9cd0d89d  abc.jpg\n")
    let imported = try await ToolRunner.runDetached(
      "cairn-observe", ["import"] + server + [fixture.directory.path + "/sums.txt"],
      environment: env)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stderr.contains("imported 2 new checksum(s) as observed (3 read)"))
    let show = try await ToolRunner.runDetached(
      "cairn-observe", ["show"] + server + ["a9993e364706816aba3e25717850c26c9cd0d89d"],
      environment: env)
    #expect(show.stdout.contains("checksum:      qZk+NkcGgWq6PiVxeFDCbJzQ2J0="))
    #expect(show.stdout.contains("first seen:"))

    let asExclusions = try await ToolRunner.runDetached(
      "cairn-observe",
      ["import", "--as", "exclusions"] + server + [fixture.directory.path + "/sums.txt"],
      environment: env)
    #expect(asExclusions.status == 0)
    let list = try await ToolRunner.runDetached(
      "cairn-observe", ["list", "--exclusions"] + server, environment: env)
    #expect(try list.records(ofType: "exclusion").count == 2)

    try fixture.directory.file("bad.txt", "not a checksum\n")
    let bad = try await ToolRunner.runDetached(
      "cairn-observe", ["import"] + server + [fixture.directory.path + "/bad.txt"], environment: env
    )
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("bad.txt:1"))
  }

  @Test func aSecondConcurrentRunIsBusy() async throws {
    let fixture = StateToolFixture()
    try fixture.photo("a.jpg", "alpha")
    try fixture.writeServer([])
    // The first run waits on its input (a FIFO nobody writes yet) while holding the lock.
    let fifo = fixture.directory.path + "/scan.fifo"
    mkfifo(fifo, 0o600)
    let scan = try await ToolRunner.runDetached(
      "cairn-hash", [fixture.library], environment: fixture.environment())
    let result = try await ToolRunner.shellDetached(
      """
      { printf '%s\\n' '\(scan.lines[0])'; sleep 3; } > '\(fifo)' &
      cairn-observe --server '\(fixture.serverFile)' < '\(fifo)' > /dev/null 2>&1 &
      sleep 1
      printf '%s\\n' '\(scan.lines.joined(separator: "\n"))' | cairn-observe --server '\(fixture.serverFile)' > /dev/null
      echo "status $?"
      wait
      """, environment: fixture.environment())
    #expect(result.stdout.contains("status 75"), "\(result.stderr)")
    #expect(result.stderr.contains("another cairn run is using"))
  }
}

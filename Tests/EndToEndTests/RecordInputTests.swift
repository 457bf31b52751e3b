import CairnTestSupport
import Foundation
import Testing

/// The input rule every record tool shares (`RecordInput`, cairn(7) INPUT): a file named, `-`
/// or nothing for standard input, and a usage error rather than a silent wait when standard
/// input is a terminal.
@Suite(.serialized)
struct RecordInputTests {
  @Test func aTerminalOnStandardInputIsAUsageErrorInEveryStage() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    for stage in MalformedStreamTests.stages {
      // The master side of a new pseudo-terminal: a terminal nobody types on, so a stage that
      // read it would wait until `timeout` ends it (status 124).
      let result = try await f.shell("timeout 30 \(stage) < /dev/ptmx")
      #expect(result.status == 64, "\(stage): \(result.stderr)")
      #expect(
        result.stderr.contains("(standard input is a terminal)"), "\(stage): \(result.stderr)")
      // Downstream stages stop with the same status.
      if let abort = result.onlyAbort { #expect(abort["status"] as? Int == 64, "\(stage)") }
      #expect(f.mutations.isEmpty, "\(stage) reached the server")
    }
  }

  @Test func aFileNamedIsReadAndDashIsStandardInput() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let valid = try f.reconcileStream([f.candidate(f.photos[0])])
    // An added line: malformed for every stage (a lost candidate line is a part some stages
    // take), so each stage names where it read it and changes nothing.
    let lines = valid.split(separator: "\n").map(String.init)
    let spoilt = try f.write(
      "spoilt.ndjson", ([lines[0], lines[1]] + lines.dropFirst()).joined(separator: "\n") + "\n")
    for stage in MalformedStreamTests.stages {
      let named = try await f.shell("timeout 30 \(stage) '\(spoilt)' < /dev/ptmx")
      #expect(named.status == 65, "\(stage) FILE: \(named.stderr)")
      #expect(named.stderr.contains("\(spoilt):"), "\(stage) FILE: \(named.stderr)")
      let dash = try await f.shell("\(stage) - < '\(spoilt)'")
      #expect(dash.status == 65, "\(stage) -: \(dash.stderr)")
      #expect(dash.stderr.contains("<stdin>:"), "\(stage) -: \(dash.stderr)")
    }
    let missing = try await f.shell("cairn-gate '\(f.dir.path)/no-such-file'")
    #expect(missing.status == 65)
    #expect(missing.stderr.contains("no-such-file: No such file or directory"), "\(missing.stderr)")
    #expect(f.mutations.isEmpty)
  }
}

import CairnRecords
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Every class of malformed stream against every stage that reads one, through the real
/// binaries: exit 65, and the server receives no mutating request (cairn-records(5),
/// STRICTNESS).
@Suite(.serialized)
struct MalformedStreamTests {
  /// The stages that read a stream, as a pipeline runs them.
  static let stages = [
    "cairn-reconcile", "cairn-observe record", "cairn-gate", "setsid cairn-trash --yes",
    "cairn-restore", "cairn-tag --add malformed-test",
  ]

  /// The stages that accept fewer candidate records than the end record counts (a filtered
  /// part of a plan or a selection can only do less; cairn-records(5), COUNTS).
  static let acceptingParts: Set<String> = [
    "cairn-gate", "setsid cairn-trash --yes", "cairn-restore", "cairn-tag --add malformed-test",
  ]

  /// One way to spoil a valid stream of header, two candidates and end.
  struct Mutation: Sendable, CustomStringConvertible {
    let description: String
    /// True when the mutation only drops candidate lines: malformed for the stages whose counts
    /// are exact, a part for the others.
    var dropsCandidates = false
    let apply: @Sendable ([String]) -> [UInt8]
  }

  /// `lines` with `field` (raw bytes) put first in the first candidate.
  static func withField(_ field: [UInt8]) -> @Sendable ([String]) -> [UInt8] {
    { lines in
      var bytes: [UInt8] = []
      for (i, line) in lines.enumerated() {
        var line = Array(line.utf8)
        if i == 1 { line = [UInt8(ascii: "{")] + field + [UInt8(ascii: ",")] + line.dropFirst() }
        bytes += line + [0x0A]
      }
      return bytes
    }
  }

  static func text(_ lines: [String]) -> [UInt8] {
    Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  static let mutations: [Mutation] = [
    Mutation(description: "duplicate key", apply: withField(Array(#""assetId":"x""#.utf8))),
    Mutation(
      description: "lone surrogate escape", apply: withField(Array(#""note":"\udc00""#.utf8))),
    Mutation(description: "escaped NUL", apply: withField(Array(#""note":"a\u0000b""#.utf8))),
    Mutation(
      description: "invalid UTF-8",
      apply: withField(Array(#""note":""#.utf8) + [0xC3, 0x28] + [UInt8(ascii: "\"")])),
    Mutation(
      description: "raw NUL",
      apply: withField(Array(#""note":"a"#.utf8) + [0] + Array(#"b""#.utf8))),
    Mutation(description: "bare CR", apply: withField(Array("\"note\":1\r".utf8))),
    Mutation(
      description: "deep nesting",
      apply: withField(
        Array(#""note":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: 10_000)
          + Array(repeating: UInt8(ascii: "]"), count: 10_000))),
    Mutation(
      description: "line beyond the bound",
      apply: withField(
        Array(#""note":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 9 << 20)
          + [UInt8(ascii: "\"")])),
    Mutation(description: "record after the end") { text($0 + [$0[1]]) },
    Mutation(description: "second header") { text($0.dropLast() + [$0[0], $0[$0.count - 1]]) },
    Mutation(description: "a lost line", dropsCandidates: true) { lines in
      text(lines.enumerated().filter { $0.offset != 1 }.map(\.element))
    },
    Mutation(description: "an added line") { text([$0[0], $0[1]] + $0.dropFirst()) },
    Mutation(description: "an end with a negative count") { lines in
      var lines = lines
      lines[lines.count - 1] = lines[lines.count - 1].replacingOccurrences(
        of: #""errors":0"#, with: #""errors":-1"#)
      return text(lines)
    },
    Mutation(description: "an end counting abort records") { lines in
      var lines = lines
      lines[lines.count - 1] = lines[lines.count - 1].replacingOccurrences(
        of: #""records":{"#, with: #""records":{"abort":1,"#)
      return text(lines)
    },
    Mutation(description: "an end without counts") { lines in
      var lines = lines
      let end = lines[lines.count - 1]
      lines[lines.count - 1] = end.replacingOccurrences(
        of: #","records":\{[^}]*\}"#, with: "", options: .regularExpression)
      return text(lines)
    },
  ]

  @Test func everyMutationIsMalformedInEveryStageAndMutatesNothing() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let valid = try f.reconcileStream([f.candidate(f.photos[0]), f.candidate(f.photos[1])])
    let lines = valid.split(separator: "\n").map(String.init)
    for mutation in Self.mutations {
      let bytes = mutation.apply(lines)
      #expect(bytes != Array(valid.utf8), "\(mutation) changed nothing")
      let input = try f.dir.file("mutated-\(UUID().uuidString).ndjson", contents: bytes)
      for stage in Self.stages
      where !(mutation.dropsCandidates && Self.acceptingParts.contains(stage)) {
        let result = try await f.shell("\(stage) < '\(input)'")
        #expect(result.status == 65, "\(mutation) in \(stage): \(result.stderr)")
        #expect(result.stderr.contains("<stdin>:"), "\(mutation) in \(stage): \(result.stderr)")
        #expect(!result.stderr.contains(ActFixture.secret))
        #expect(f.mutations.isEmpty, "\(mutation) in \(stage) reached the server")
      }
    }
    // The same stream unspoilt is not malformed anywhere: the mutations are what each stage
    // refused. (Last, as these may change the server.)
    let input = try f.write("valid.ndjson", valid)
    for stage in Self.stages {
      let result = try await f.shell("\(stage) < '\(input)'")
      #expect(result.status != 65, "valid stream in \(stage): \(result.stderr)")
    }
  }

  @Test func anIncompleteOrErrorCarryingEndIsRefusedByTheStagesThatChangeTheServer() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let incomplete = try f.reconcileStream([f.candidate(f.photos[0])], complete: false)
    let withErrors = try f.reconcileStream(
      [f.candidate(f.photos[0])],
      errors: [ErrorRecord(tool: "cairn-hash", message: "Permission denied", path: "/photos/x")])
    for (name, stream) in [("complete:false", incomplete), ("errors", withErrors)] {
      let input = try f.write("\(name).ndjson", stream)
      for stage in ["cairn-gate", "setsid cairn-trash --yes", "cairn-restore", "cairn-tag --add t"]
      {
        let result = try await f.shell("\(stage) < '\(input)'")
        #expect(result.status == 25, "\(name) in \(stage): \(result.stderr)")
        #expect(f.mutations.isEmpty, "\(name) in \(stage) reached the server")
      }
    }
  }
}

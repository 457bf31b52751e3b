import CairnRecords
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// A scan that says it had errors is never acted on. An end record whose error total
/// (`errors`, or `counts.errors`) disagrees with the error records the stream carries is
/// malformed (65) in every stage that can lead to a deletion; a total above zero with its error
/// records is an incomplete scan (25). Either way the photo deleted locally stays on the server.
@Suite(.serialized)
struct ScanErrorTotalTests {
  static let versions = ImmichVersion.allCases

  /// A library whose `b.jpg` was deleted after the first run, and a dry run that reviewed its
  /// trashing: the next real pipeline would trash it.
  static func world(_ version: ImmichVersion) async throws -> LivePhotoWorld {
    let w = try await LivePhotoWorld(version: version)
    let seed = try await w.pipeline()
    #expect(seed.status == 0, "\(seed.stderr)")
    try FileManager.default.removeItem(atPath: w.library + "/b.jpg")
    let dry = try await w.pipeline()
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(w.server.log.mutating.isEmpty)
    return w
  }

  static func trashed(_ w: LivePhotoWorld, _ name: String) -> Bool {
    w.server.state.assets.contains { $0.originalFileName == name && $0.isTrashed }
  }

  /// `stream` with its end record changed by `change` and `extra` lines put before it.
  static func edited(
    _ stream: String, extra: [String] = [], _ change: (inout [String: Any]) -> Void
  ) throws -> String {
    var lines = stream.split(separator: "\n").map(String.init)
    try #require(!lines.isEmpty)
    let last = lines.removeLast()
    var end = try #require(
      try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    change(&end)
    let data = try JSONSerialization.data(
      withJSONObject: end, options: [.sortedKeys, .withoutEscapingSlashes])
    lines += extra
    lines.append(String(decoding: data, as: UTF8.self))
    return lines.joined(separator: "\n") + "\n"
  }

  static func scan(_ w: LivePhotoWorld) async throws -> String {
    let scan = try await w.shell("cairn-hash '\(w.library)'")
    #expect(scan.status == 0, "\(scan.stderr)")
    return scan.stdout
  }

  static func reconcileGateTrash(_ w: LivePhotoWorld, _ stream: String, reconcile: String = "")
    async throws -> ToolResult
  {
    let input = try w.dir.file("scan-\(UUID().uuidString).ndjson", stream)
    return try await w.shell(
      "cairn-reconcile\(reconcile) < '\(input)' | cairn-gate | setsid cairn-trash --yes")
  }

  @Test(arguments: versions)
  func aScanWhoseErrorTotalHasNoErrorRecordsIsMalformed(_ version: ImmichVersion) async throws {
    let w = try await Self.world(version)
    defer { Task { await w.stop() } }
    let scan = try await Self.scan(w)
    let total = try Self.edited(scan) { $0["errors"] = 3 }
    let counted = try Self.edited(scan) { end in
      var counts = end["counts"] as? [String: Any] ?? [:]
      counts["errors"] = 3
      end["counts"] = counts
    }
    for (name, stream) in [("errors", total), ("counts.errors", counted)] {
      let run = try await Self.reconcileGateTrash(w, stream)
      #expect(run.status == 65, "\(name): \(run.stderr)")
      #expect(run.stderr.contains("\(name) is 3, but the stream carried 0 error record"))
      #expect(w.server.log.mutating.isEmpty, "\(name)")
      #expect(!Self.trashed(w, "b.jpg"))
    }
  }

  /// A total above zero that its error records bear out: whichever root they name (this
  /// scan's, another, none), and with `--skip-incomplete-roots` too, nothing is trashed.
  @Test(arguments: versions)
  func aScanThatCarriesItsErrorsIsAnIncompleteScan(_ version: ImmichVersion) async throws {
    let w = try await Self.world(version)
    defer { Task { await w.stop() } }
    let scan = try await Self.scan(w)
    let cases: [(String, String?, String)] = [
      ("its root", w.library, ""), ("another root", "/elsewhere", ""),
      ("no root", nil, " --skip-incomplete-roots"),
    ]
    for (name, root, options) in cases {
      let error = ErrorRecord(
        tool: "cairn-hash", message: "Permission denied", path: w.library + "/c.jpg",
        root: root, code: "EACCES")
      let stream = try Self.edited(scan, extra: [error.jsonString()]) { end in
        end["errors"] = 1
        var counts = end["counts"] as? [String: Any] ?? [:]
        counts["errors"] = 1
        end["counts"] = counts
        var records = end["records"] as? [String: Any] ?? [:]
        records["error"] = 1
        end["records"] = records
      }
      let run = try await Self.reconcileGateTrash(w, stream, reconcile: options)
      #expect(run.status == 25, "\(name): \(run.stderr)")
      #expect(run.stderr.contains("incomplete scan"), "\(name): \(run.stderr)")
      #expect(w.server.log.mutating.isEmpty, "\(name)")
      #expect(!Self.trashed(w, "b.jpg"), "\(name)")
    }
  }

  /// The gate's and the trash stage's own input: a total with no error records behind it is
  /// malformed there too, not merely refused.
  @Test(arguments: versions)
  func theGateAndTheTrashStageReadTheTotalAsStrictly(_ version: ImmichVersion) async throws {
    let w = try await Self.world(version)
    defer { Task { await w.stop() } }
    let reconciled = try await w.shell("cairn-hash '\(w.library)' | cairn-reconcile")
    #expect(reconciled.status == 0, "\(reconciled.stderr)")
    let forGate = try w.dir.file(
      "reconciled.ndjson", try Self.edited(reconciled.stdout) { $0["errors"] = 3 })
    let gate = try await w.shell("cairn-gate < '\(forGate)'")
    #expect(gate.status == 65, "\(gate.stderr)")

    let plan = try await w.shell("cairn-hash '\(w.library)' | cairn-reconcile | cairn-gate")
    #expect(plan.status == 0, "\(plan.stderr)")
    let forTrash = try w.dir.file(
      "plan.ndjson", try Self.edited(plan.stdout) { $0["errors"] = 3 })
    let trash = try await w.shell("setsid cairn-trash --yes < '\(forTrash)'")
    #expect(trash.status == 65, "\(trash.stderr)")
    #expect(trash.stderr.contains("errors is 3, but the stream carried 0 error record"))
    #expect(w.server.log.mutating.isEmpty)
    #expect(!Self.trashed(w, "b.jpg"))
  }
}

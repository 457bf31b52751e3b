import CairnSafety
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Trying to get past the threshold and the stream rails from a real library: a mass deletion,
/// wrong and stale overrides, a scan cut short at every stage of the pipeline.
@Suite(.serialized)
struct AdversarialRailTests {
  /// The digest of the refused plan: the last digest the threshold refusal names (a stale
  /// override's refusal names the old digest first, then this plan's).
  func printedDigest(_ run: AdversarialLibrary.Run) throws -> String {
    let line = try #require(
      run.stderr.split(separator: "\n").first { $0.contains("refused by the threshold rail") })
    let words = line.split(whereSeparator: { " ,;".contains($0) }).map(String.init)
    return try #require(words.last { PlanDigest.isWellFormed($0) }, "\(line)")
  }

  @Test func aMassDeletionNeedsTheExactPlansDigest() async throws {
    let lib = AdversarialLibrary()
    let names = (0..<12).map { String(format: "Photos/IMG_%02d.jpg", $0) }
    for name in names { try lib.photo(name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    for name in names.prefix(6) { try lib.remove(name) }

    // 6 of 12 matched is 50%: over 1%, and 6 is not under the floor of 5.
    let refused = try await lib.pipeline(["Photos"])
    #expect(refused.status["gate"] == 25, "\(refused.stderr)")
    #expect(refused.candidateIDs("delete").count == 6)
    #expect(
      refused.stderr.contains(
        "cairn-gate: refused by the threshold rail: 6 candidates are 50.0% of 12 matched assets"))
    #expect(refused.results.isEmpty)
    let sixDigest = try printedDigest(refused)

    let wrong = String(repeating: "ab", count: 32)
    let wrongRun = try await lib.pipeline(["Photos"], gate: "--override-threshold \(wrong)")
    #expect(wrongRun.status["gate"] == 25)
    #expect(
      wrongRun.stderr.contains(
        "--override-threshold names plan \(wrong), but this plan is \(sixDigest)"))
    #expect(lib.mutations.isEmpty)

    // The plan changes after it was approved: the old digest no longer lets anything through.
    try lib.remove(names[6])
    let stale = try await lib.pipeline(["Photos"], gate: "--override-threshold \(sixDigest)")
    #expect(stale.status["gate"] == 25, "\(stale.stderr)")
    #expect(stale.results.isEmpty)
    #expect(lib.mutations.isEmpty)
    let sevenDigest = try printedDigest(stale)
    #expect(sevenDigest != sixDigest)

    // The right digest passes: first a dry run (the first on this partition), then for real.
    let dry = try await lib.pipeline(["Photos"], gate: "--override-threshold \(sevenDigest)")
    #expect(dry.status["gate"] == 0 && dry.status["trash"] == 0, "\(dry.stderr)")
    #expect(lib.mutations.isEmpty)
    let real = try await lib.pipeline(["Photos"], gate: "--override-threshold \(sevenDigest)")
    #expect(real.status["trash"] == 0, "\(real.stderr)")
    #expect(lib.trashed == Set(try names.prefix(7).map { try lib.asset($0).id }))
  }

  /// `cairn-hash` killed part-way is the same, to the next stage, as its output cut short.
  @Test func aStreamCutShortAnywhereIsRefusedAndPoisonsNothing() async throws {
    let lib = AdversarialLibrary()
    let names = (0..<8).map { "Photos/\($0).jpg" }
    for name in names { try lib.photo(name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    try lib.remove(names[0])
    #expect(try await lib.pipeline(["Photos"]).candidateIDs() == [try lib.asset(names[0]).id])
    // One more file vanishes, and only the first lines of the scan get through.
    try lib.remove(names[1])
    let cut = try await lib.pipeline(["Photos"], hashFilter: "head -n 3")
    #expect(cut.status["reconcile"] == 65, "\(cut.stderr)")
    #expect(
      cut.stderr.contains("cairn-reconcile: <stdin>: truncated scan: no end record"),
      "\(cut.stderr)")
    #expect(cut.candidates.isEmpty)
    #expect(cut.results.isEmpty)
    #expect(lib.mutations.isEmpty)

    // Cut between reconcile and gate, and between gate and trash.
    let photos = lib.path("Photos")
    let gateCut = try await lib.shell(
      "cairn-hash '\(photos)' | cairn-reconcile | head -n 3 | cairn-gate")
    #expect(gateCut.status == 25, "\(gateCut.stderr)")
    #expect(
      gateCut.stderr.contains("cairn-gate: refused by the incomplete-stream rail"),
      "\(gateCut.stderr)")
    #expect(gateCut.onlyAbort?["status"] as? Int == 25)
    // Back to one deletion, so the gate's output is a plan cairn-trash would carry out.
    try lib.photo(names[1], onServer: false)
    let trashCut = try await lib.shell(
      "cairn-hash '\(photos)' | cairn-reconcile | cairn-gate -q | head -n 2 | setsid cairn-trash --yes"
    )
    #expect(trashCut.status == 25, "\(trashCut.stderr)")
    #expect(
      trashCut.stderr.contains("cairn-trash: refused by the incomplete-stream rail"),
      "\(trashCut.stderr)")
    #expect(lib.mutations.isEmpty)

    // Nothing was recorded as missing by the cut runs: the next full run trashes exactly the one
    // file that is really gone.
    let full = try await lib.pipeline(["Photos"])
    #expect(full.status["trash"] == 0, "\(full.stderr)")
    #expect(full.candidateIDs() == [try lib.asset(names[0]).id])
    #expect(lib.trashed == [try lib.asset(names[0]).id])
  }
}

import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Trying to make cairn believe a photo is gone when it is not: a vanished volume, a partial
/// scan, a move between roots, a second copy of the same bytes.
@Suite(.serialized)
struct AdversarialScopeTests {
  enum Vanishing: String, CaseIterable, Sendable {
    /// The mount point itself is gone.
    case folderGone
    /// The mount point is there, empty (the volume is not mounted).
    case folderEmpty
    /// The mount point holds only the empty year folders and a stray non-media file.
    case onlyEmptyFoldersAndClutter
  }

  @Test(arguments: Vanishing.allCases)
  func aVanishedLibraryRootProposesNothingAndChangesNothing(_ how: Vanishing) async throws {
    let lib = AdversarialLibrary()
    for name in ["2024/a.jpg", "2024/b.jpg", "2025/c.jpg", "d.jpg", "e.jpg", "f.jpg"] {
      try lib.photo("Volume/" + name)
    }
    try await lib.start()
    defer { Task { await lib.stop() } }
    let seed = try await lib.pipeline(["Volume"])
    #expect(seed.status["trash"] == 0, "\(seed.stderr)")
    // A deletion makes the next run a real one, so an unsafe root would really trash.
    try lib.remove("Volume/d.jpg")
    let dry = try await lib.pipeline(["Volume"])
    #expect(dry.candidateIDs("delete") == [try lib.asset("Volume/d.jpg").id])
    #expect(lib.mutations.isEmpty)

    switch how {
    case .folderGone:
      try FileManager.default.removeItem(atPath: lib.path("Volume"))
    case .folderEmpty:
      try FileManager.default.removeItem(atPath: lib.path("Volume"))
      try FileManager.default.createDirectory(
        atPath: lib.path("Volume"), withIntermediateDirectories: false)
    case .onlyEmptyFoldersAndClutter:
      try FileManager.default.removeItem(atPath: lib.path("Volume"))
      for year in ["2024", "2025"] {
        try FileManager.default.createDirectory(
          atPath: lib.path("Volume/\(year)"), withIntermediateDirectories: true)
      }
      try lib.dir.file("Volume/.DS_Store", "not a photo")
    }
    let run = try await lib.pipeline(["Volume"])
    #expect(run.candidates.isEmpty)
    #expect(run.status["reconcile"] == 25, "\(run.stderr)")
    #expect(run.stderr.contains("incomplete scan: \(lib.path("Volume"))"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").contains { $0.hasPrefix("cairn-reconcile: ") })
    #expect(run.results.isEmpty)
    #expect(lib.mutations.isEmpty)
    #expect(lib.trashed.isEmpty)

    // The volume comes back: nothing was recorded as missing meanwhile, and the one real
    // deletion is still the only candidate.
    for name in ["2024/a.jpg", "2024/b.jpg", "2025/c.jpg", "e.jpg", "f.jpg"] {
      try lib.dir.file("Volume/" + name, contents: AdversarialLibrary.bytes("Volume/" + name))
    }
    let back = try await lib.pipeline(["Volume"])
    #expect(back.status["trash"] == 0, "\(back.stderr)")
    #expect(back.candidateIDs() == [try lib.asset("Volume/d.jpg").id])
    #expect(lib.trashed == [try lib.asset("Volume/d.jpg").id])
  }

  @Test func aRunOverOneYearNeverProposesWhatWasDeletedFromAnother() async throws {
    let lib = AdversarialLibrary()
    for name in ["2024/a.jpg", "2024/b.jpg", "2025/c.jpg", "2025/d.jpg"] {
      try lib.photo("Photos/" + name)
    }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    try lib.remove("Photos/2025/c.jpg")

    let partial = try await lib.pipeline(["Photos/2024"])
    #expect(partial.status["reconcile"] == 0, "\(partial.stderr)")
    #expect(partial.status["trash"] == 0, "\(partial.stderr)")
    #expect(partial.candidates.isEmpty)
    #expect(partial.results.isEmpty)
    #expect(lib.mutations.isEmpty)

    // The deletion is real: a run over the whole library proposes it (a dry run, the first).
    let whole = try await lib.pipeline(["Photos"])
    #expect(whole.candidateIDs() == [try lib.asset("Photos/2025/c.jpg").id])
    #expect(whole.resultIDs("would-trash") == [try lib.asset("Photos/2025/c.jpg").id])
    #expect(lib.mutations.isEmpty)
  }

  /// A file moved from root A to root B is not gone. When the run scans only A, cairn can't see
  /// B, but it remembers where the bytes were last seen: at a path under B, a root this run did
  /// not scan. Nothing proves them gone from there, so the safe answer is no candidate.
  @Test func aFileMovedBetweenRootsIsNeverACandidate() async throws {
    let lib = AdversarialLibrary()
    for name in ["A/x.jpg", "A/a1.jpg", "B/b1.jpg", "B/b2.jpg"] { try lib.photo(name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["A", "B"]).status["trash"] == 0)
    try lib.move("A/x.jpg", "B/moved/x.jpg")

    let both = try await lib.pipeline(["A", "B"])
    #expect(both.status["trash"] == 0, "\(both.stderr)")
    #expect(both.candidates.isEmpty)

    let onlyA = try await lib.pipeline(["A"])
    #expect(onlyA.status["reconcile"] == 0, "\(onlyA.stderr)")
    #expect(onlyA.candidates.isEmpty, "\(onlyA.candidates)")
    #expect(lib.mutations.isEmpty)
    // Once more, now that a dry run has happened on this partition: still nothing.
    let again = try await lib.pipeline(["A"])
    #expect(again.candidates.isEmpty)
    #expect(lib.mutations.isEmpty)

    // Deleted from B as well, and both roots scanned: now it is gone.
    try lib.remove("B/moved/x.jpg")
    let gone = try await lib.pipeline(["A", "B"])
    #expect(gone.candidateIDs("delete") == [try lib.asset("A/x.jpg").id])
  }

  /// The same bytes in two roots, one root unmounted and left out with --skip-incomplete-roots:
  /// deleting the copy in the other root proves nothing about the unmounted one.
  @Test func aCopyOnAnUnmountedRootLeftOutKeepsItsBytes() async throws {
    let lib = AdversarialLibrary()
    try lib.photo("A/x.jpg", label: "shared")
    try lib.photo("B/x-copy.jpg", label: "shared", onServer: false)
    for name in ["A/a1.jpg", "A/a2.jpg", "B/b1.jpg"] { try lib.photo(name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["A", "B"]).status["trash"] == 0)
    try lib.remove("A/a1.jpg")
    #expect(try await lib.pipeline(["A", "B"]).candidateIDs() == [try lib.asset("A/a1.jpg").id])

    try lib.remove("A/x.jpg")
    try FileManager.default.removeItem(atPath: lib.path("B"))
    let run = try await lib.pipeline(["A", "B"], reconcile: "--skip-incomplete-roots")
    #expect(run.status["reconcile"] == 0, "\(run.stderr)")
    #expect(run.candidateIDs() == [try lib.asset("A/a1.jpg").id], "\(run.candidates)")
    // The gate still refuses a run with a vanished root, whatever reconcile was told.
    #expect(run.status["gate"] == 25, "\(run.stderr)")
    #expect(lib.mutations.isEmpty)
  }

  @Test func theSameBytesAtTwoPathsAreNotGoneWhenOneIsDeleted() async throws {
    let lib = AdversarialLibrary()
    try lib.photo("Photos/a.jpg", label: "shared")
    try lib.photo("Photos/backup/a-copy.jpg", label: "shared", onServer: false)
    for name in ["b.jpg", "c.jpg"] { try lib.photo("Photos/" + name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    // Make the partition's first dry run happen, so the next run would trash for real.
    try lib.remove("Photos/c.jpg")
    #expect(try await lib.pipeline(["Photos"]).candidateIDs() == [try lib.asset("Photos/c.jpg").id])

    try lib.remove("Photos/a.jpg")
    let run = try await lib.pipeline(["Photos"])
    #expect(run.status["trash"] == 0, "\(run.stderr)")
    #expect(!run.candidateIDs().contains(try lib.asset("Photos/a.jpg").id))
    #expect(lib.trashed == [try lib.asset("Photos/c.jpg").id])
  }
}

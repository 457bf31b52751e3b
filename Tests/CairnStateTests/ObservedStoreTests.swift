import CairnEngine
import CairnRecords
import CairnStateTestSupport
import CairnTestSupport
import Foundation
import Testing

@testable import CairnState

@Suite struct ObservedStoreTests {
  @Test func recordsChecksumsWithRootsPathsAndTimes() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    let summary = try store.recordScan(
      [file("/lib/a.jpg", "AAA"), file("/lib/b.jpg", "BBB"), file("/lib/copy/a.jpg", "AAA")],
      completeRoots: ["/lib"], at: t0)
    #expect(summary.newChecksums == 2)
    try store.recordScan([file("/lib/a.jpg", "AAA")], completeRoots: [], at: t0 + day)
    let entry = try #require(try store.observed.entry("AAA"))
    #expect(entry.roots == ["/lib"])
    #expect(entry.paths == ["/lib/a.jpg", "/lib/copy/a.jpg"])
    #expect(entry.firstSeen == t0)
    #expect(entry.lastSeen == t0 + day)
    #expect(try store.observed.snapshot().keys.sorted() == ["AAA", "BBB"])
    #expect(try store.observed.contains("BBB") && !store.observed.contains("CCC"))
  }

  @Test func aCompleteScanMovesPathsAPartialScanOnlyAdds() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "AAA")], completeRoots: ["/lib"], at: t0)
    try store.recordScan([file("/lib/x/a.jpg", "AAA")], completeRoots: [], at: t0 + day)
    #expect(try store.observed.entry("AAA")?.paths == ["/lib/a.jpg", "/lib/x/a.jpg"])
    try store.recordScan([file("/lib/y/a.jpg", "AAA")], completeRoots: ["/lib"], at: t0 + 2 * day)
    #expect(try store.observed.entry("AAA")?.paths == ["/lib/y/a.jpg"])
  }

  /// Recording counts a root's paths to skip the stale-path pass when nothing moved; the
  /// paths kept for gone checksums must not hide a move, nor a move across roots be undone.
  @Test func aMoveIsRecordedBesideGoneChecksumsAndAcrossRoots() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan(
      [
        file("/lib/a.jpg", "AAA"), file("/lib/b.jpg", "BBB"), file("/lib/c.jpg", "CCC"),
        file("/other/d.jpg", "DDD", root: "/other"),
      ], completeRoots: ["/lib", "/other"], at: t0)
    // A moves within /lib, B is deleted, C stays, D moves to /lib.
    try store.recordScan(
      [file("/lib/a2.jpg", "AAA"), file("/lib/c.jpg", "CCC"), file("/lib/d.jpg", "DDD")],
      completeRoots: ["/lib", "/other"], at: t0 + day)
    #expect(try store.observed.entry("AAA")?.paths == ["/lib/a2.jpg"])
    #expect(try store.observed.entry("BBB")?.paths == ["/lib/b.jpg"])
    #expect(try store.observed.entry("CCC")?.paths == ["/lib/c.jpg"])
    // Its old path under /other stays a last known place: this scan listed D only in /lib.
    #expect(try store.observed.entry("DDD")?.paths == ["/lib/d.jpg", "/other/d.jpg"])
    // Nothing moved: the counts add up and the paths stay as they are.
    try store.recordScan(
      [file("/lib/a2.jpg", "AAA"), file("/lib/c.jpg", "CCC"), file("/lib/d.jpg", "DDD")],
      completeRoots: ["/lib"], at: t0 + 2 * day)
    #expect(try store.observed.entry("AAA")?.paths == ["/lib/a2.jpg"])
    #expect(try store.observed.entry("BBB")?.paths == ["/lib/b.jpg"])
  }

  @Test func pathsAreRecordedByteForByte() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    let odd = [
      "/lib/quote \"q\".jpg", "/lib/back\\slash.jpg", "/lib/new\nline.jpg",
      "/lib/tab\t.jpg", "/lib/été 🌄.jpg", "/lib/e\u{301}te\u{301}.jpg",
    ]
    try store.recordScan(
      odd.enumerated().map { file($1, "C\($0)", inode: UInt64($0 + 1)) }, completeRoots: ["/lib"],
      at: t0)
    for (index, path) in odd.enumerated() {
      let paths = try #require(try store.observed.entry("C\(index)")).paths
      #expect(paths.map { Array($0.utf8) } == [Array(path.utf8)])
    }
  }

  /// The scan's key table is filled in SQLite's BINARY order; ties keep scan order.
  @Test func scanKeyOrderIsByteOrder() {
    let files = [
      file("/lib/b.jpg", "AAAAAAAAB"), file("/lib/a.jpg", "AAAAAAAAB"),
      file("/lib/e\u{301}.jpg", "Z"), file("/lib/\u{e9}.jpg", "Z"), file("/lib/x.jpg", ""),
      file("/lib/y.jpg", "AAAAAAAA"), file("/lib/a.jpg", "AAAAAAAAB"), file("/lib/z.jpg", "Ä"),
    ]
    let expected = files.indices.sorted { i, j in
      let a = files[i]
      let b = files[j]
      for (p, q) in [(a.checksum, b.checksum), (a.root, b.root), (a.path, b.path)]
      where Array(p.utf8) != Array(q.utf8) {
        return p.utf8.lexicographicallyPrecedes(q.utf8)
      }
      return i < j
    }
    #expect(ScanTable.keyOrder(ScanFiles(files)) == expected)
    #expect(expected.first == 4)  // the empty checksum
  }

  @Test func aChecksumGoneKeepsItsLastKnownPath() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "AAA")], completeRoots: ["/lib"], at: t0)
    try store.recordScan([], completeRoots: ["/lib"], at: t0 + day)
    let entry = try #require(try store.observed.entry("AAA"))
    #expect(entry.paths == ["/lib/a.jpg"])
    #expect(entry.lastSeen == t0)
  }

  @Test func resetForgetsObservationsButKeepsExclusions() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "AAA", inode: 1)], completeRoots: ["/lib"], at: t0)
    try store.exclusions.add(["ZZZ"], reason: "restored", at: t0)
    try store.signals.recordMissing(["AAA"], at: t0)
    try store.signals.union([DeletionConfirmation(checksum: "AAA", confirmedAt: t0, source: "x")])
    try store.observed.reset()
    #expect(try store.observed.count() == 0)
    #expect(try store.signals.missing().isEmpty)
    #expect(try store.signals.confirmations().isEmpty)
    #expect(try store.anchors.all().isEmpty)
    #expect(try store.exclusions.checksums() == ["ZZZ"])
  }

  @Test func importAddsChecksumsWithoutScope() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    #expect(try store.observed.importChecksums(["AAA", "BBB", "AAA"], at: t0) == 2)
    #expect(try store.observed.entry("AAA")?.roots.isEmpty == true)
  }

  @Test func aChecksumSeenAgainIsNoLongerMissingOrSignalled() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "AAA")], completeRoots: ["/lib"], at: t0)
    try store.signals.recordMissing(["AAA"], at: t0 + day)
    try store.signals.union([
      DeletionConfirmation(checksum: "AAA", confirmedAt: t0 + day, source: "freedesktop")
    ])
    let summary = try store.recordScan(
      [file("/lib/b/a.jpg", "AAA")], completeRoots: ["/lib"], at: t0 + 2 * day)
    #expect(summary.reappeared == 1)
    #expect(try store.signals.missing().isEmpty)
    #expect(try store.signals.confirmations().isEmpty)
  }

  @Test func recordingAnUnchangedScanIsQuick() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    let files = (0..<20_000).map { file("/lib/\($0).jpg", "C\($0)", inode: UInt64($0)) }
    try store.recordScan(files, completeRoots: ["/lib"], at: t0)
    let start = Date()
    try store.recordScan(files, completeRoots: ["/lib"], at: t0 + day)
    // Generous: a debug build on a shared machine; the release figure is in BENCHMARKS.md.
    #expect(Date().timeIntervalSince(start) < 10)
    #expect(try store.observed.count() == 20_000)
  }
}

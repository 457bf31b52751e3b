import CairnEngine
import CairnJSON
import CairnRecords
import CairnSealedFiles
import CairnSettings
import CairnStateTestSupport
import CairnSupport
import CairnTestSupport
import Foundation
import GRDB
import Testing

@testable import CairnState

/// Recording a scan by its difference from the last one (`recordDelta`) must leave the store
/// exactly as recording it whole does. Two stores live through the same random history of a
/// library — adds, deletions, renames, moves across roots and inodes, edits and reverts, copies,
/// hard links, paths in both Unicode normalisations, partial scans, imports, signals, resets —
/// one with snapshots, one without; after every step their tables, recording summaries and
/// engine decisions must be equal.
@Suite struct ScanSnapshotTests {
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func deltaRecordingEqualsWholeRecording(seed: UInt64) throws {
    var random = SplitMix(seed: seed)
    var library = RandomLibrary()
    let fixtures = (StoreFixture(), StoreFixture())  // kept: their folders go when they do
    // Half the histories write every snapshot they can as a patch (a small library's changes
    // are rarely small enough for one otherwise).
    let patching = seed % 2 == 1
    let quick = try fixtures.0.open(
      snapshots: ScanSnapshotStore.Options(patches: patching ? .always : .whenSmall))
    let whole = try fixtures.1.open(
      snapshots: ScanSnapshotStore.Options(comparesWithLastScan: false))
    var patched = 0
    var byDifference = 0
    var inPlace = 0
    let steps = 60
    for step in 0..<steps {
      let now = t0 + Double(step) * 3_600
      library.change(&random)
      var complete: Set<String> = ["/a", "/b"]
      let roll = random.below(20)
      if roll == 0 { complete.remove("/b") }  // a partial scan: recorded whole by both
      if roll == 1 {
        for store in [quick, whole] { try store.observed.importChecksums(["I\(step)"], at: now) }
      }
      if roll == 2 {
        let signal = DeletionConfirmation(
          checksum: library.someChecksum(&random), confirmedAt: now, source: "folder")
        for store in [quick, whole] { try store.signals.union([signal]) }
      }
      if roll == 3 && step % 3 == 0 {
        for store in [quick, whole] { try store.observed.reset() }
      }
      let files = library.scan(&random)
      // Every other step, the scan as `ScanInput.read` gives it: the files whose lines the
      // snapshot has, read in place from it.
      let a: ScanRecordingSummary
      if step % 2 == 0, let (read, preloaded) = fixtures.0.readInPlace(files) {
        inPlace += read.parsed.count < read.count ? 1 : 0
        a = try quick.recordScan(read, completeRoots: complete, at: now, preloaded: preloaded)
      } else {
        a = try quick.recordScan(files, completeRoots: complete, at: now)
      }
      if quick.recordedByDifference { byDifference += 1 }
      let b = try whole.recordScan(files, completeRoots: complete, at: now)
      #expect(!whole.recordedByDifference)
      #expect(a == b, "step \(step): summaries")
      if FileManager.default.fileExists(atPath: quick.snapshots.patchPath) {
        patched += 1
      }
      try expectSameTables(quick, whole, "seed \(seed) step \(step)")
      try expectSameDecisions(quick, whole, files: files, complete: complete, now: now)
    }
    // Most steps must have taken the shortcut, or this test proves nothing.
    #expect(byDifference > steps / 2)
    if patching { #expect(patched > steps / 3) }
    #expect(inPlace > steps / 8)
  }

  @Test func aDamagedOrForeignSnapshotIsNotTrusted() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    let files = [file("/lib/a.jpg", "A", inode: 1), file("/lib/b.jpg", "B", inode: 2)]
    try store.recordScan(files, completeRoots: ["/lib"], at: t0)
    try store.recordScan(files, completeRoots: ["/lib"], at: t0 + day)
    #expect(store.recordedByDifference)

    // One byte changed: recorded whole, and a new snapshot written.
    var bytes = try #require(FileManager.default.contents(atPath: store.snapshots.fullPath))
      .map {
        $0
      }
    bytes[bytes.count - 5] ^= 1
    try CairnPaths.writePrivateFile(store.snapshots.fullPath, bytes)
    try store.recordScan(files, completeRoots: ["/lib"], at: t0 + 2 * day)
    #expect(!store.recordedByDifference)
    try store.recordScan(files, completeRoots: ["/lib"], at: t0 + 3 * day)
    #expect(store.recordedByDifference)

    // A change to the observed store made elsewhere ends the snapshot's validity.
    try store.observed.importChecksums(["Z"], at: t0)
    try store.recordScan(files, completeRoots: ["/lib"], at: t0 + 4 * day)
    #expect(!store.recordedByDifference)

    // Other roots, or a root scanned partly, are recorded whole.
    try store.recordScan(files, completeRoots: ["/lib", "/other"], at: t0 + 5 * day)
    #expect(!store.recordedByDifference)
    try store.recordScan(files, completeRoots: [], at: t0 + 6 * day)
    #expect(!store.recordedByDifference)
    try store.recordScan(files, completeRoots: ["/lib", "/other"], at: t0 + 7 * day)
    #expect(store.recordedByDifference)

    // Gone: recorded whole.
    unlink(store.snapshots.fullPath)
    try store.recordScan(files, completeRoots: ["/lib", "/other"], at: t0 + 8 * day)
    #expect(!store.recordedByDifference)
  }

  @Test func theLastScanDatesWhatItListsWithoutRewritingRows() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    let kept = file("/lib/a.jpg", "A", inode: 1)
    let deleted = file("/lib/b.jpg", "B", inode: 2)
    try store.recordScan([kept, deleted], completeRoots: ["/lib"], at: t0)
    try store.recordScan([kept, deleted], completeRoots: ["/lib"], at: t0 + day)
    #expect(store.recordedByDifference)
    try store.recordScan([kept], completeRoots: ["/lib"], at: t0 + 2 * day)
    #expect(store.recordedByDifference)
    let rows = try store.database.read { db in
      try Dictionary(
        uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT checksum, lastSeen FROM observed")
          .map { ($0[0] as String, $0[1] as Double) })
    }
    #expect(rows == ["A": t0.stateValue, "B": (t0 + day).stateValue])
    #expect(try store.observed.entry("A")?.lastSeen == t0 + 2 * day)
    #expect(try store.observed.entry("B")?.lastSeen == t0 + day)
    #expect(
      try store.observed.snapshot().mapValues(\.lastSeen) == ["A": t0 + 2 * day, "B": t0 + day])
    // A partial scan leaves the snapshot as the record of what the last complete one saw.
    try store.recordScan([file("/lib/c.jpg", "C", inode: 3)], completeRoots: [], at: t0 + 3 * day)
    #expect(try store.observed.entry("A")?.lastSeen == t0 + 2 * day)
    #expect(try store.observed.entry("C")?.lastSeen == t0 + 3 * day)
    // A reset forgets it with everything else.
    try store.observed.reset()
    #expect(!FileManager.default.fileExists(atPath: store.snapshots.fullPath))
    #expect(try store.snapshots.row() == nil)
  }

  /// The engine's input is loaded without collecting the absent checksums again only while
  /// the writing connection has changed nothing since the scan was recorded: a write by any
  /// of the stores ends it, without that store having to say so.
  @Test func theRecordedScanIsTrustedUntilAnyWrite() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    let files = ScanFiles([file("/lib/a.jpg", "A", inode: 1), file("/lib/b.jpg", "B", inode: 2)])
    try store.recordScan(files, completeRoots: ["/lib"], at: t0)
    #expect(try store.snapshots.justRecorded(files))
    #expect(try !store.snapshots.justRecorded(ScanFiles([file("/lib/a.jpg", "A", inode: 1)])))
    _ = try store.observed.count()  // a read changes nothing
    #expect(try store.snapshots.justRecorded(files))
    try store.observed.importChecksums(["Z"], at: t0)
    #expect(try !store.snapshots.justRecorded(files))

    try store.recordScan(files, completeRoots: ["/lib"], at: t0 + day)
    #expect(try store.snapshots.justRecorded(files))
    try store.meta.set(.lastReconcileAt, t0 + day)
    #expect(try !store.snapshots.justRecorded(files))

    // A scan of no complete root collects no absent checksums.
    try store.recordScan(files, completeRoots: [], at: t0 + 2 * day)
    #expect(try !store.snapshots.justRecorded(files))
  }

  @Test func aSnapshotThatCannotBeWrittenCostsOnlyTheShortcut() throws {
    let fixtures = (StoreFixture(), StoreFixture())  // kept: their folders go when they do
    let whole = try fixtures.1.open(
      snapshots: ScanSnapshotStore.Options(comparesWithLastScan: false))
    var quick: PartitionStore?
    var byDifference = 0
    let a = file("/lib/a.jpg", "A", inode: 1)
    let b = file("/lib/b.jpg", "B", inode: 2)
    let c = file("/lib/c.jpg", "C", inode: 3)
    let history: [(files: [ScannedFile], failing: Bool)] = [
      ([a, b], false), ([a, b, c], true), ([a, c], false), ([a], false),
    ]
    for (step, run) in history.enumerated() {
      // A store opened with snapshot writes failing, or not, for each run.
      quick?.close()
      let store = try fixtures.0.open(
        snapshots: ScanSnapshotStore.Options(writesFail: run.failing))
      quick = store
      let now = t0 + Double(step) * day
      #expect(
        try store.recordScan(run.files, completeRoots: ["/lib"], at: now)
          == whole.recordScan(run.files, completeRoots: ["/lib"], at: now))
      if store.recordedByDifference { byDifference += 1 }
      try expectSameTables(store, whole, "step \(step)")
    }
    // The failed write left the old snapshot, no longer current: the next scan was recorded
    // whole, the one after by its difference again.
    #expect(byDifference == 2)
  }

  @Test func theSnapshotReadsBackAndRefusesWhatItDidNotWrite() throws {
    var read = file("/a/caf\u{E9}.jpg", "C", root: "/a", inode: 1)
    read.lineDigest = LineDigest(high: 1, low: .max)
    let snapshot = ScanSnapshot.Contents(
      roots: ["/a", "/b"],
      files: [read, file("/b/cafe\u{301}.jpg", "D", root: "/b")],
      absent: ["X", "Y"], sharedIdentities: ["1:1"])
    let bytes = try snapshot.encoded()
    // The content, then its digest.
    let content = Array(bytes.dropLast(8))
    let decoded = try #require(ScanSnapshot.decode(bytes))
    let files = (0..<decoded.count).map(decoded.file)
    #expect(decoded.roots == snapshot.roots)
    #expect(files == Array(snapshot.files))
    #expect(files.map(\.lineDigest) == snapshot.files.map(\.lineDigest))
    #expect(files.map { Array($0.path.utf8) } == snapshot.files.map { Array($0.path.utf8) })
    #expect(decoded.absent == snapshot.absent)
    #expect(decoded.sharedIdentities == snapshot.sharedIdentities)
    #expect(decoded.digest == ScanSnapshot.digest(content) && decoded.length == bytes.count)
    for length in [0, 8, bytes.count / 2, bytes.count - 1] {
      #expect(ScanSnapshot.decode(Array(bytes.prefix(length))) == nil)
    }
    #expect(ScanSnapshot.decode(bytes + [0]) == nil)
    // A byte changed anywhere: the file's own digest refuses it, no database needed.
    for at in [0, content.count / 3, content.count - 1, bytes.count - 1] {
      var damaged = bytes
      damaged[at] ^= 0x10
      #expect(ScanSnapshot.decode(damaged) == nil, "byte \(at)")
    }
    #expect(ScanSnapshot.digest(content) != ScanSnapshot.digest(content.dropLast() + [1]))
    // Fed in pieces of any size, the digest is the same.
    for piece in [1, 3, 8, 13, 64] {
      var digest = SnapshotFile.Digest()
      for start in stride(from: 0, to: content.count, by: piece) {
        content[start..<min(start + piece, content.count)].withUnsafeBytes { digest.update($0) }
      }
      #expect(digest.finish() == ScanSnapshot.digest(content) && digest.length == content.count)
    }
    // Written to a file: the same bytes.
    let directory = TemporaryDirectory("cairn-snapshot")
    let written = try snapshot.write(to: directory.path + "/snapshot")
    #expect(written.length == bytes.count && written.digest == ScanSnapshot.digest(content))
    #expect(FileManager.default.contents(atPath: directory.path + "/snapshot") == Data(bytes))
  }

  @Test func aSnapshotOfSeveralMegabytesIsWrittenInPiecesAndReadsBack() throws {
    // Paths of odd lengths, so that pieces end inside strings and inside words.
    let files = (0..<40_000).map { index in
      file(
        "/lib/" + String(repeating: "d", count: index % 13) + "/IMG_\(index).jpg",
        "checksum-\(index)", inode: UInt64(index))
    }
    let snapshot = ScanSnapshot.Contents(
      roots: ["/lib"], files: files, absent: ["X"], sharedIdentities: ["7:1"])
    let directory = TemporaryDirectory("cairn-snapshot")
    let written = try snapshot.write(to: directory.path + "/snapshot")
    #expect(written.length > 2 << 20)
    let stored = try #require(ScanSnapshot.load(directory.path + "/snapshot"))
    #expect(stored.length == written.length && stored.digest == written.digest)
    #expect((0..<stored.count).map(stored.file) == files)
    #expect(stored.absent == ["X"] && stored.sharedIdentities == ["7:1"])
  }

  @Test func theMergeAndTheDictionaryFindTheSameChanges() throws {
    var random = SplitMix(seed: 42)
    var library = RandomLibrary()
    for _ in 0..<30 { library.change(&random) }
    let before = library.scan(&random)
    for _ in 0..<20 { library.change(&random) }
    let after = library.scan(&random)
    let snapshot = ScanSnapshot.Contents(
      roots: ["/a", "/b"], files: before, absent: [], sharedIdentities: [])
    let bytes = try snapshot.encoded()
    let stored = try #require(ScanSnapshot.decode(bytes))
    let merged = try #require(ScanDelta(files: after, previous: stored))
    let shuffled = Array(after.reversed())
    let matched = try #require(ScanDelta(files: shuffled, previous: stored))
    #expect(!merged.changed.isEmpty && !merged.replaced.isEmpty)
    #expect(
      Set(merged.changed.map { after[$0].path }) == Set(matched.changed.map { shuffled[$0].path }))
    #expect(Set(merged.replaced) == Set(matched.replaced))
    for file in after {
      #expect(merged.file(atPath: file.path).map { after[$0].path } == file.path)
      #expect(matched.file(atPath: file.path).map { shuffled[$0].path } == file.path)
    }
    #expect(merged.file(atPath: "/a/none.jpg") == nil)
    // A path listed twice cannot be compared by path.
    #expect(ScanDelta(files: after + after.prefix(1), previous: stored) == nil)
  }

  @Test func walkOrderIsTheWalkersOrder() {
    // Each folder's entries by name bytes: "0" and its files come before "0-1" ("-" sorts
    // before "/" as a byte, after it as the end of a name).
    let paths = ["/a/0/z.jpg", "/a/0-1/a.jpg", "/a/0.jpg", "/a/1/b.jpg", "/a/10.jpg"]
    for (index, path) in paths.enumerated() {
      for (other, next) in paths.enumerated() {
        let order = path.withBytes { a in next.withBytes { b in ScanDelta.walkOrder(a, b) } }
        #expect(order.signum() == (index - other).signum(), "\(path) vs \(next)")
      }
    }
    // Long shared prefixes (compared eight bytes at a time), a difference at every position.
    func reference(_ a: [UInt8], _ b: [UInt8]) -> Int {
      for (x, y) in zip(a, b) where x != y {
        return (x == 0x2F ? 0 : Int(x) + 1) - (y == 0x2F ? 0 : Int(y) + 1)
      }
      return a.count - b.count
    }
    let base = Array("/photos/2024/summer/holiday/IMG_0001.jpg".utf8)
    for at in base.indices {
      for byte: UInt8 in [0x2F, 0x2D, 0x30, 0x7A, 0xC3] {
        var other = base
        other[at] = byte
        for (a, b) in [(base, other), (other, base), (base, Array(other.prefix(at + 1)))] {
          let order = a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { ScanDelta.walkOrder(x, $0) }
          }
          #expect(order.signum() == reference(a, b).signum(), "at \(at), byte \(byte)")
        }
      }
    }
  }

  private func expectSameTables(
    _ a: PartitionStore, _ b: PartitionStore, _ context: String
  ) throws {
    // Last seen: the row's time, or the last snapshot's when it lists the checksum.
    let left = try a.observed.snapshot().mapValues(\.lastSeen)
    let right = try b.observed.snapshot().mapValues(\.lastSeen)
    #expect(left == right, "\(context): last seen")
    for checksum in left.keys.sorted().prefix(3) {
      #expect(try a.observed.entry(checksum)?.lastSeen == right[checksum], "\(context)")
    }
    let queries = [
      "SELECT checksum, firstSeen FROM observed ORDER BY checksum",
      "SELECT checksum, root, path FROM observedPath ORDER BY checksum, root, path",
      "SELECT * FROM anchor ORDER BY identity",
      "SELECT * FROM missing ORDER BY checksum",
      "SELECT * FROM confirmation ORDER BY checksum",
      "SELECT * FROM deletedVersion ORDER BY lastChecksum, originalChecksum",
    ]
    for sql in queries {
      let left = try a.database.read { db in try Row.fetchAll(db, sql: sql) }
      let right = try b.database.read { db in try Row.fetchAll(db, sql: sql) }
      #expect(left == right, "\(context): \(sql)")
    }
  }

  private func expectSameDecisions(
    _ a: PartitionStore, _ b: PartitionStore, files: [ScannedFile], complete: Set<String>,
    now: Date
  ) throws {
    let roots = ["/a", "/b"].map { root in
      RootStatus(
        path: root, complete: complete.contains(root),
        files: files.filter { $0.root == root }.count)
    }
    let assets = PlainListing(
      Set(files.map(\.checksum)).sorted().map { asset("s-" + $0, $0) }
        + [asset("gone", "G0"), asset("never", "never-seen")])
    let right = try ReconciliationEngine.reconcile(
      try b.reconciliationInput(
        files: files, roots: roots, assets: assets, settings: .defaults, now: now))
    // Loaded right after recording, then as a later stage would (from the snapshot, when it
    // holds this scan).
    for laterStage in [false, true] {
      if laterStage { a.snapshots.invalidate() }
      let left = try ReconciliationEngine.reconcile(
        try a.reconciliationInput(
          files: files, roots: roots, assets: assets, settings: .defaults, now: now))
      #expect(left.candidates == right.candidates)
      #expect(left.gone == right.gone)
      #expect(left.summary == right.summary)
    }
  }
}

import CairnJSON
import CairnRecords
import CairnStateTestSupport
import CairnTestSupport
import Foundation
import GRDB
import Testing

@testable import CairnState

/// A patch over a full scan snapshot must read back as exactly the scan it was made for, be
/// refused over any other full file or when damaged, and be used only when the database
/// names it. (That recording with patches leaves the store as recording without snapshots
/// does is `ScanSnapshotTests.deltaRecordingEqualsWholeRecording`.)
@Suite struct ScanSnapshotPatchTests {
  /// Scans of a randomly changing library, the first as a full file. (Every line digested:
  /// a file whose line is unknown is always listed by the patch, and nothing would be left to
  /// patch from after one scan without digests.)
  private func history(seed: UInt64) throws -> (
    full: [UInt8], stored: ScanSnapshot, later: [[ScannedFile]]
  ) {
    var random = SplitMix(seed: seed)
    var library = RandomLibrary()
    for _ in 0..<40 { library.change(&random) }
    let first = library.scan(&random, digested: true)
    let full = try ScanSnapshot.Contents(
      roots: ["/a", "/b"], files: first, absent: ["X"], sharedIdentities: []
    ).encoded()
    var later: [[ScannedFile]] = []
    for _ in 0..<4 {
      for _ in 0..<6 { library.change(&random) }
      later.append(library.scan(&random, digested: true))
    }
    return (full, try #require(ScanSnapshot.decode(full)), later)
  }

  private func patch(
    _ files: [ScannedFile], over previous: ScanSnapshot, absent: [String] = ["Y", "Z"],
    shared: [String] = ["7:3"], policy: ScanSnapshot.Patch.Policy = .always
  ) throws -> ScanSnapshot.Patch? {
    let delta = try #require(ScanDelta(files: files, previous: previous))
    return ScanSnapshot.Patch(
      ScanSnapshot.Contents(
        roots: ["/a", "/b"], files: files, absent: absent, sharedIdentities: shared),
      over: previous, sources: delta.sources(count: files.count), policy: policy)
  }

  private func expectListing(_ stored: ScanSnapshot, _ files: [ScannedFile]) {
    let read = (0..<stored.count).map(stored.file)
    #expect(read == files)
    #expect(read.map(\.lineDigest) == files.map(\.lineDigest))
    #expect(read.map { Array($0.path.utf8) } == files.map { Array($0.path.utf8) })
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func aPatchReadsBackAsTheScanItWasMadeFor(seed: UInt64) throws {
    let (full, stored, later) = try history(seed: seed)
    var previous = stored
    var sawRun = false
    var sawListed = false
    for files in later {
      // Each patch is made over the last one read back, and over the same full file.
      let bytes = try #require(try patch(files, over: previous)).encoded()
      let patched = try #require(ScanSnapshot.decode(full, patchedWith: bytes))
      expectListing(patched, files)
      #expect(patched.roots == ["/a", "/b"])
      #expect(patched.absent == ["Y", "Z"] && patched.sharedIdentities == ["7:3"])
      #expect(patched.length == bytes.count)
      #expect(patched.digest == ScanSnapshot.digest(Array(bytes.dropLast(8))))
      #expect(patched.full == stored.full)
      // A file taken from the full file is the full file's file at that index.
      for index in 0..<patched.count {
        if let at = patched.fullIndex(index) {
          sawRun = true
          #expect(stored.isSame(at, as: files[index]))
        } else {
          sawListed = true
        }
      }
      previous = patched
    }
    #expect(sawRun && sawListed)
  }

  @Test func aPatchOverAnotherFullFileOrDamagedIsRefused() throws {
    let (full, stored, later) = try history(seed: 9)
    let bytes = try #require(try patch(later[0], over: stored)).encoded()
    #expect(ScanSnapshot.decode(full, patchedWith: bytes) != nil)
    // Another full file (one byte of it changed and its digest made right again).
    var other = Array(full.dropLast(8))
    other[other.count - 5] ^= 1  // the absent checksum's one byte
    other += withUnsafeBytes(of: ScanSnapshot.digest(other).littleEndian, Array.init)
    #expect(ScanSnapshot.decode(other) != nil)
    #expect(ScanSnapshot.decode(other, patchedWith: bytes) == nil)
    // The patch damaged or cut anywhere.
    for at in [0, bytes.count / 3, bytes.count / 2, bytes.count - 9, bytes.count - 1] {
      var damaged = bytes
      damaged[at] ^= 0x10
      #expect(ScanSnapshot.decode(full, patchedWith: damaged) == nil, "byte \(at)")
    }
    for length in [0, 8, bytes.count / 2, bytes.count - 1] {
      #expect(ScanSnapshot.decode(full, patchedWith: Array(bytes.prefix(length))) == nil)
    }
    // A full file is not a patch, nor a patch a full file.
    #expect(ScanSnapshot.decode(full, patchedWith: full) == nil)
    #expect(ScanSnapshot.decode(bytes) == nil)
  }

  @Test func aPatchIsWrittenOnlyForASmallChange() throws {
    let files = (0..<100).map { index in
      var file = file("/a/\(String(format: "%03d", index)).jpg", "C\(index)", root: "/a")
      file.lineDigest = LineDigest(high: UInt64(index + 1), low: 1)
      return file
    }
    let stored = try #require(
      ScanSnapshot.decode(
        try ScanSnapshot.Contents(roots: ["/a"], files: files, absent: [], sharedIdentities: [])
          .encoded()))
    func patch(_ changed: [ScannedFile], _ policy: ScanSnapshot.Patch.Policy)
      -> ScanSnapshot.Patch?
    {
      guard let delta = ScanDelta(files: changed, previous: stored) else { return nil }
      return ScanSnapshot.Patch(
        ScanSnapshot.Contents(roots: ["/a"], files: changed, absent: [], sharedIdentities: []),
        over: stored, sources: delta.sources(count: changed.count), policy: policy)
    }
    func touched(_ count: Int) -> [ScannedFile] {
      files.enumerated().map { index, file in
        var file = file
        if index < count { file.lineDigest = LineDigest(high: 999, low: UInt64(index)) }
        return file
      }
    }
    // An eighth of the files listed by the patch at most, half the full file's kept at least.
    #expect(patch(touched(12), .whenSmall) != nil)
    #expect(patch(touched(13), .whenSmall) == nil)
    #expect(patch(Array(files.prefix(50)), .whenSmall) != nil)
    #expect(patch(Array(files.prefix(49)), .whenSmall) == nil)
    #expect(patch(touched(100), .always) != nil)
    #expect(patch(touched(0), .never) == nil)
    // Other roots: never.
    let elsewhere = try #require(ScanDelta(files: files, previous: stored))
    #expect(
      ScanSnapshot.Patch(
        ScanSnapshot.Contents(roots: ["/a", "/b"], files: files, absent: [], sharedIdentities: []),
        over: stored, sources: elsewhere.sources(count: files.count), policy: .always) == nil)
    // A touched line is listed, with its new digest; an untouched one is a run.
    let bytes = try #require(patch(touched(3), .always)).encoded()
    let patched = try #require(
      ScanSnapshot.decode(
        try ScanSnapshot.Contents(roots: ["/a"], files: files, absent: [], sharedIdentities: [])
          .encoded(), patchedWith: bytes))
    expectListing(patched, touched(3))
    #expect((0..<5).map(patched.fullIndex) == [nil, nil, nil, 3, 4])
  }

  @Test func theDatabaseNamesWhichFileIsRead() throws {
    let (_, _, later) = try history(seed: 11)
    let directory = TemporaryDirectory("cairn-snapshot")
    let fullPath = directory.path + "/" + ScanSnapshot.fileName
    let patchPath = directory.path + "/" + ScanSnapshot.Patch.fileName
    let first = ScanSnapshot.Contents(
      roots: ["/a", "/b"], files: later[0], absent: [], sharedIdentities: [])
    let full = try first.write(to: fullPath)
    let stored = try #require(ScanSnapshot.load(directory: directory.path))
    expectListing(stored, later[0])
    let written = try #require(try patch(later[1], over: stored)).write(to: patchPath)

    // Nothing named (read ahead): the patch over the full file there.
    expectListing(try #require(ScanSnapshot.load(directory: directory.path)), later[1])
    let named = { (file: (length: Int, digest: UInt64)) in
      ScanSnapshot.load(directory: directory.path, naming: file)
    }
    expectListing(try #require(named(written)), later[1])
    // The full file named (the patch was written by a transaction that did not commit).
    expectListing(try #require(named(full)), later[0])
    #expect(named((full.length, full.digest ^ 1)) == nil)
    #expect(named((written.length + 1, written.digest)) == nil)

    // A new full file: the old patch, were it left, is not over it.
    let second = try ScanSnapshot.Contents(
      roots: ["/a", "/b"], files: later[2], absent: [], sharedIdentities: []
    ).write(to: fullPath)
    #expect(named(written) == nil)
    expectListing(try #require(named(second)), later[2])
    expectListing(try #require(ScanSnapshot.load(directory: directory.path)), later[2])
    unlink(fullPath)
    #expect(ScanSnapshot.load(directory: directory.path) == nil && named(second) == nil)
  }

  @Test func aPatchLeftByARunThatDidNotCommitIsNotUsed() throws {
    let fixtures = (StoreFixture(), StoreFixture())  // kept: their folders go when they do
    let (_, _, later) = try history(seed: 12)
    let complete: Set<String> = ["/a", "/b"]
    let store = try fixtures.0.open(snapshots: ScanSnapshotStore.Options(patches: .never))
    try store.recordScan(later[0], completeRoots: complete, at: t0)
    try store.recordScan(later[1], completeRoots: complete, at: t0 + day)
    #expect(store.recordedByDifference)
    #expect(!FileManager.default.fileExists(atPath: store.snapshots.patchPath))

    // The state as it was, and the patch the next recording writes.
    store.close()
    let copy = fixtures.1.paths.partitionDirectory(fixtures.1.partition)
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: store.directory)
    where name != "lock" {
      try FileManager.default.copyItem(
        atPath: store.directory + "/" + name, toPath: copy + "/" + name)
    }
    let reopened = try fixtures.0.open(snapshots: ScanSnapshotStore.Options(patches: .always))
    try reopened.recordScan(later[2], completeRoots: complete, at: t0 + 2 * day)
    #expect(reopened.recordedByDifference)
    #expect(FileManager.default.fileExists(atPath: reopened.snapshots.patchPath))
    try FileManager.default.copyItem(
      atPath: reopened.snapshots.patchPath,
      toPath: copy + "/" + ScanSnapshot.Patch.fileName)

    // The copy's row names the full file: that is what it reads, and it records the same
    // scan by its difference to the same tables.
    let other = try fixtures.1.open()
    let record = try #require(try other.snapshots.row())
    expectListing(try #require(other.snapshots.load(record)), later[1])
    try other.recordScan(later[2], completeRoots: complete, at: t0 + 2 * day)
    #expect(other.recordedByDifference)
    for sql in [
      "SELECT * FROM observed ORDER BY checksum",
      "SELECT * FROM observedPath ORDER BY checksum, root, path",
      "SELECT * FROM anchor ORDER BY identity", "SELECT * FROM confirmation ORDER BY checksum",
    ] {
      #expect(
        try reopened.database.read { try Row.fetchAll($0, sql: sql) }
          == other.database.read { try Row.fetchAll($0, sql: sql) }, "\(sql)")
    }
  }
}

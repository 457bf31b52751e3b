import CairnEngine
import CairnRecords
import CairnStateTestSupport
import CairnTestSupport
import Foundation
import Testing

@testable import CairnState

@Suite struct SignalAndAnchorTests {
  @Test func missingAndConfirmationsAreFirstWriteWins() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    #expect(try store.signals.recordMissing(["AAA"], at: t0) == 1)
    #expect(try store.signals.recordMissing(["AAA", "BBB"], at: t0 + day) == 1)
    #expect(try store.signals.missing() == ["AAA": t0, "BBB": t0 + day])
    try store.signals.union([DeletionConfirmation(checksum: "AAA", confirmedAt: t0, source: "a")])
    let added = try store.signals.union([
      DeletionConfirmation(checksum: "AAA", confirmedAt: t0 + day, source: "b")
    ])
    #expect(added == 0)
    #expect(try store.signals.confirmations()["AAA"]?.confirmedAt == t0)
  }

  @Test func editKeepsTheFirstChecksumAndRetiresIntermediates() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "O", inode: 7)], completeRoots: ["/lib"], at: t0)
    try store.recordScan(
      [file("/lib/a.jpg", "E1", inode: 7)], completeRoots: ["/lib"], at: t0 + day)
    #expect(try store.signals.confirmations().isEmpty)  // the original is protected, not retired
    let reverted = try store.recordScan(
      [file("/lib/a.jpg", "O", inode: 7)], completeRoots: ["/lib"], at: t0 + 2 * day)
    #expect(reverted.retiredEdits == 1)
    #expect(try store.signals.confirmations()["E1"]?.confirmedAt == t0 + 2 * day)
    #expect(try store.signals.confirmations()["E1"]?.source == "edit")
    try store.recordScan(
      [file("/lib/a.jpg", "E2", inode: 7)], completeRoots: ["/lib"], at: t0 + 3 * day)
    let anchors = try store.anchors.all()
    #expect(anchors.map(\.firstChecksum) == ["O"])
    #expect(anchors.map(\.currentChecksum) == ["E2"])
    #expect(try store.signals.confirmations()["O"] == nil)
  }

  @Test func aRenameKeepsTheAnchor() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "O", inode: 7)], completeRoots: ["/lib"], at: t0)
    try store.recordScan(
      [file("/lib/a.jpg", "E1", inode: 7)], completeRoots: ["/lib"], at: t0 + day)
    try store.recordScan(
      [file("/lib/b.jpg", "E1", inode: 7)], completeRoots: ["/lib"], at: t0 + 2 * day)
    let anchor = try #require(try store.anchors.all().first)
    #expect(anchor.firstChecksum == "O")
    #expect(anchor.path == "/lib/b.jpg")
  }

  @Test func aMoveToANewInodeCarriesTheAnchorOver() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan(
      [file("/a/x.jpg", "O", root: "/a", inode: 7)], completeRoots: ["/a"], at: t0)
    try store.recordScan(
      [file("/a/x.jpg", "E1", root: "/a", inode: 7)], completeRoots: ["/a"], at: t0 + day)
    // Copied to another file system and the old one deleted: new inode, same bytes.
    try store.recordScan(
      [file("/b/x.jpg", "E1", root: "/b", inode: 99)], completeRoots: ["/a", "/b"],
      at: t0 + 2 * day)
    let anchors = try store.anchors.all()
    #expect(anchors.count == 1)
    #expect(anchors.first?.identity == FileIdentity(device: 1, inode: 99, path: ""))
    #expect(anchors.first?.firstChecksum == "O")
  }

  /// A card replaced by another in the same reader: the same device number, and the new file
  /// system hands out the old one's inode numbers. Only the volume tells the files apart.
  func onCard(_ path: String, _ checksum: String, inode: UInt64, volume: String) -> ScannedFile {
    ScannedFile(
      root: "/lib", path: path, checksum: checksum,
      identity: FileIdentity(device: 1, inode: inode, volume: volume, path: path))
  }

  @Test func aFileOnAnotherVolumeWithTheSameInodeIsAnotherFile() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan(
      [onCard("/lib/Card/DSC_0.JPG", "OLD", inode: 12, volume: "aaaa")], completeRoots: ["/lib"],
      at: t0)
    try store.recordScan(
      [onCard("/lib/Card/IMG_NEW_0.JPG", "NEW", inode: 12, volume: "bbbb")],
      completeRoots: ["/lib"], at: t0 + day)
    let anchors = try store.anchors.all()
    #expect(anchors.map(\.path) == ["/lib/Card/IMG_NEW_0.JPG"])
    #expect(anchors.map(\.firstChecksum) == ["NEW"], "the old card's photo is no original")
    #expect(try store.signals.confirmations().isEmpty)
  }

  @Test func aPathIsInheritedOnlyOnTheSameVolume() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan(
      [onCard("/lib/Card/DSC_0.JPG", "OLD", inode: 12, volume: "aaaa")], completeRoots: ["/lib"],
      at: t0)
    // The new card names its first photo as the old card did.
    try store.recordScan(
      [onCard("/lib/Card/DSC_0.JPG", "NEW", inode: 13, volume: "bbbb")],
      completeRoots: ["/lib"], at: t0 + day)
    #expect(try store.anchors.all().map(\.firstChecksum) == ["NEW"])
    // On its own volume a new inode at the path is the file saved by rename: an edit.
    try store.recordScan(
      [onCard("/lib/Card/DSC_0.JPG", "EDIT", inode: 14, volume: "bbbb")],
      completeRoots: ["/lib"], at: t0 + 2 * day)
    #expect(try store.anchors.all().map(\.firstChecksum) == ["NEW"])
  }

  /// A state written before files named their volume: the first scan that names it carries
  /// every anchor over, an edited file's by its bytes, a file saved by rename meanwhile by its
  /// path (a key without a volume may be on any volume of its device).
  @Test func anchorsRecordedWithoutAVolumeCarryOver() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan(
      [file("/lib/a.jpg", "A0", inode: 7), file("/lib/b.jpg", "B0", inode: 8)],
      completeRoots: ["/lib"], at: t0)
    try store.recordScan(
      [file("/lib/a.jpg", "A1", inode: 7), file("/lib/b.jpg", "B0", inode: 8)],
      completeRoots: ["/lib"], at: t0 + day)
    try store.recordScan(
      [
        onCard("/lib/a.jpg", "A1", inode: 7, volume: "aaaa"),
        onCard("/lib/b.jpg", "B1", inode: 9, volume: "aaaa"),
      ], completeRoots: ["/lib"], at: t0 + 2 * day)
    let anchors = try store.anchors.all().sorted { $0.path < $1.path }
    #expect(anchors.map(\.firstChecksum) == ["A0", "B0"])
    #expect(anchors.map(\.identity.key) == ["1:7:aaaa", "1:9:aaaa"])
  }

  @Test func deletingTheFileDropsItsAnchor() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "O", inode: 7)], completeRoots: ["/lib"], at: t0)
    try store.recordScan([], completeRoots: [], at: t0 + day)
    #expect(try store.anchors.all().count == 1)  // a partial scan proves nothing
    try store.recordScan([], completeRoots: ["/lib"], at: t0 + day)
    #expect(try store.anchors.all().isEmpty)
  }
}

import CairnWatch
import Foundation
import Testing

/// The judge alone: events in, decisions and settled deletions out, no kernel involved.
struct EventJudgeTests {
  static let root = FolderID(device: 1, inode: 10)
  static let album = FolderID(device: 1, inode: 11)
  static let t0 = Date(timeIntervalSince1970: 1_000_000)

  /// /lib (root 0) holding a.jpg, notes.txt and album/ with b.jpg; /other (root 1) empty.
  static func judge() -> EventJudge {
    var tree = FolderTree(roots: ["/lib", "/other"])
    tree.addRoot(0, id: root)
    tree.addRoot(1, id: FolderID(device: 1, inode: 20))
    tree.addFolder(album, parent: root, name: "album")
    tree.setFile("a.jpg", in: root, .init(inode: 100, changeNanoseconds: 5))
    tree.setFile("b.jpg", in: album, .init(inode: 101, changeNanoseconds: 6))
    return EventJudge(tree: tree, moveWindow: 0.5, settle: 2)
  }

  static func entry(
    _ change: EntryChange, _ folder: FolderID, _ name: String, directory: Bool = false,
    cookie: UInt32 = 0
  ) -> SourceEvent {
    .entry(change, folder: folder, name: name, isDirectory: directory, cookie: cookie)
  }

  func after(_ seconds: Double) -> Date { Self.t0.addingTimeInterval(seconds) }

  @Test func anUnlinkSettlesIntoADeletionWithTheFilesStamp() {
    var judge = Self.judge()
    #expect(judge.judge(Self.entry(.removed, Self.root, "a.jpg"), at: Self.t0).isEmpty)
    #expect(judge.settled(now: after(1)).isEmpty)
    let settled = judge.settled(now: after(2))
    #expect(
      settled == [
        WatchedDeletion(
          path: "/lib/a.jpg", stamp: FileStamp(device: 1, inode: 100, changeNanoseconds: 5),
          at: Self.t0, root: 0, movedOut: false)
      ])
    #expect(judge.settled(now: after(10)).isEmpty)
  }

  @Test func namesTheScanSkipsAreNotDeletions() {
    var judge = Self.judge()
    for name in ["notes.txt", ".pending-1700000000-x.jpg", "._a.jpg", "Thumbs.db"] {
      _ = judge.judge(Self.entry(.removed, Self.root, name), at: Self.t0)
    }
    #expect(judge.settled(now: after(5)).isEmpty)
  }

  @Test func aMoveWithinTheRootsIsARename() {
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.movedFrom, Self.root, "a.jpg", cookie: 7), at: Self.t0)
    let decisions = judge.judge(
      Self.entry(.movedTo, Self.album, "c.jpg", cookie: 7), at: Self.t0,
      stamp: FileStamp(device: 1, inode: 100, changeNanoseconds: 99))
    #expect(decisions == [.renamed(from: "/lib/a.jpg", to: "/lib/album/c.jpg")])
    #expect(judge.expireMoves(now: after(5)).isEmpty)
    #expect(judge.settled(now: after(5)).isEmpty)
    // The renamed file keeps the change time the cache knows (a rename moves only the ctime).
    #expect(judge.tree.file("c.jpg", in: Self.album) == .init(inode: 100, changeNanoseconds: 5))
  }

  @Test func aMoveIntoAFolderWatchedTooLateIsARenameFoundByTheWalk() {
    // `mkdir 2025 && mv a.jpg 2025/`: the move lands before 2025 is watched, so only the
    // walk of 2025 finds the other half, by its inode.
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.movedFrom, Self.root, "a.jpg", cookie: 7), at: Self.t0)
    let year = FolderID(device: 1, inode: 12)
    judge.updateTree { $0.addFolder(year, parent: Self.root, name: "2025") }
    #expect(
      judge.walked(
        into: year, name: "a.jpg", file: FileStamp(device: 1, inode: 999, changeNanoseconds: 5)
      ).isEmpty)
    #expect(
      judge.walked(
        into: year, name: "a.jpg", file: FileStamp(device: 1, inode: 100, changeNanoseconds: 7))
        == [.renamed(from: "/lib/a.jpg", to: "/lib/2025/a.jpg")])
    #expect(judge.expireMoves(now: after(5)).isEmpty)
    #expect(judge.settled(now: after(5)).isEmpty)
  }

  @Test func aMoveWithNoOtherHalfIsAMoveOutDatedWhenItHappened() {
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.movedFrom, Self.root, "a.jpg", cookie: 7), at: Self.t0)
    #expect(judge.expireMoves(now: after(0.2)).isEmpty)
    _ = judge.expireMoves(now: after(0.6))
    let settled = judge.settled(now: after(3))
    #expect(settled.map(\.path) == ["/lib/a.jpg"])
    #expect(settled.first?.movedOut == true && settled.first?.at == Self.t0)
  }

  @Test func aRenameOntoAPhotoIsAnEditNotADeletion() {
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.created, Self.root, ".a.jpg.tmp"), at: Self.t0)
    _ = judge.judge(Self.entry(.movedFrom, Self.root, ".a.jpg.tmp", cookie: 9), at: Self.t0)
    let decisions = judge.judge(
      Self.entry(.movedTo, Self.root, "a.jpg", cookie: 9), at: Self.t0,
      stamp: FileStamp(device: 1, inode: 300, changeNanoseconds: 7))
    #expect(decisions == [.edited(path: "/lib/a.jpg")])
    _ = judge.expireMoves(now: after(5))
    #expect(judge.settled(now: after(5)).isEmpty)
    #expect(judge.tree.file("a.jpg", in: Self.root)?.inode == 300)
  }

  @Test func aRenameIntoAndroidsTrashIsLeftToTheScan() {
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.movedFrom, Self.root, "a.jpg", cookie: 3), at: Self.t0)
    let decisions = judge.judge(
      Self.entry(.movedTo, Self.root, ".trashed-1700000000-a.jpg", cookie: 3), at: Self.t0)
    #expect(decisions == [.androidTrash(path: "/lib/a.jpg")])
    _ = judge.expireMoves(now: after(5))
    #expect(judge.settled(now: after(5)).isEmpty)
  }

  @Test func aFolderMovedOutTakesItsFilesOutOfTheLibrary() {
    var judge = Self.judge()
    _ = judge.judge(
      Self.entry(.movedFrom, Self.root, "album", directory: true, cookie: 4), at: Self.t0)
    let decisions = judge.expireMoves(now: after(1))
    #expect(decisions == [.unwatch([Self.album])])
    let settled = judge.settled(now: after(3))
    #expect(settled.map(\.stamp?.inode) == [101])
    #expect(settled.allSatisfy { $0.movedOut })
  }

  @Test func aRootRemovedCancelsTheUnlinksThatCameBeforeIt() {
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.removed, Self.album, "b.jpg"), at: Self.t0)
    _ = judge.judge(Self.entry(.removed, Self.root, "album", directory: true), at: Self.t0)
    _ = judge.judge(Self.entry(.removed, Self.root, "a.jpg"), at: Self.t0)
    let decisions = judge.judge(.folderDeleted(Self.root), at: after(0.1))
    #expect(decisions == [.gap(.rootRemoved, roots: [0])])
    #expect(judge.settled(now: after(5)).isEmpty)
  }

  @Test(arguments: [
    (SourceEvent.overflow, GapReason.overflow, [0, 1]),
    (SourceEvent.unmounted(album), GapReason.unmounted, [0]),
    (SourceEvent.folderMoved(root), GapReason.rootReplaced, [0]),
  ])
  func gapsConfirmNothingUnsettled(_ event: SourceEvent, _ reason: GapReason, _ roots: [Int]) {
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.removed, Self.root, "a.jpg"), at: Self.t0)
    #expect(judge.judge(event, at: after(1)) == [.gap(reason, roots: roots)])
    #expect(judge.settled(now: after(5)).isEmpty)
  }

  @Test func aFolderRemovedAfterItsFilesConfirmsNoneOfThem() {
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.removed, Self.album, "b.jpg"), at: Self.t0)
    _ = judge.judge(.folderDeleted(Self.album), at: Self.t0)
    let decisions = judge.judge(
      Self.entry(.removed, Self.root, "album", directory: true), at: Self.t0)
    #expect(decisions == [.unwatch([Self.album])])
    #expect(judge.settled(now: after(3)).isEmpty)
    #expect(judge.takeWithheld() == [.folderRemoved(path: "/lib/album", count: 1)])
  }

  @Test func aFileTheWatcherNeverSawHasNoStamp() {
    var judge = Self.judge()
    _ = judge.judge(Self.entry(.removed, Self.root, "unknown.jpg"), at: Self.t0)
    #expect(judge.settled(now: after(3)).map(\.stamp) == [nil])
  }

  @Test func aNewFolderIsWatchedAndANewFileRemembered() {
    var judge = Self.judge()
    #expect(
      judge.judge(Self.entry(.created, Self.root, "2025", directory: true), at: Self.t0)
        == [.watchFolder(parent: Self.root, name: "2025")])
    #expect(
      judge.judge(Self.entry(.created, Self.root, ".dtrash", directory: true), at: Self.t0)
        .isEmpty)
    _ = judge.judge(
      Self.entry(.written, Self.root, "new.jpg"), at: Self.t0,
      stamp: FileStamp(device: 1, inode: 500, changeNanoseconds: 1))
    #expect(judge.tree.file("new.jpg", in: Self.root)?.inode == 500)
  }
}

import CairnWatch
import Foundation
import Testing

/// The judge against tree removals that take their time: a burst of deletions is held while
/// it lasts, and its end says whether it was a removal (the folder or the root went, or the
/// root was emptied) or photos deleted on purpose.
struct TreeRemovalTests {
  static let root = FolderID(device: 1, inode: 10)
  static let t0 = Date(timeIntervalSince1970: 1_000_000)

  /// /lib holding `loose` photos and `folders` folders of `perFolder` photos each.
  static func judge(loose: Int, folders: Int = 0, perFolder: Int = 0) -> EventJudge {
    var tree = FolderTree(roots: ["/lib"])
    tree.addRoot(0, id: root)
    for index in 0..<loose {
      tree.setFile(
        "p\(index).jpg", in: root, .init(inode: UInt64(1000 + index), changeNanoseconds: 1))
    }
    for folder in 0..<folders {
      let id = FolderID(device: 1, inode: UInt64(100 + folder))
      tree.addFolder(id, parent: root, name: "f\(folder)")
      for index in 0..<perFolder {
        tree.setFile(
          "q\(index).jpg", in: id,
          .init(inode: UInt64(100_000 + folder * 1000 + index), changeNanoseconds: 1))
      }
    }
    return EventJudge(tree: tree, moveWindow: 0.5, settle: 2)
  }

  static func unlink(_ name: String, in folder: FolderID = root) -> SourceEvent {
    .entry(.removed, folder: folder, name: name, isDirectory: false, cookie: 0)
  }

  func at(_ seconds: Double) -> Date { Self.t0.addingTimeInterval(seconds) }

  @Test func aSlowRemovalOfARootConfirmsNothingHoweverLongItTakes() {
    // 20,000 photos unlinked over 40 s, one every 2 ms, then the root itself goes.
    var judge = Self.judge(loose: 20_000)
    var confirmed: [WatchedDeletion] = []
    for index in 0..<20_000 {
      let now = at(Double(index) * 0.002)
      _ = judge.judge(Self.unlink("p\(index).jpg"), at: now)
      if index % 100 == 0 { confirmed += judge.settled(now: now) }
    }
    _ = judge.judge(.folderDeleted(Self.root), at: at(40.1))
    confirmed += judge.settled(now: at(60))
    #expect(confirmed.isEmpty)
    #expect(judge.waiting == 0)
  }

  @Test func aRootEmptiedWithoutBeingRemovedConfirmsNothing() {
    // `rm -rf lib/*`, a mirror of an empty source: the folders go with their files, the loose
    // photos one by one, and the root stays.
    var judge = Self.judge(loose: 30, folders: 3, perFolder: 10)
    for index in 0..<30 {
      _ = judge.judge(Self.unlink("p\(index).jpg"), at: at(Double(index) * 0.5))
    }
    for folder in 0..<3 {
      let id = FolderID(device: 1, inode: UInt64(100 + folder))
      for index in 0..<10 { _ = judge.judge(Self.unlink("q\(index).jpg", in: id), at: at(16)) }
      _ = judge.judge(
        .entry(.removed, folder: Self.root, name: "f\(folder)", isDirectory: true, cookie: 0),
        at: at(16))
    }
    #expect(judge.settled(now: at(17)).isEmpty)  // still arriving: held
    #expect(judge.settled(now: at(18.5)).isEmpty)
    let withheld = judge.takeWithheld()
    #expect(withheld.contains(.rootEmptied(root: 0, count: 30)))
    #expect(withheld.filter { if case .folderRemoved = $0 { true } else { false } }.count == 3)
  }

  @Test func aBurstIsHeldUntilItsRootIsQuietThenConfirmed() {
    // A person deleting 10 of 100 photos, one every second: a burst, released only when it
    // has ended, all of it.
    var judge = Self.judge(loose: 100)
    for index in 0..<10 {
      _ = judge.judge(Self.unlink("p\(index).jpg"), at: at(Double(index)))
      #expect(judge.settled(now: at(Double(index) + 0.9)).isEmpty)
    }
    #expect(judge.settled(now: at(10.5)).isEmpty)
    let settled = judge.settled(now: at(11))
    #expect(settled.count == 10)
    #expect(settled.map(\.at) == (0..<10).map { at(Double($0)) })
    #expect(judge.takeWithheld().isEmpty)
  }

  @Test func aSingleDeletionInASmallRootIsConfirmed() {
    var judge = Self.judge(loose: 2)
    _ = judge.judge(Self.unlink("p0.jpg"), at: at(0))
    #expect(judge.settled(now: at(2)).map(\.path) == ["/lib/p0.jpg"])
  }

  @Test func halfARootsPhotosInOneBurstIsAnEmptyingNotAChoice() {
    var judge = Self.judge(loose: 20)
    for index in 0..<10 {
      _ = judge.judge(Self.unlink("p\(index).jpg"), at: at(Double(index) * 0.1))
    }
    #expect(judge.settled(now: at(5)).isEmpty)
    #expect(judge.takeWithheld() == [.rootEmptied(root: 0, count: 10)])
    // The next deletion, after the burst ended, is a burst of its own.
    _ = judge.judge(Self.unlink("p10.jpg"), at: at(10))
    #expect(judge.settled(now: at(12)).map(\.path) == ["/lib/p10.jpg"])
  }

  @Test func aFewDeletionsInASmallLibraryAreAPersonsChoice() {
    // 4 of 7 photos: more than half, but fewer than a root emptied could be told from.
    var judge = Self.judge(loose: 7)
    for index in 0..<4 { _ = judge.judge(Self.unlink("p\(index).jpg"), at: at(Double(index))) }
    #expect(judge.settled(now: at(5)).count == 4)
    #expect(judge.takeWithheld().isEmpty)
  }

  @Test func aGapDuringABurstDropsItAndTheNextBurstStartsAfresh() {
    var judge = Self.judge(loose: 100)
    _ = judge.judge(Self.unlink("p0.jpg"), at: at(0))
    _ = judge.judge(.overflow, at: at(1))
    _ = judge.judge(Self.unlink("p1.jpg"), at: at(1.5))
    #expect(judge.settled(now: at(3.5)).map(\.path) == ["/lib/p1.jpg"])
  }
}

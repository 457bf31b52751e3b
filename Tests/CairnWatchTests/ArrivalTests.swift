import CairnWatch
import Foundation
import Testing

/// The arrivals queue alone (waiting, due, bounded) and the classifier of file systems the
/// kernel's events are blind on.
struct ArrivalTests {
  static let t0 = Date(timeIntervalSince1970: 1_000_000)
  static func stamp(_ inode: UInt64, _ change: Int64 = 1) -> FileStamp {
    FileStamp(device: 1, inode: inode, changeNanoseconds: change)
  }

  @Test func anArrivalIsHashedOnlyOnceItWasLeftAloneForTheQuietTime() {
    var queue = ArrivalQueue(quiet: 1, limit: 10)
    let taken = queue.expect("/lib/a.jpg", root: 0, stamp: Self.stamp(5), at: Self.t0, unwritten: 0)
    #expect(taken)
    #expect(queue.due(Self.t0.addingTimeInterval(0.9)).isEmpty)
    // Written again: its wait starts over.
    let again = queue.expect(
      "/lib/a.jpg", root: 0, stamp: Self.stamp(5, 2), at: Self.t0.addingTimeInterval(0.9),
      unwritten: 0)
    #expect(again)
    #expect(queue.due(Self.t0.addingTimeInterval(1.5)).isEmpty)
    let due = queue.due(Self.t0.addingTimeInterval(1.9))
    #expect(due.map(\.path) == ["/lib/a.jpg"] && due.first?.stamp == Self.stamp(5, 2))
    #expect(queue.pending(device: 1, inode: 5))
    queue.finished("/lib/a.jpg")
    #expect(!queue.pending(device: 1, inode: 5) && queue.count == 0)
  }

  @Test func theQueueIsBoundedWithWhatIsNotYetWrittenAndDropsARoot() {
    var queue = ArrivalQueue(quiet: 0, limit: 3)
    let first = queue.expect("/lib/1.jpg", root: 0, stamp: Self.stamp(1), at: Self.t0, unwritten: 1)
    #expect(first)
    let second = queue.expect(
      "/other/2.jpg", root: 1, stamp: Self.stamp(2), at: Self.t0, unwritten: 1)
    #expect(second)
    let third = queue.expect("/lib/3.jpg", root: 0, stamp: Self.stamp(3), at: Self.t0, unwritten: 1)
    // Two waiting and one unwritten: full.
    #expect(!third)
    let dropped = queue.drop(root: 0)
    #expect(dropped == 1)
    #expect(queue.waiting.keys.sorted() == ["/other/2.jpg"])
  }

  @Test func networkAndFuseFileSystemsAreBlindLocalOnesAreNot() {
    #expect(BlindFileSystems.blind(magic: 0x6969) == "nfs")
    #expect(BlindFileSystems.blind(magic: 0xFF53_4D42) == "cifs")
    #expect(BlindFileSystems.blind(magic: 0xFE53_4D42) == "smb2")
    #expect(BlindFileSystems.blind(magic: 0x6573_5546) == "fuse")
    // f_type is a signed long: CIFS's magic read back negative is still CIFS.
    #expect(BlindFileSystems.blind(magic: Int64(Int32(bitPattern: 0xFF53_4D42))) == "cifs")
    for local: Int64 in [0xEF53, 0x9123_683E, 0x0102_1994, 0x5846_5342, 0x794C_7630] {
      #expect(BlindFileSystems.blind(magic: local) == nil)  // ext4, btrfs, tmpfs, xfs, overlay
    }
    #expect(BlindFileSystems.blind(typeName: "smbfs") == "smbfs")
    #expect(BlindFileSystems.blind(typeName: "macfuse") == "macfuse")
    #expect(BlindFileSystems.blind(typeName: "apfs") == nil)
    // A real local folder (the temporary folder is on a local disk or tmpfs here).
    #expect(BlindFileSystems.fileSystem(at: NSTemporaryDirectory()) == nil)
  }
}

import CairnRecords
import Testing

@Suite struct FileIdentityTests {
  @Test func keysAreDeviceColonInode() {
    let pairs: [(UInt64, UInt64)] = [(0, 0), (2049, 1001), (.max, .max), (1, .max - 1), (10, 9)]
    for (device, inode) in pairs {
      #expect(FileIdentity(device: device, inode: inode, path: "/a").key == "\(device):\(inode)")
    }
  }

  @Test func aNamedVolumeFollowsTheNumbers() {
    let onCard = FileIdentity(device: 2049, inode: 12, volume: "1a3a-ee35", path: "/a")
    #expect(onCard.key == "2049:12:1a3a-ee35")
    #expect(onCard != FileIdentity(device: 2049, inode: 12, volume: "77b0-0c1d", path: "/a"))
    #expect(onCard != FileIdentity(device: 2049, inode: 12, path: "/a"))
  }

  @Test func filesShareAVolumeByItsNameElseByTheirDevice() {
    func id(_ device: UInt64, _ inode: UInt64, _ volume: String? = nil) -> FileIdentity {
      FileIdentity(device: device, inode: inode, volume: volume, path: "/a")
    }
    #expect(id(1, 2, "a").mayShareVolume(with: id(1, 3, "a")))
    #expect(!id(1, 2, "a").mayShareVolume(with: id(1, 3, "b")))
    #expect(id(1, 2, "a").mayShareVolume(with: id(9, 3, "a")), "a stick in another port")
    #expect(id(1, 2).mayShareVolume(with: id(1, 3, "a")), "a key from before volumes were named")
    #expect(!id(1, 2).mayShareVolume(with: id(9, 3)))
    #expect(FileIdentity(key: "path:/a/b").mayShareVolume(with: id(1, 2, "a")))
  }

  @Test func aFileWithoutAnInodeIsKnownByItsPath() {
    #expect(FileIdentity(device: 1, inode: nil, path: "/a/b.jpg").key == "path:/a/b.jpg")
  }
}

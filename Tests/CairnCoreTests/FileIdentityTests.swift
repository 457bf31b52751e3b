import CairnCore
import Testing

@Suite struct FileIdentityTests {
  @Test func keysAreDeviceColonInode() {
    let pairs: [(UInt64, UInt64)] = [(0, 0), (2049, 1001), (.max, .max), (1, .max - 1), (10, 9)]
    for (device, inode) in pairs {
      #expect(FileIdentity(device: device, inode: inode, path: "/a").key == "\(device):\(inode)")
    }
  }

  @Test func aFileWithoutAnInodeIsKnownByItsPath() {
    #expect(FileIdentity(device: 1, inode: nil, path: "/a/b.jpg").key == "path:/a/b.jpg")
  }
}

import CairnTestSupport
import Foundation
import Testing

@testable import CairnHashing

/// Reading a file system's UUID from its first bytes, checked against blkid(8) on images made
/// by mkfs; the FAT serials on hand-made boot sectors.
@Suite("Superblock UUIDs")
struct SuperblockTests {
  static let tools = ["mkfs.ext4", "blkid"].allSatisfy { tool in
    ["/usr/sbin/", "/sbin/", "/usr/bin/"].contains {
      FileManager.default.isExecutableFile(atPath: $0 + tool)
    }
  }

  @Test(
    "an ext4 image's UUID is the one blkid reads",
    .enabled(if: tools, "mkfs.ext4 and blkid are not installed (e2fsprogs, util-linux)"))
  func ext4() async throws {
    let dir = TemporaryDirectory("cairn-superblock")
    let image = dir.path + "/card.img"
    let made = try await Hash.sh(
      "truncate -s 4M '\(image)' && PATH=$PATH:/usr/sbin:/sbin mkfs.ext4 -q -F '\(image)' && "
        + "PATH=$PATH:/usr/sbin:/sbin blkid -o value -s UUID '\(image)'", in: dir)
    #expect(made.status == 0, "\(made.stderr)")
    let expected = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let bytes = try #require(FileManager.default.contents(atPath: image))
    let found = SuperblockID.read(Array(bytes.prefix(SuperblockID.probeLength)))
    #expect(found?.type == "ext")
    #expect(found?.uuid == expected)
    #expect(expected.count == 36)
  }

  @Test("FAT32 and FAT16 serials are read as blkid prints them")
  func fat() {
    var sector = [UInt8](repeating: 0, count: 512)
    sector[510] = 0x55
    sector[511] = 0xAA
    var fat32 = sector
    fat32.replaceSubrange(82..<90, with: Array("FAT32   ".utf8))
    fat32.replaceSubrange(67..<71, with: [0x78, 0x56, 0x34, 0x12])
    #expect(SuperblockID.read(fat32)?.uuid == "1234-5678")
    var fat16 = sector
    fat16.replaceSubrange(54..<62, with: Array("FAT16   ".utf8))
    fat16.replaceSubrange(39..<43, with: [0xEF, 0xBE, 0xAD, 0xDE])
    #expect(SuperblockID.read(fat16)?.uuid == "DEAD-BEEF")
    #expect(SuperblockID.read(sector) == nil, "a boot signature alone names no file system")
    #expect(SuperblockID.read([]) == nil)
  }
}

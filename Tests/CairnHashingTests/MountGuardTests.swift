import Testing

@testable import CairnHashing

/// The mount guard's judgment, without a mount: what a root lost since its last scan.
@Suite("Mount guard")
struct MountGuardTests {
  let root = "/home/u/Photos"

  @Test("mountinfo's mount points, with the kernel's octal escapes undone")
  func parse() {
    let table = MountTable.parse(
      """
      22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
      40 22 253:0 /data/disk /home/u/Photos/My\\040Disk rw - ext4 /dev/vda rw
      41 22 0:5 / /home/u/Photos/back\\134slash rw - tmpfs none rw
      """)
    #expect(table == ["/", "/home/u/Photos/My Disk", "/home/u/Photos/back\\slash"])
  }

  @Test("only mount points strictly under the root count, relative to it")
  func under() {
    let table: Set = ["/", "/home", "/home/u/Photos", "/home/u/Photos/Disk", "/home/u/PhotosX/a"]
    #expect(MountGuard.mountPoints(under: root, in: table) == ["Disk"])
    #expect(MountGuard.mountPoints(under: "/", in: ["/", "/proc"]) == ["proc"])
  }

  func judge(
    _ remembered: MountMemory.Root?, device: UInt64 = 7, mounted: Set<String>,
    files: [String: Int], existing: Set<String> = []
  ) -> (losses: [MountLoss], next: MountMemory.Root) {
    MountGuard.judge(
      root: root, remembered: remembered, device: device, mounted: mounted, files: files
    ) { existing.contains($0) }
  }

  @Test("a first scan loses nothing and remembers the mount points it entered")
  func firstScan() {
    let (losses, next) = judge(nil, mounted: ["Disk", "Skipped"], files: ["Disk": 3])
    #expect(losses.isEmpty)
    #expect(next == MountMemory.Root(device: 7, mounts: ["Disk": 3]))
  }

  @Test("a mount point that is no longer mounted, or is gone, is lost and stays remembered")
  func unmounted() {
    let last = MountMemory.Root(device: 7, mounts: ["Disk": 3, "Gone": 1])
    let (losses, next) = judge(last, mounted: [], files: [:], existing: ["Disk"])
    #expect(losses.map(\.path) == [root + "/Disk", root + "/Gone"])
    #expect(losses.allSatisfy { $0.code == "mount-lost" })
    #expect(losses[0].message.hasPrefix("was a mount point in the last scan and is not one now"))
    #expect(losses[1].message.hasPrefix("was a mount point in the last scan and is missing now"))
    #expect(next == last)
  }

  @Test("a mount point that held files and now holds none is lost; one that held none is not")
  func emptied() {
    let last = MountMemory.Root(device: 7, mounts: ["Disk": 3, "Spare": 0])
    let (losses, next) = judge(last, mounted: ["Disk", "Spare"], files: ["Disk": 0, "Spare": 0])
    #expect(losses.map(\.path) == [root + "/Disk"])
    #expect(losses.first?.message.hasPrefix("mount point held 3 files") == true)
    #expect(next.mounts == ["Disk": 3, "Spare": 0])
  }

  @Test("a root on another device is lost, and the old device is kept until forgotten")
  func deviceChanged() {
    let last = MountMemory.Root(device: 7, mounts: [:])
    let (losses, next) = judge(last, device: 9, mounted: [], files: [:])
    #expect(losses.map(\.code) == ["device-changed"])
    #expect(losses.first?.path == root)
    #expect(next.device == 7)
  }

  @Test("a volume back in place, and a new one, are simply remembered")
  func back() {
    let last = MountMemory.Root(device: 7, mounts: ["Disk": 3])
    let (losses, next) = judge(last, mounted: ["Disk", "New"], files: ["Disk": 2, "New": 5])
    #expect(losses.isEmpty)
    #expect(next.mounts == ["Disk": 2, "New": 5])
  }
}

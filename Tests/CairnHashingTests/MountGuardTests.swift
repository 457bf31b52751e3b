import Foundation
import Testing

@testable import CairnHashing

/// The mount guard's judgment, without a mount: which volumes a root lost since its last scan.
@Suite("Mount guard")
struct MountGuardTests {
  let root = "/home/u/Photos"

  @Test("mountinfo's mounts: point, device, folder, type and source, escapes undone")
  func parse() {
    let table = MountTable.parse(
      """
      22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
      40 22 253:0 /data/disk /home/u/Photos/My\\040Disk rw - ext4 /dev/vda rw
      41 22 0:5 / /home/u/Photos/back\\134slash rw shared:4 master:2 - tmpfs none rw
      42 22 7:0 / /media/card rw - vfat /dev/loop0 rw
      """)
    #expect(
      table.map(\.point) == [
        "/", "/home/u/Photos/My Disk", "/home/u/Photos/back\\slash", "/media/card",
      ])
    #expect(table[1].fsRoot == "/data/disk")
    #expect(table[2].fsType == "tmpfs" && table[2].source == "none")
    #expect(
      table[3].device == 7 << 8 && table[3].fsType == "vfat" && table[3].source == "/dev/loop0")
  }

  @Test("the device number is composed as glibc's makedev does")
  func deviceNumbers() {
    var s = stat()
    #expect(stat("/", &s) == 0)
    let dev = UInt64(s.st_dev)
    let majorLow: UInt64 = (dev >> 8) & 0xFFF
    let majorHigh: UInt64 = (dev >> 32) & 0xFFFF_F000
    let minorLow: UInt64 = dev & 0xFF
    let minorHigh: UInt64 = (dev >> 12) & 0xFFFF_FF00
    #expect(MountTable.device("\(majorLow | majorHigh):\(minorLow | minorHigh)") == dev)
    let expected: UInt64 = (259 << 8) | 1 | (65536 << 12)
    #expect(MountTable.device("259:65537") == expected)
  }

  @Test("the mount holding a path is its longest leading mount point")
  func containing() {
    let entries = ["/", "/home", "/home/u/Photos/Disk"].map {
      MountEntry(point: $0, device: 1, fsRoot: "/", fsType: "ext4", source: "/dev/x")
    }
    let table = Dictionary(uniqueKeysWithValues: entries.map { ($0.point, $0) })
    #expect(
      MountTable.containing("/home/u/Photos/Disk/2024", in: table)?.point == "/home/u/Photos/Disk")
    #expect(MountTable.containing("/home/u/Photos", in: table)?.point == "/home")
    #expect(MountTable.containing("/var", in: table)?.point == "/")
  }

  @Test("only mount points strictly under the root count, relative to it")
  func under() {
    let table: Set = ["/", "/home", "/home/u/Photos", "/home/u/Photos/Disk", "/home/u/PhotosX/a"]
    #expect(MountGuard.mountPoints(under: root, in: table) == ["Disk"])
    #expect(MountGuard.mountPoints(under: "/", in: ["/", "/proc"]) == ["proc"])
  }

  static let cardA = VolumeIdentity(
    device: 1792, fsType: "ext4", source: "/dev/loop0", fsRoot: "/", uuid: "aaaa")
  static let cardB = VolumeIdentity(
    device: 1792, fsType: "ext4", source: "/dev/loop0", fsRoot: "/", uuid: "bbbb")
  static let home = VolumeIdentity(device: 7, fsType: "ext4", source: "/dev/vda", fsRoot: "/")

  func sighting(
    _ mounted: [String: VolumeIdentity], files: [String: Int], volume: VolumeIdentity = home,
    nested: [String] = []
  ) -> VolumeSighting {
    VolumeSighting(
      device: volume.device, volume: volume, files: 10, mounted: mounted, filesUnder: files,
      nested: nested)
  }

  func judge(
    _ remembered: MountMemory.Root?, _ now: VolumeSighting, accepting: Set<String> = [],
    existing: Set<String> = []
  ) -> (absences: [VolumeAbsence], next: MountMemory.Root) {
    MountGuard.judge(root: root, remembered: remembered, now: now, accepting: accepting) {
      existing.contains($0)
    }
  }

  func remembered(_ mounts: [String: MountMemory.Volume]) -> MountMemory.Root {
    MountMemory.Root(
      device: 7, volume: MountMemory.Volume(files: 10, identity: Self.home), mounts: mounts)
  }

  @Test("a first scan loses nothing and remembers the volumes it entered")
  func firstScan() {
    let (absences, next) = judge(
      nil, sighting(["Disk": Self.cardA, "Skipped": Self.cardB], files: ["Disk": 3]))
    #expect(absences.isEmpty)
    #expect(next.mounts == ["Disk": MountMemory.Volume(files: 3, identity: Self.cardA)])
    #expect(next.volume == MountMemory.Volume(files: 10, identity: Self.home))
  }

  @Test("another card at the same place, on the same device number, is a replaced volume")
  func replacedOnTheSameDevice() {
    let last = remembered(["Card": MountMemory.Volume(files: 2, identity: Self.cardA)])
    let (absences, next) = judge(last, sighting(["Card": Self.cardB], files: ["Card": 5]))
    #expect(absences.map(\.kind) == [.replaced])
    #expect(absences.first?.path == root + "/Card")
    #expect(absences.first?.files == 2)
    #expect(absences.first?.was == Self.cardA && absences.first?.now == Self.cardB)
    #expect(next.mounts["Card"] == last.mounts["Card"], "the old card stays remembered")
  }

  @Test("the same card on another device number (another reader) is the same volume")
  func sameCardElsewhere() {
    var moved = Self.cardA
    moved.device = 2049
    moved.source = "/dev/sdc1"
    let last = remembered(["Card": MountMemory.Volume(files: 2, identity: Self.cardA)])
    let (absences, next) = judge(last, sighting(["Card": moved], files: ["Card": 2]))
    #expect(absences.isEmpty)
    #expect(next.mounts["Card"]?.identity == moved)
  }

  @Test("without UUIDs, a different image file behind the loop device is another volume")
  func imageFiles() {
    var first = Self.cardA
    first.uuid = nil
    first.backingFile = "/srv/a.img"
    var second = first
    second.backingFile = "/srv/b.img"
    #expect(!first.isSameVolume(as: second))
    #expect(first.isSameVolume(as: first))
    var bound = first
    bound.fsRoot = "/other"
    #expect(!first.isSameVolume(as: bound), "a bind mount of another folder is another thing")
  }

  @Test("a volume unmounted, or its mount point gone, is away and stays remembered")
  func away() {
    let last = remembered([
      "Disk": MountMemory.Volume(files: 3, identity: Self.cardA),
      "Gone": MountMemory.Volume(files: 1),
    ])
    let (absences, next) = judge(last, sighting([:], files: [:]), existing: ["Disk"])
    #expect(absences.map(\.path) == [root + "/Disk", root + "/Gone"])
    #expect(absences.allSatisfy { $0.kind == .away })
    #expect(absences[0].detail == "is not a mount point now")
    #expect(absences[1].detail == "was a mount point and is missing now")
    #expect(next.mounts == last.mounts)
  }

  @Test("a volume that held files and holds none is emptied; one that held none is not")
  func emptied() {
    let last = remembered([
      "Disk": MountMemory.Volume(files: 3, identity: Self.cardA),
      "Spare": MountMemory.Volume(files: 0, identity: Self.cardB),
    ])
    let (absences, next) = judge(
      last, sighting(["Disk": Self.cardA, "Spare": Self.cardB], files: ["Disk": 0, "Spare": 0]))
    #expect(absences.map(\.kind) == [.emptied])
    #expect(next.mounts["Disk"]?.files == 3)
  }

  @Test("a root on another volume is replaced, and the old volume is kept until accepted")
  func rootReplaced() {
    let last = remembered([:])
    let (absences, next) = judge(last, sighting([:], files: [:], volume: Self.cardB))
    #expect(absences.map(\.kind) == [.replaced])
    #expect(absences.first?.path == root && absences.first?.relative == "")
    #expect(next.volume?.identity == Self.home && next.device == 7)
    let accepted = judge(last, sighting([:], files: [:], volume: Self.cardB), accepting: [""])
    #expect(accepted.next.volume?.identity == Self.cardB)
  }

  @Test("accepting an absence remembers what is there now; the others stay as they were")
  func accepting() {
    let last = remembered([
      "Away": MountMemory.Volume(files: 3, identity: Self.cardA),
      "Card": MountMemory.Volume(files: 2, identity: Self.cardA),
      "Other": MountMemory.Volume(files: 4, identity: Self.cardA),
    ])
    let now = sighting(["Card": Self.cardB], files: ["Card": 6])
    let (absences, next) = judge(last, now, accepting: ["Away", "Card"])
    #expect(absences.map(\.relative) == ["Away", "Card", "Other"])
    #expect(next.mounts["Away"] == nil)
    #expect(next.mounts["Card"] == MountMemory.Volume(files: 6, identity: Self.cardB))
    #expect(next.mounts["Other"] == last.mounts["Other"])
    // Accepted once: the next scan finds nothing to report at those places.
    #expect(judge(next, now).absences.map(\.relative) == ["Other"])
  }

  @Test("a memory from the first format keeps its guard and learns identities")
  func firstFormat() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("scan-mounts.json").path
    try Data(#"{"roots":{"/home/u/Photos":{"device":7,"mounts":{"Disk":3}}},"version":1}"#.utf8)
      .write(to: URL(fileURLWithPath: path))
    let memory = MountMemory.load(from: path)
    let last = try #require(memory.roots[root])
    #expect(last.mounts == ["Disk": MountMemory.Volume(files: 3)])
    #expect(judge(last, sighting([:], files: [:])).absences.map(\.kind) == [.away])
    let back = judge(last, sighting(["Disk": Self.cardA], files: ["Disk": 3]))
    #expect(back.absences.isEmpty)
    #expect(back.next.mounts["Disk"]?.identity == Self.cardA)
  }

  @Test("mounts inside a nested root are that root's: neither judged nor forgotten here")
  func nested() {
    let last = remembered(["Camera/Card": MountMemory.Volume(files: 2, identity: Self.cardA)])
    let (absences, next) = judge(last, sighting([:], files: [:], nested: ["Camera"]))
    #expect(absences.isEmpty)
    #expect(next.mounts == last.mounts)
  }

  @Test("every message that names the acceptance says what it does to the photos")
  func messages() {
    let last = remembered(["Card": MountMemory.Volume(files: 2, identity: Self.cardA)])
    let (absences, _) = judge(last, sighting(["Card": Self.cardB], files: ["Card": 5]))
    let absence = try? #require(absences.first)
    for text in [absence?.scanWarning, absence?.acceptanceStatement].compactMap({ $0 }) {
      #expect(text.contains("candidates for Immich's trash"), "\(text)")
      #expect(text.contains("aaaa") && text.contains("bbbb"), "\(text)")
    }
    #expect(absence?.scanWarning.contains("accept-lost-mount /home/u/Photos/Card") == true)
    #expect(absence?.acceptanceStatement.contains("2 media files") == true)
    #expect(absence?.acceptanceStatement.contains("rails still apply") == true)
  }
}

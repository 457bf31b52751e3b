import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Two real ext4 volumes, attached in turn to the same loop device and mounted at the same
/// place under a library root: the device number is the same, so only the file system's
/// identity tells them apart. The second card must not make the first card's photos
/// candidates; a deletion elsewhere in the root still propagates; accepting the new card says
/// how many photos it exposes, and the rails still hold. Needs root, loop devices, mkfs.ext4
/// and losetup; skipped with a message elsewhere.
@Suite(
  .serialized,
  .enabled(
    if: LoopVolume.allowed, "loop devices are not usable here (needs root, losetup, mkfs.ext4)"))
struct VolumeIdentityTests {
  @Test func anotherCardOnTheSameLoopDeviceIsNotTheFirstCardEmptied() async throws {
    try await LoopVolume.takingTurns {
      try await anotherCardOnTheSameLoopDeviceIsNotTheFirstCardEmptiedAlone()
    }
  }

  func anotherCardOnTheSameLoopDeviceIsNotTheFirstCardEmptiedAlone() async throws {
    let lib = AdversarialLibrary()
    for name in ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg", "g.jpg"] {
      try lib.photo("Photos/" + name)
    }
    let first = try LoopVolume.make(lib.path("first.img"))
    let second = try LoopVolume.make(lib.path("second.img"))
    #expect(first.uuid != second.uuid)
    let card = lib.path("Photos/Card")
    try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: false)
    let device = try LoopVolume.attach(first.image)
    defer { LoopVolume.cleanUp(mountPoint: card, device: device) }
    try LoopVolume.run("/bin/mount", [device, card])
    // Six photos on the first card: more than the floor, so the threshold decides for them.
    let cardPhotos = (1...6).map { "Photos/Card/IMG_000\($0).jpg" }
    for name in cardPhotos { try lib.photo(name) }

    try await lib.start()
    defer { Task { await lib.stop() } }
    let seed = try await lib.pipeline(["Photos"])
    #expect(seed.status["trash"] == 0, "\(seed.stderr)")

    // The second card in the same reader: same loop device, same device number.
    try LoopVolume.run("/bin/umount", [card])
    try LoopVolume.swap(device, to: second.image)
    try LoopVolume.run("/bin/mount", [device, card])
    try lib.photo("Photos/Card/IMG_0100.jpg")
    try lib.remove("Photos/a.jpg")

    let scan = try await lib.shell("cairn-hash Photos")
    #expect(scan.status == 0, "\(scan.stderr)")
    let roots = try scan.records(ofType: "end").first?["roots"] as? [[String: Any]]
    let outOfScope = roots?.first?["outOfScope"] as? [[String: Any]]
    #expect(outOfScope?.first?["path"] as? String == card)
    #expect(outOfScope?.first?["problem"] as? String == "volume replaced")
    #expect(outOfScope?.first?["files"] as? Int == 6)
    #expect(scan.stderr.contains(first.uuid) && scan.stderr.contains(second.uuid), "\(scan.stderr)")
    // Not part of the library until accepted: the second card's files are not listed.
    let listed = try scan.records(ofType: "file").compactMap { $0["path"] as? String }
    #expect(!listed.contains { $0.hasPrefix(card + "/") }, "\(listed)")

    let firstCard = Set(try cardPhotos.map { try lib.asset($0).id })
    let deleted = try lib.asset("Photos/a.jpg").id
    for _ in 0..<2 {
      let run = try await lib.pipeline(["Photos"])
      #expect(run.status["reconcile"] == 0, "\(run.stderr)")
      #expect(Set(run.candidateIDs()).isDisjoint(with: firstCard), "\(run.candidates)")
      #expect(lib.trashed.isDisjoint(with: firstCard))
    }
    #expect(lib.trashed == [deleted])

    // The first card back for a night: the second card's photo, never part of the library, is
    // no deletion.
    func insert(_ volume: LoopVolume.Volume) throws {
      try LoopVolume.run("/bin/umount", [card])
      try LoopVolume.swap(device, to: volume.image)
      try LoopVolume.run("/bin/mount", [device, card])
    }
    try insert(first)
    let firstBack = try await lib.pipeline(["Photos"])
    #expect(firstBack.status["hash"] == 0, "\(firstBack.stderr)")
    #expect(firstBack.candidateIDs().isEmpty, "\(firstBack.candidates)")
    #expect(lib.trashed == [deleted])
    try insert(second)

    // Accepting the second card: the statement first, with the count, and a question.
    let asked = try await lib.shell("cairn-hash accept-lost-mount Photos/Card </dev/null")
    #expect(asked.status == 25, "\(asked.stderr)")
    #expect(asked.stderr.contains("6 media files"), "\(asked.stderr)")
    #expect(asked.stderr.contains("candidates for Immich's trash"))
    #expect(asked.stderr.contains("rails still apply"))
    let accepted = try await lib.shell("cairn-hash accept-lost-mount Photos/Card --yes")
    #expect(accepted.status == 0, "\(accepted.stderr)")

    // Now the first card's photos are candidates, every one as the acceptance said, and the
    // threshold rail refuses the plan. (The second card's photo has the device and inode
    // number the first card's first photo had: another volume's file all the same, never
    // that photo edited.)
    let after = try await lib.pipeline(["Photos"])
    #expect(Set(after.candidateIDs()) == firstCard, "\(after.stderr)")
    #expect(after.status["gate"] == 25, "\(after.stderr)")
    #expect(after.stderr.contains("threshold"), "\(after.stderr)")
    #expect(lib.trashed == [deleted])
  }
}

/// A file's identity followed by device and inode never crosses to another volume.
/// Card A's three photos and card B's three files have the same inode numbers on the same
/// device (a fresh file system hands them out in the same order), and one of B's has the path
/// one of A's had. Not accepted, B is out of scope and A's deletions still propagate when A is
/// back; accepted, exactly A's remaining photos become candidates and are trashed, nothing on
/// B is taken for A's file (identity, edit anchor, replace by rename), and B's own deletions
/// and renames are B's.
@Suite(
  .serialized,
  .enabled(
    if: LoopVolume.allowed, "loop devices are not usable here (needs root, losetup, mkfs.ext4)"))
struct VolumeCrossingTests {
  /// The inode number of the file at `path`.
  func inode(_ path: String) throws -> UInt64 {
    let number = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber]
    return try #require((number as? NSNumber)?.uint64Value)
  }

  /// Runs the pipeline until `ids` are trashed (the first run with candidates may be a dry
  /// run), each run proposing nothing but `ids`.
  func trashExactly(_ ids: Set<String>, _ lib: AdversarialLibrary) async throws {
    for _ in 0..<3 where !ids.isSubset(of: lib.trashed) {
      let run = try await lib.pipeline(["Photos"])
      #expect(run.candidateIDs() == ids, "\(run.stderr)")
    }
    #expect(ids.isSubset(of: lib.trashed))
  }

  @Test func aNewCardInTheSameReaderNeverInheritsTheOldCardsPhotos() async throws {
    try await LoopVolume.takingTurns {
      try await aNewCardInTheSameReaderNeverInheritsTheOldCardsPhotosAlone()
    }
  }

  func aNewCardInTheSameReaderNeverInheritsTheOldCardsPhotosAlone() async throws {
    let lib = AdversarialLibrary()
    for name in ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg", "g.jpg"] {
      try lib.photo("Photos/" + name)
    }
    let cardA = try LoopVolume.make(lib.path("a.img"))
    let cardB = try LoopVolume.make(lib.path("b.img"))
    let card = lib.path("Photos/Card")
    try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: false)
    let device = try LoopVolume.attach(cardB.image)
    defer { LoopVolume.cleanUp(mountPoint: card, device: device) }
    func insert(_ volume: LoopVolume.Volume) throws {
      try LoopVolume.run("/bin/umount", [card])
      try LoopVolume.swap(device, to: volume.image)
      try LoopVolume.run("/bin/mount", [device, card])
    }

    // Card B's files first, while the server learns them too; then card A in the reader.
    try LoopVolume.run("/bin/mount", [device, card])
    let bNames = ["IMG_NEW_0.JPG", "DSC_2.JPG", "IMG_NEW_1.JPG"]
    var onB: [String: Scenario.Asset] = [:]
    var bInodes: [UInt64] = []
    for name in bNames {
      onB[name] = try #require(try lib.photo("Photos/Card/" + name, label: "card B " + name))
      bInodes.append(try inode(card + "/" + name))
    }
    try insert(cardA)
    var onA: [String: Scenario.Asset] = [:]
    var aInodes: [UInt64] = []
    for name in ["DSC_0.JPG", "DSC_1.JPG", "DSC_2.JPG"] {
      onA[name] = try #require(try lib.photo("Photos/Card/" + name, label: "card A " + name))
      aInodes.append(try inode(card + "/" + name))
    }
    // What makes the case: the same inode numbers on the same device.
    try #require(aInodes == bInodes)
    func id(_ assets: [String: Scenario.Asset], _ name: String) throws -> String {
      try #require(assets[name]).id
    }

    try await lib.start()
    defer { Task { await lib.stop() } }
    let seed = try await lib.pipeline(["Photos"])
    #expect(seed.status["trash"] == 0, "\(seed.stderr)")
    let records = try await lib.shell("cairn-hash Photos")
    let onCard = try records.records(ofType: "file").filter {
      ($0["path"] as? String)?.hasPrefix(card + "/") == true
    }
    #expect(onCard.count == 3 && onCard.allSatisfy { $0["vol"] as? String == cardA.uuid })

    // Not accepted: card B is out of scope, and proposes nothing.
    try insert(cardB)
    let away = try await lib.pipeline(["Photos"])
    #expect(away.status["reconcile"] == 0, "\(away.stderr)")
    #expect(away.candidateIDs().isEmpty, "\(away.candidates)")
    // Card A back for a night, one photo deleted on it: that deletion, and nothing else.
    try insert(cardA)
    try lib.remove("Photos/Card/DSC_1.JPG")
    try await trashExactly([try id(onA, "DSC_1.JPG")], lib)

    // Card B accepted in A's place: A's two remaining photos, as the statement says.
    try insert(cardB)
    let accepted = try await lib.shell("cairn-hash accept-lost-mount --yes Photos/Card")
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(accepted.stderr.contains("2 media files"), "\(accepted.stderr)")
    try await trashExactly([try id(onA, "DSC_0.JPG"), try id(onA, "DSC_2.JPG")], lib)
    #expect(lib.trashed.isDisjoint(with: onB.values.map(\.id)))

    // No photo of card B is the original or a version of one of card A's.
    for name in ["DSC_0.JPG", "DSC_2.JPG"] {
      let checksum = try #require(onA[name]).checksum
      let shown = try await lib.shell("cairn-observe show '\(checksum)'")
      #expect(shown.status == 0, "\(shown.stderr)")
      #expect(!shown.stdout.contains("edit anchor"), "\(name): \(shown.stdout)")
    }
    let newFirst = try await lib.shell("cairn-observe show Photos/Card/IMG_NEW_0.JPG")
    #expect(
      newFirst.stdout.contains("first \(try #require(onB["IMG_NEW_0.JPG"]).checksum),"),
      "\(newFirst.stdout)")

    // Card B's own life: a rename is no deletion, a deletion trashes that photo alone.
    try lib.move("Photos/Card/IMG_NEW_1.JPG", "Photos/Card/IMG_NEW_1b.JPG")
    let renamed = try await lib.pipeline(["Photos"])
    #expect(renamed.candidateIDs().isEmpty, "\(renamed.candidates)")
    let before = lib.trashed
    try lib.remove("Photos/Card/IMG_NEW_0.JPG")
    try await trashExactly([try id(onB, "IMG_NEW_0.JPG")], lib)
    #expect(lib.trashed == before.union([try id(onB, "IMG_NEW_0.JPG")]))
  }
}

/// The card's folder once scanned as a root of its own, and the library above it: accepting
/// the new card at that place is remembered for both, so the next scan of the library lists
/// the new card, as the acceptance announced, instead of keeping it out of scope.
@Suite(
  .serialized,
  .enabled(
    if: LoopVolume.allowed, "loop devices are not usable here (needs root, losetup, mkfs.ext4)"))
struct NestedRootAcceptanceTests {
  @Test func anAcceptanceHoldsForEveryRootThatRemembersThePlace() async throws {
    try await LoopVolume.takingTurns {
      try await anAcceptanceHoldsForEveryRootThatRemembersThePlaceAlone()
    }
  }

  func anAcceptanceHoldsForEveryRootThatRemembersThePlaceAlone() async throws {
    let lib = AdversarialLibrary()
    try lib.photo("Photos/a.jpg")
    let first = try LoopVolume.make(lib.path("first.img"))
    let second = try LoopVolume.make(lib.path("second.img"))
    let card = lib.path("Photos/Card")
    try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: false)
    let device = try LoopVolume.attach(first.image)
    defer { LoopVolume.cleanUp(mountPoint: card, device: device) }
    try LoopVolume.run("/bin/mount", [device, card])
    try lib.photo("Photos/Card/DSC_0.JPG")
    #expect(try await lib.shell("cairn-hash Photos/Card > /dev/null").status == 0)
    #expect(try await lib.shell("cairn-hash Photos > /dev/null").status == 0)

    try LoopVolume.run("/bin/umount", [card])
    try LoopVolume.swap(device, to: second.image)
    try LoopVolume.run("/bin/mount", [device, card])
    try lib.photo("Photos/Card/IMG_NEW_0.JPG")
    let accepted = try await lib.shell("cairn-hash accept-lost-mount --yes Photos/Card")
    #expect(accepted.status == 0, "\(accepted.stderr)")

    for root in ["Photos", "Photos/Card"] {
      let scan = try await lib.shell("cairn-hash \(root)")
      #expect(scan.status == 0, "\(root): \(scan.stderr)")
      #expect(!scan.stderr.contains("volume replaced"), "\(root): \(scan.stderr)")
      let listed = try scan.records(ofType: "file").compactMap { $0["path"] as? String }
      #expect(listed.contains(card + "/IMG_NEW_0.JPG"), "\(root): \(listed)")
    }
  }
}

/// An ext4 image and the loop device it is attached to, for the tests that need a volume.
enum LoopVolume {
  static let sbin = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]

  /// Whether this process can make, attach and mount a volume, found by trying.
  static let allowed: Bool = {
    guard getuid() == 0, tool("mkfs.ext4") != nil, tool("losetup") != nil else { return false }
    let dir = TemporaryDirectory("cairn-loop-probe")
    guard let volume = try? make(dir.path + "/probe.img"),
      let device = try? attach(volume.image)
    else { return false }
    let point = dir.path + "/point"
    mkdir(point, 0o700)
    defer { cleanUp(mountPoint: point, device: device) }
    return (try? run("/bin/mount", [device, point])) != nil
  }()

  struct Volume {
    var image: String
    var uuid: String
  }

  /// A new 8 MiB ext4 image at `image`, with its UUID as blkid reads it.
  static func make(_ image: String) throws -> Volume {
    try run("/usr/bin/truncate", ["-s", "8M", image])
    try run(tool("mkfs.ext4") ?? "mkfs.ext4", ["-q", "-F", image])
    let uuid = try output(tool("blkid") ?? "blkid", ["-o", "value", "-s", "UUID", image])
    return Volume(image: image, uuid: uuid)
  }

  /// Attaches `image` to a free loop device; returns the device.
  static func attach(_ image: String) throws -> String {
    try output(tool("losetup") ?? "losetup", ["-f", "--show", image])
  }

  /// Runs `body` while no other test here or in another process on this machine uses a loop
  /// device: a card swap frees its device for a moment, and a test attaching a volume then
  /// (`losetup -f`) would take it. Waits without holding a thread of the pool.
  static func takingTurns(_ body: () async throws -> Void) async throws {
    let fd = open("/tmp/cairn-tests-loop-devices.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    defer { if fd >= 0 { close(fd) } }  // closing lets go of the lock
    while fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0 {
      try await Task.sleep(for: .milliseconds(100))
    }
    try await body()
  }

  /// Detaches `device` and attaches `image` to the same device: another card in the same
  /// reader. The kernel finishes a detach only when the last opener closes the device (a
  /// probe of the unmounted volume may still hold it), and until then the attach fails as
  /// busy, so it is tried again for a while.
  static func swap(_ device: String, to image: String) throws {
    let losetup = tool("losetup") ?? "losetup"
    try run(losetup, ["-d", device])
    let deadline = Date() + 20
    while (try? run(losetup, [device, image])) == nil {
      // The last try's own error says why, if the device never comes free.
      guard Date() < deadline else { return try run(losetup, [device, image]) }
      Thread.sleep(forTimeInterval: 0.1)
    }
  }

  /// Unmounts whatever is at `mountPoint` and detaches `device`, whatever the test left.
  static func cleanUp(mountPoint: String, device: String) {
    for _ in 0..<4 { if (try? run("/bin/umount", ["-l", mountPoint])) == nil { break } }
    _ = try? run(tool("losetup") ?? "losetup", ["-d", device])
  }

  static func tool(_ name: String) -> String? {
    sbin.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static func run(_ tool: String, _ arguments: [String]) throws {
    _ = try output(tool, arguments)
  }

  /// Runs `tool` and returns its standard output, trimmed; throws when it fails.
  @discardableResult
  static func output(_ tool: String, _ arguments: [String]) throws -> String {
    let path = tool.hasPrefix("/") ? tool : (Self.tool(tool) ?? tool)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    let errors = Pipe()
    process.standardOutput = pipe
    process.standardError = errors
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    // The tools here say a line or two on stderr: no pipe fills while stdout is read.
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ToolRunner.Failure(
        "\(path) \(arguments.joined(separator: " ")) failed: "
          + message.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

import CairnCore
import CairnTestSupport
import Foundation
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

    // Now the first card's photos are candidates, and the threshold rail refuses the plan.
    // (The second card's photo has the device and inode number the first card's first photo
    // had, so it is taken as that file edited, whose original is kept: the conservative
    // reading. The other five have nothing to keep them.)
    let after = try await lib.pipeline(["Photos"])
    let proposed = Set(after.candidateIDs())
    #expect(proposed.isSubset(of: firstCard), "\(after.stderr)")
    #expect(!proposed.contains(try lib.asset("Photos/Card/IMG_0100.jpg").id))
    #expect(proposed.isSuperset(of: try cardPhotos.dropFirst().map { try lib.asset($0).id }))
    #expect(after.status["gate"] == 25, "\(after.stderr)")
    #expect(after.stderr.contains("threshold"), "\(after.stderr)")
    #expect(lib.trashed == [deleted])
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

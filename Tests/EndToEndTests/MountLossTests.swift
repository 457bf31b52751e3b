import CairnCore
import CairnTestSupport
import Foundation
import Testing

/// A real bind mount under a library root, lost between two runs of the whole pipeline: the
/// photos it held must not read as deleted. Needs the right to mount (root in a mount
/// namespace); skipped with a message elsewhere.
@Suite(
  .serialized,
  .enabled(if: BindMount.allowed, "bind mounts are not allowed here (needs root and CAP_SYS_ADMIN)")
)
struct MountLossTests {
  enum Loss: String, CaseIterable, Sendable {
    /// The volume is unmounted: an empty folder is left.
    case unmounted
    /// Another, empty file system is mounted in its place.
    case emptyVolumeMounted
  }

  @Test(arguments: Loss.allCases)
  func aLostMountUnderARootProposesNothingAndNamesTheMountPoint(_ loss: Loss) async throws {
    let lib = AdversarialLibrary()
    for name in ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg", "g.jpg"] {
      try lib.photo("Photos/" + name)
    }
    // Two photos on the "disk", grafted into the library by a bind mount.
    for name in ["x.jpg", "y.jpg"] {
      try lib.photo("Disk/" + name, label: "Photos/Disk/" + name)
    }
    try FileManager.default.createDirectory(
      atPath: lib.path("Photos/Disk"), withIntermediateDirectories: false)
    let mountPoint = lib.path("Photos/Disk")
    try BindMount.mount(lib.path("Disk"), on: mountPoint)
    defer { BindMount.unmountAll(mountPoint) }

    try await lib.start()
    defer { Task { await lib.stop() } }
    let seed = try await lib.pipeline(["Photos"])
    #expect(seed.status["trash"] == 0, "\(seed.stderr)")
    try lib.remove("Photos/d.jpg")
    let dry = try await lib.pipeline(["Photos"])
    #expect(dry.candidateIDs("delete") == [try lib.asset("Photos/d.jpg").id], "\(dry.stderr)")
    #expect(lib.mutations.isEmpty)

    try BindMount.unmount(mountPoint)
    if loss == .emptyVolumeMounted {
      try FileManager.default.createDirectory(
        atPath: lib.path("Empty"), withIntermediateDirectories: false)
      try BindMount.mount(lib.path("Empty"), on: mountPoint)
    }
    let scan = try await lib.shell("cairn-hash Photos")
    #expect(scan.status == 1, "\(scan.stderr)")
    let errors = try scan.records(ofType: "error")
    #expect(errors.count == 1)
    #expect(errors.first?["path"] as? String == mountPoint)
    #expect(errors.first?["code"] as? String == "mount-lost")
    let roots = try scan.records(ofType: "end").first?["roots"] as? [[String: Any]]
    #expect(roots?.first?["complete"] as? Bool == false)
    #expect(roots?.first?["problem"] as? String == "mount lost")

    // The whole pipeline, twice: the loss is remembered, not reported once and then believed.
    for _ in 0..<2 {
      let run = try await lib.pipeline(["Photos"])
      #expect(run.candidates.isEmpty, "\(run.candidates)")
      #expect(run.status["hash"] == 1)
      #expect(run.status["reconcile"] == 25, "\(run.stderr)")
      #expect(run.stderr.contains("cairn-hash: \(mountPoint): "), "\(run.stderr)")
      #expect(lib.mutations.isEmpty)
      #expect(lib.trashed.isEmpty)
    }

    // The disk comes back: the one real deletion is still the only candidate.
    if loss == .emptyVolumeMounted { try BindMount.unmount(mountPoint) }
    try BindMount.mount(lib.path("Disk"), on: mountPoint)
    let back = try await lib.pipeline(["Photos"])
    #expect(back.status["trash"] == 0, "\(back.stderr)")
    #expect(back.candidateIDs() == [try lib.asset("Photos/d.jpg").id])
    #expect(lib.trashed == [try lib.asset("Photos/d.jpg").id])
  }

  @Test func forgettingMountsAcceptsTheLossOnce() async throws {
    let dir = TemporaryDirectory("cairn-mount")
    try dir.file("Photos/a.jpg", "a")
    try dir.file("Disk/x.jpg", "x")
    try FileManager.default.createDirectory(
      atPath: dir.path + "/Photos/Disk", withIntermediateDirectories: false)
    try BindMount.mount(dir.path + "/Disk", on: dir.path + "/Photos/Disk")
    defer { BindMount.unmountAll(dir.path + "/Photos/Disk") }
    let env = dir.isolatedEnvironment()
    func hash(_ arguments: String) async throws -> ToolResult {
      try await ActFixture.offPool {
        try ToolRunner.shell("cairn-hash \(arguments) '\(dir.path)/Photos'", environment: env)
      }
    }
    #expect(try await hash("").status == 0)
    try BindMount.unmount(dir.path + "/Photos/Disk")
    #expect(try await hash("").status == 1)
    let forgot = try await hash("--forget-mounts")
    #expect(forgot.status == 0, "\(forgot.stderr)")
    #expect(try forgot.records(ofType: "file").count == 1)
    #expect(try await hash("").status == 0)
  }
}

/// `mount --bind` for the tests that need a real mount.
enum BindMount {
  /// Whether this process may bind-mount, found by trying.
  static let allowed: Bool = {
    let dir = TemporaryDirectory("cairn-mount-probe")
    let target = dir.path + "/target"
    guard mkdir(target, 0o700) == 0, (try? mount(dir.path, on: target)) != nil else {
      return false
    }
    unmountAll(target)
    return true
  }()

  static func mount(_ source: String, on target: String) throws {
    try run("/bin/mount", ["--bind", source, target])
  }

  static func unmount(_ target: String) throws {
    try run("/bin/umount", [target])
  }

  /// Every mount stacked on `target`, lazily: for `defer`, whatever the test left.
  static func unmountAll(_ target: String) {
    for _ in 0..<4 { if (try? run("/bin/umount", ["-l", target])) == nil { break } }
  }

  private static func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ToolRunner.Failure("\(tool) \(arguments.joined(separator: " ")) failed")
    }
  }
}

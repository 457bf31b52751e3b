import CairnTestSupport
import Foundation
import Testing

/// A real bind mount under a library root, lost between two runs of the whole pipeline: the
/// photos it held must not read as deleted, and a real deletion elsewhere in the same root still
/// propagates. Needs the right to mount (root in a mount namespace); skipped with a message
/// elsewhere.
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

  /// With and without cairn-observe between cairn-hash and cairn-reconcile (the nightly has it):
  /// either records the scan, and the point-of-action check needs that recording's snapshot.
  @Test(arguments: Loss.allCases, [false, true])
  func aLostMountIsOutOfScopeWhileTheRestOfTheRootIsJudged(_ loss: Loss, observe: Bool)
    async throws
  {
    let filter = observe ? "cairn-observe" : nil
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
    let seed = try await lib.pipeline(["Photos"], hashFilter: filter)
    #expect(seed.status["trash"] == 0, "\(seed.stderr)")
    try lib.remove("Photos/d.jpg")
    let dry = try await lib.pipeline(["Photos"], hashFilter: filter)
    #expect(dry.candidateIDs("delete") == [try lib.asset("Photos/d.jpg").id], "\(dry.stderr)")
    #expect(lib.mutations.isEmpty)

    try BindMount.unmount(mountPoint)
    if loss == .emptyVolumeMounted {
      try FileManager.default.createDirectory(
        atPath: lib.path("Empty"), withIntermediateDirectories: false)
      try BindMount.mount(lib.path("Empty"), on: mountPoint)
    }
    let scan = try await lib.shell("cairn-hash Photos")
    #expect(scan.status == 0, "\(scan.stderr)")
    #expect(try scan.records(ofType: "error").isEmpty)
    let roots = try scan.records(ofType: "end").first?["roots"] as? [[String: Any]]
    #expect(roots?.first?["complete"] as? Bool == true)
    let outOfScope = roots?.first?["outOfScope"] as? [[String: Any]]
    #expect(outOfScope?.count == 1)
    #expect(outOfScope?.first?["path"] as? String == mountPoint)
    #expect(
      outOfScope?.first?["problem"] as? String
        == (loss == .unmounted ? "volume away" : "volume replaced"))
    #expect(outOfScope?.first?["files"] as? Int == 2)
    #expect(scan.stderr.contains("cairn-hash: \(mountPoint): warning: "), "\(scan.stderr)")
    #expect(scan.stderr.contains("candidates for Immich's trash"), "\(scan.stderr)")

    // The whole pipeline, twice: the loss is remembered, not reported once and then believed,
    // and the real deletion beside it goes to the trash.
    let disk = Set([try lib.asset("Disk/x.jpg").id, try lib.asset("Disk/y.jpg").id])
    for _ in 0..<2 {
      let run = try await lib.pipeline(["Photos"], hashFilter: filter)
      #expect(Set(run.candidateIDs()).isDisjoint(with: disk), "\(run.candidates)")
      #expect(run.status["hash"] == 0)
      #expect(run.status["reconcile"] == 0, "\(run.stderr)")
      #expect(run.stderr.contains("leaving out \(mountPoint) ("), "\(run.stderr)")
      #expect(lib.trashed.isDisjoint(with: disk))
    }
    #expect(lib.trashed == [try lib.asset("Photos/d.jpg").id])

    // The disk comes back: nothing of it was judged meanwhile, nothing of it is a candidate.
    if loss == .emptyVolumeMounted { try BindMount.unmount(mountPoint) }
    try BindMount.mount(lib.path("Disk"), on: mountPoint)
    let back = try await lib.pipeline(["Photos"], hashFilter: filter)
    #expect(back.status["hash"] == 0, "\(back.stderr)")
    #expect(back.candidateIDs().isEmpty)
    #expect(lib.trashed == [try lib.asset("Photos/d.jpg").id])
  }

  @Test func acceptingALostMountSaysWhatItDoesAndAsksFirst() async throws {
    let dir = TemporaryDirectory("cairn-mount")
    try dir.file("Photos/a.jpg", "a")
    try dir.file("Disk/x.jpg", "x")
    try dir.file("Disk/y.jpg", "y")
    try FileManager.default.createDirectory(
      atPath: dir.path + "/Photos/Disk", withIntermediateDirectories: false)
    try BindMount.mount(dir.path + "/Disk", on: dir.path + "/Photos/Disk")
    defer { BindMount.unmountAll(dir.path + "/Photos/Disk") }
    let env = dir.isolatedEnvironment()
    func hash(_ arguments: String) async throws -> ToolResult {
      try await ActFixture.offPool {
        try ToolRunner.shell(
          "cairn-hash \(arguments) '\(dir.path)/Photos' </dev/null", environment: env)
      }
    }
    func outOfScope(_ result: ToolResult) throws -> Int {
      let roots = try result.records(ofType: "end").first?["roots"] as? [[String: Any]]
      return (roots?.first?["outOfScope"] as? [Any])?.count ?? 0
    }
    #expect(try await hash("").status == 0)
    try BindMount.unmount(dir.path + "/Photos/Disk")
    #expect(try outOfScope(try await hash("")) == 1)

    // The warning is printed with -q too: a nightly log must show it.
    #expect(try await hash("-q").stderr.contains("warning: volume away: "))

    // Without a terminal and without --yes: the statement, then a refusal; nothing changes.
    let one = try await ActFixture.offPool {
      try ToolRunner.shell(
        "cairn-hash accept-lost-mount '\(dir.path)/Photos/Disk' </dev/null", environment: env)
    }
    #expect(one.status == 25, "\(one.stderr)")
    #expect(
      one.stderr.contains("cairn-hash: \(dir.path)/Photos/Disk: volume away: "), "\(one.stderr)")
    let elsewhere = try await ActFixture.offPool {
      try ToolRunner.shell("cairn-hash accept-lost-mount /nowhere --yes", environment: env)
    }
    #expect(elsewhere.status == 64, "\(elsewhere.stderr)")
    let unconfirmed = try await hash("forget-mounts")
    #expect(unconfirmed.status == 25, "\(unconfirmed.stderr)")
    #expect(unconfirmed.stdout.isEmpty)
    #expect(unconfirmed.stderr.contains("2 media files"), "\(unconfirmed.stderr)")
    #expect(unconfirmed.stderr.contains("candidates for Immich's trash"))
    #expect(unconfirmed.stderr.contains("rails still apply"))
    #expect(try outOfScope(try await hash("")) == 1)

    let accepted = try await hash("forget-mounts --yes")
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(accepted.stderr.contains("2 media files"), "\(accepted.stderr)")
    #expect(accepted.stdout.isEmpty, "an acceptance scans nothing")
    let after = try await hash("")
    #expect(after.status == 0)
    #expect(try outOfScope(after) == 0)
    #expect(try after.records(ofType: "file").count == 1)
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

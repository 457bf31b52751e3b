import CairnRecords
import CairnSafety
import CairnState
import CairnTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `cairn-observe watch` through the real binary: what it records as deleted, and the absences
/// it must never take for deletions. Each test seeds a library (a scan recorded, so the hash
/// cache and the observed store know every photo), starts the watcher, changes the library the
/// way people and tools do, and reads the partition's state. A negative is proved by a
/// sentinel: a photo deleted after the change, whose confirmation means everything before it
/// was judged.
@Suite(.serialized)
struct WatcherTests {
  /// A library of `names` (distinct bytes each), recorded by a scan.
  static func seeded(_ names: [String]) async throws -> StateToolFixture {
    let f = StateToolFixture()
    for name in names { try f.photo(name, "watched photo \(name)") }
    try f.writeServer([])
    // Past the hash cache's racy margin, so every checksum is remembered.
    try await Task.sleep(for: .milliseconds(50))
    let seed = try await f.pipeline()
    guard seed.status == 0 else { throw ToolRunner.Failure("seed: \(seed.stderr)") }
    return f
  }

  static func watcher(_ f: StateToolFixture, roots: [String]? = nil) async throws
    -> WatcherProcess
  {
    try await WatcherProcess(
      roots: roots ?? [f.library], environment: f.environment(),
      logPath: f.directory.path + "/watch.log", serverFile: f.serverFile)
  }

  static func state(_ f: StateToolFixture) throws -> WatcherState {
    try WatcherState(serverFile: f.serverFile, environment: f.environment())
  }

  /// Waits until the watcher has confirmed exactly the photos at `paths` (last known paths).
  static func waitForConfirmed(_ f: StateToolFixture, _ paths: Set<String>) async throws {
    try await WatcherProcess.poll(timeout: 45, "confirmations of \(paths.sorted())") {
      Set(try state(f).watched.values.compactMap(\.originalPath)) == paths
    }
  }

  func sh(_ f: StateToolFixture, _ script: String) async throws {
    let result = try await ToolRunner.shellDetached(
      script, environment: f.environment(), workingDirectory: f.library)
    #expect(result.status == 0, "\(script): \(result.stderr)")
  }

  @Test func unlinksAndMovesOutAreDeletionsRenamesAndEditsAreNot() async throws {
    let f = try await Self.seeded(["a.jpg", "b.jpg", "c.jpg", "d.jpg", "notes/e.jpg"])
    let outside = f.directory.path + "/elsewhere"
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    let watcher = try await Self.watcher(f)
    defer { watcher.killIfRunning() }
    let before = Date()
    try await sh(
      f,
      """
      rm a.jpg
      mv b.jpg '\(outside)/b.jpg'
      mkdir 2025 && mv c.jpg 2025/c.jpg
      printf 'new bytes of d' > .d.jpg.tmp && mv -f .d.jpg.tmp d.jpg
      mv notes/e.jpg notes/e-renamed.jpg
      """)
    try await Self.waitForConfirmed(f, [f.library + "/a.jpg", f.library + "/b.jpg"])
    try await watcher.stop()
    let watched = try Self.state(f).watched
    #expect(watched.count == 2)
    #expect(watched.values.allSatisfy { $0.confirmedAt >= before.addingTimeInterval(-1) })
    #expect(watched.values.allSatisfy { $0.confirmedAt <= Date() })
    #expect(watcher.log.contains("renamed within the roots (not a deletion)"))
    #expect(watcher.log.contains("replaced by a rename (an edit, not a deletion)"))
    #expect(watcher.log.contains("moved out of the roots at"))
    // The moved and edited photos: the next scan sees the rename; only the edit's old bytes
    // are missing, and unconfirmed.
    let after = try await f.pipeline()
    #expect(after.status == 0, "\(after.stderr)")
  }

  @Test func photosDeletedFromAFolderThatStaysAreABurstOfDeletions() async throws {
    let names = (0..<60).map { "2024/trip/IMG_\($0).jpg" }
    let kept = (0..<70).map { "2023/IMG_\($0).jpg" }
    let f = try await Self.seeded(names + kept)
    let watcher = try await Self.watcher(f)
    defer { watcher.killIfRunning() }
    // The folder stays: a person deleting photos, not a tree removal (`rm -r 2024/trip` would
    // confirm none of them: WatcherLoadTests).
    try await sh(f, "rm 2024/trip/*.jpg")
    try await Self.waitForConfirmed(f, Set(names.map { f.library + "/" + $0 }))
    try await watcher.stop()
    let times = try Self.state(f).watched.values.map(\.confirmedAt)
    // A burst, as the gate counts one: 50 or more within 15 minutes.
    #expect(times.count == 60)
    #expect((times.max()!).timeIntervalSince(times.min()!) < GatePlan.burstWindow)
    #expect(watcher.log.contains("recorded 60 new deletion signal(s)"))
  }

  @Test func aRootRemovedAndRecreatedIsAGapNotDeletions() async throws {
    let f = try await Self.seeded(["a.jpg", "b.jpg", "sub/c.jpg"])
    let watcher = try await Self.watcher(f)
    defer { watcher.killIfRunning() }
    try await sh(f, "cd .. && rm -rf Photos && mkdir Photos")
    try await watcher.waitForLog(containing: "gap (root-removed)")
    try await watcher.waitForLog(containing: "watching again")
    // Watching the new root: a photo put there and deleted is seen (with no checksum known),
    // and a photo that was seeded, restored by a sync and deleted again, is confirmed.
    try f.photo("a.jpg", "watched photo a.jpg")
    try await Task.sleep(for: .milliseconds(50))
    #expect(try await f.pipeline().status == 0)
    try await sh(f, "rm a.jpg")
    try await Self.waitForConfirmed(f, [f.library + "/a.jpg"])
    try await watcher.stop()
    let gaps = try Self.state(f).gaps.map(\.reason)
    #expect(gaps == ["started", "root-removed"])
  }

  @Test(
    .enabled(
      if: BindMount.allowed, "bind mounts are not allowed here (needs root and CAP_SYS_ADMIN)"))
  func aBindMountUnmountedUnderARootIsAGapNotDeletions() async throws {
    let f = try await Self.seeded(["a.jpg", "b.jpg"])
    let disk = f.directory.path + "/Disk"
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    for name in ["x.jpg", "y.jpg"] {
      try f.directory.file("Disk/" + name, "disk photo \(name)")
    }
    let mountPoint = f.library + "/Disk"
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    try BindMount.mount(disk, on: mountPoint)
    defer { BindMount.unmountAll(mountPoint) }
    try await Task.sleep(for: .milliseconds(50))
    #expect(try await f.pipeline().status == 0)
    let watcher = try await Self.watcher(f)
    defer { watcher.killIfRunning() }
    // Unmounting a bind mount of a file system that stays mounted sends no inotify event at
    // all: only the mount table tells.
    try BindMount.unmount(mountPoint)
    try await watcher.waitForLog(containing: "gap (mounts-changed)")
    // What is deleted before the root is caught up belongs to the gap.
    try await watcher.waitForLog(containing: "watching again")
    try await sh(f, "rm a.jpg")
    try await Self.waitForConfirmed(f, [f.library + "/a.jpg"])
    try await watcher.stop()
    #expect(try Self.state(f).gaps.map(\.reason) == ["started", "mounts-changed"])
  }

  @Test(
    .enabled(
      if: access("/proc/sys/fs/inotify/max_queued_events", W_OK) == 0,
      "needs root to lower fs.inotify.max_queued_events"))
  func aQueueOverflowIsAGapNotDeletions() async throws {
    let f = try await Self.seeded(["a.jpg", "b.jpg"] + (0..<40).map { "flood/f\($0).jpg" })
    // The limit is read when an inotify instance is made: lowered only while the watcher starts.
    let limitPath = "/proc/sys/fs/inotify/max_queued_events"
    let saved = try String(contentsOfFile: limitPath, encoding: .utf8)
    try "8\n".write(toFile: limitPath, atomically: false, encoding: .utf8)
    let watcher: WatcherProcess
    do {
      watcher = try await Self.watcher(f)
      try saved.write(toFile: limitPath, atomically: false, encoding: .utf8)
    } catch {
      try saved.write(toFile: limitPath, atomically: false, encoding: .utf8)
      throw error
    }
    defer { watcher.killIfRunning() }
    // 40 unlinks overflow a queue of 8 while the watcher is stopped: none is confirmed.
    kill(watcher.pid, SIGSTOP)
    try await sh(f, "rm -r flood")
    kill(watcher.pid, SIGCONT)
    try await watcher.waitForLog(containing: "gap (overflow)")
    // Nothing is confirmed in a root before it is caught up.
    try await watcher.waitForLog(containing: "watching again")
    try await sh(f, "rm a.jpg")
    try await Self.waitForConfirmed(f, [f.library + "/a.jpg"])
    #expect(try await watcher.stop() == 0)
    let state = try Self.state(f)
    #expect(state.gaps.map(\.reason).contains("overflow"))
    #expect(state.watched.count == 1)
  }

  @Test func aKilledWatcherRestartsWithAGapAndMissesNothingItConfirms() async throws {
    let f = try await Self.seeded(["a.jpg", "b.jpg", "c.jpg"])
    let first = try await Self.watcher(f)
    defer { first.killIfRunning() }
    try await first.stop(SIGKILL)
    // Deleted while no watcher ran: the scan will find it missing; nobody saw it go.
    try await sh(f, "rm a.jpg")
    let second = try await Self.watcher(f)
    defer { second.killIfRunning() }
    try await sh(f, "rm b.jpg")
    try await Self.waitForConfirmed(f, [f.library + "/b.jpg"])
    try await second.stop()
    #expect(try Self.state(f).gaps.map(\.reason) == ["started", "started"])
  }

  @Test func aPipelineRunAndTheWatcherShareThePartition() async throws {
    let names = (0..<12).map { "p\($0).jpg" }
    let f = try await Self.seeded(names)
    let watcher = try await Self.watcher(f)
    defer { watcher.killIfRunning() }
    // Deletions land while scans are recorded: neither is turned away (exit 75).
    for (index, name) in names.prefix(6).enumerated() {
      try await sh(f, "rm \(name)")
      if index % 2 == 0 {
        let run = try await f.pipeline()
        #expect(run.status == 0, "\(run.stderr)")
      }
    }
    try await Self.waitForConfirmed(f, Set(names.prefix(6).map { f.library + "/" + $0 }))
    try await watcher.stop()
    #expect(!watcher.log.contains("error"))
  }
}

import CairnEngine
import CairnReconcile
import CairnRecords
import CairnSettings
import CairnState
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The photo deleted minutes after it was taken: the phone's app has uploaded it,
/// a sync tool has put it in the library, and no scan ever saw it before it went. The watcher
/// saw it arrive, so its deletion is of a photo cairn knew, and goes through the pipeline
/// against the Immich test double like any other.
@Suite(.serialized)
struct WatcherArrivalTests {
  /// Versions in the library from the start, scanned by the seeding run.
  static let seeded = ["A", "B", "C", "D", "E"]

  /// A library of `seeded` recorded by one pipeline run, and a watcher over it.
  static func start(_ versions: [String], strictness: String = "trusting") async throws
    -> (FieldFixture, WatcherProcess)
  {
    let f = try await FieldFixture(
      version: .v3_1, versions: seeded + versions,
      extraEnvironment: ["CAIRN_STRICTNESS": strictness])
    for name in seeded { try f.write(name.lowercased() + ".jpg", name) }
    try await Task.sleep(for: .milliseconds(50))  // past the hash cache's racy margin
    let seed = try await f.pipeline()
    guard seed.status == 0 else { throw ToolRunner.Failure("seed: \(seed.stderr)") }
    let watcher = try await WatcherProcess(
      roots: [f.library], environment: f.env, logPath: f.dir.path + "/watch.log")
    return (f, watcher)
  }

  /// Syncthing's way: the bytes under a temporary name, then renamed into place.
  static func sync(_ f: FieldFixture, _ relative: String, _ name: String) async throws {
    let bytes = String(decoding: FieldFixture.bytes(name), as: UTF8.self)
    try await f.sh(
      "mkdir -p \"$(dirname '\(relative)')\" && printf '%s' '\(bytes)' > .syncthing.tmp "
        + "&& mv .syncthing.tmp '\(relative)'")
  }

  /// The state of the fixture's partition, read beside the watcher and the runs.
  static func store(_ f: FieldFixture) async throws -> PartitionStore {
    let identity = try await ToolRunner.runDetached(
      "cairn-fetch", ["identity"], environment: f.env)
    let file = f.dir.path + "/identity.ndjson"
    try identity.stdout.write(toFile: file, atomically: true, encoding: .utf8)
    let partition = try ListingInput.identity(serverFile: file).partition
    return try PartitionStore.open(
      partition, paths: CairnPaths(environment: f.env), locking: false)
  }

  static func checksum(_ name: String) -> String { Scenario.checksum(of: FieldFixture.bytes(name)) }

  /// The pipeline twice past the quarantine (the first run with candidates is a dry run).
  static func runsPastQuarantine(_ f: FieldFixture) async throws {
    var env = f.env
    env["CAIRN_QUARANTINE_DAYS"] = "0"
    for _ in 0..<2 {
      let run = try await ToolRunner.shellDetached(
        "cairn-hash '\(f.library)' | cairn-reconcile | cairn-gate | setsid cairn-trash --yes",
        environment: env, workingDirectory: f.dir.path)
      #expect(run.status == 0, "\(run.stderr)")
    }
  }

  @Test(arguments: ["trusting", "strict"])
  func aPhotoSyncedInThenDeletedIsTrashedAtTheNextRuns(strictness: String) async throws {
    let (f, watcher) = try await Self.start(["N"], strictness: strictness)
    defer {
      watcher.killIfRunning()
      Task { await f.stop() }
    }
    try await Self.sync(f, "2026/n.jpg", "N")
    try await watcher.waitForLog(containing: "arrived: \(f.library)/2026/n.jpg")
    try await Task.sleep(for: .seconds(2))  // left for a while, as the bad shot is
    try await f.sh("rm 2026/n.jpg")
    try await watcher.waitForLog(containing: "deleted at")
    #expect(!watcher.log.contains("does not know this version"))
    #expect(try await watcher.stop() == 0)

    try await Self.runsPastQuarantine(f)
    #expect(f.trashed == ["N"])
  }

  @Test func aPartialCopyDeletedMidWriteIsNeverTrashedACompleteOneIs() async throws {
    let (f, watcher) = try await Self.start(["P", "Q"])
    defer {
      watcher.killIfRunning()
      Task { await f.stop() }
    }
    // P's whole bytes written, but the copy never closed before it is deleted: not complete.
    let partial = String(decoding: FieldFixture.bytes("P"), as: UTF8.self)
    try await f.sh(
      "exec 3>p.jpg; printf '%s' '\(partial)' >&3; sleep 1.5; rm p.jpg; exec 3>&-")
    // R arrives whole and is deleted within the second it is left alone before it is read:
    // seen, never hashed, kept as seen.
    try await f.sh("printf 'field test photo R' > r.jpg && sleep 0.6 && rm r.jpg")
    try await Self.sync(f, "q.jpg", "Q")
    try await watcher.waitForLog(containing: "arrived: \(f.library)/q.jpg")
    try await watcher.waitForLog(containing: "could not be hashed")
    try await f.sh("rm q.jpg")
    try await watcher.waitForLog(containing: "deleted at", count: 1)
    try await WatcherProcess.poll(timeout: 45, "both deletions judged") {
      WatcherProcess.count("deleted", in: watcher.logPath) >= 2
    }
    #expect(!watcher.log.contains("arrived: \(f.library)/p.jpg"))
    #expect(try await watcher.stop() == 0)
    let status = try await ToolRunner.runDetached(
      "cairn-observe", ["watch", "status"], environment: f.env)
    #expect(status.stdout.contains("arrivals recorded: 1; seen but not hashed: 1"), "\(status)")
    let store = try await Self.store(f)
    defer { store.close() }
    #expect(try !store.observed.contains(Self.checksum("P")))
    let unhashed = try store.unhashedArrivals()
    #expect(unhashed.map(\.name) == ["r.jpg"])
    #expect(unhashed.first?.size == 18 && unhashed.first?.reason == "ENOENT")
    #expect(unhashed.first?.path == f.library + "/r.jpg" && unhashed.first?.root == f.library)

    try await Self.runsPastQuarantine(f)
    #expect(f.trashed == ["Q"])
  }

  @Test func anImportOfThousandsWhileDeletionsHappenLosesNothingAndConfirmsOnlyThem()
    async throws
  {
    let (f, watcher) = try await Self.start(["N"])
    defer {
      watcher.killIfRunning()
      Task { await f.stop() }
    }
    try await Self.sync(f, "n.jpg", "N")
    try await watcher.waitForLog(containing: "arrived: \(f.library)/n.jpg")
    // A camera card copied in (a folder of 2,000 photos made outside, copied whole), while a
    // scanned photo and the synced one are deleted.
    let card = f.dir.path + "/card/DCIM"
    try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
    for index in 0..<2000 {
      try Data("card photo \(index)\n".utf8).write(
        to: URL(fileURLWithPath: card + "/IMG_\(index).JPG"))
    }
    try await f.sh("cp -r '\(card)' DCIM & sleep 0.2; rm a.jpg n.jpg; wait")
    let store = try await Self.store(f)
    defer { store.close() }
    try await WatcherProcess.poll(timeout: 120, "every card photo observed") {
      try (0..<2000).allSatisfy {
        try store.observed.contains(Scenario.checksum(of: Array("card photo \($0)\n".utf8)))
      }
    }
    try await WatcherProcess.poll(timeout: 45, "the two deletions") {
      WatcherProcess.count("deleted at", in: watcher.logPath) == 2
    }
    #expect(try await watcher.stop() == 0)
    let confirmed = Set(
      try store.signals.confirmations().filter {
        $0.value.source == DeletionConfirmation.watcherSource
      }.keys)
    #expect(confirmed == [Self.checksum("A"), Self.checksum("N")])
    #expect(!watcher.log.contains("gap (arrivals-overflow"))

    try await Self.runsPastQuarantine(f)
    #expect(f.trashed == ["A", "N"])
  }

  @Test func aRestartInBetweenIsAGapThenTheArrivalIsStillKnown() async throws {
    let (f, first) = try await Self.start(["N", "M"])
    defer {
      first.killIfRunning()
      Task { await f.stop() }
    }
    try await Self.sync(f, "n.jpg", "N")
    try await first.waitForLog(containing: "arrived: \(f.library)/n.jpg")
    #expect(try await first.stop() == 0)
    #expect(first.log.contains("0 deletion(s) and 1 arrival(s) recorded"))
    // M arrives while no watcher runs: nobody saw it, so its deletion is not confirmed.
    try await Self.sync(f, "m.jpg", "M")
    try await Task.sleep(for: .milliseconds(50))
    let second = try await WatcherProcess(
      roots: [f.library], environment: f.env, logPath: f.dir.path + "/watch.log")
    defer { second.killIfRunning() }
    try await f.sh("rm n.jpg m.jpg")
    try await WatcherProcess.poll(timeout: 45, "both deletions judged") {
      WatcherProcess.count("deleted at", in: second.logPath) == 1
        && second.log.contains("does not know this version (not recorded): \(f.library)/m.jpg")
    }
    #expect(second.log.contains("deleted at") && second.log.contains("\(f.library)/n.jpg"))
    #expect(try await second.stop() == 0)
    let store = try await Self.store(f)
    defer { store.close() }
    #expect(try store.watchGaps().map(\.reason) == ["started", "started"])
    #expect(try store.watchGaps().allSatisfy { $0.caughtUpAt != nil })

    try await Self.runsPastQuarantine(f)
    #expect(f.trashed == ["N"])
  }

  @Test func aNightlyRunWhileArrivalsAreRecordedNeitherLosesNorDoublesNorWaits() async throws {
    let (f, watcher) = try await Self.start([])
    defer {
      watcher.killIfRunning()
      Task { await f.stop() }
    }
    // 300 photos arriving one by one, synced in, while the nightly runs twice.
    let script =
      "mkdir -p inbox; for n in $(seq 1 300); do printf 'arrival %s\\n' $n > .tmp-$n "
      + "&& mv .tmp-$n inbox/ph-$n.jpg; sleep 0.01; done"
    async let arriving = f.sh(script)
    for _ in 0..<2 {
      let run = try await f.pipeline()
      #expect(run.status == 0, "\(run.stderr)")
    }
    _ = try await arriving
    let store = try await Self.store(f)
    defer { store.close() }
    try await WatcherProcess.poll(timeout: 90, "every arrival observed") {
      try (1...300).allSatisfy {
        try store.observed.contains(Scenario.checksum(of: Array("arrival \($0)\n".utf8)))
      }
    }
    #expect(try await watcher.stop() == 0)
    #expect(WatcherProcess.count("arrived: ", in: watcher.logPath) == 300)
    for n in [1, 150, 300] {
      let checksum = Scenario.checksum(of: Array("arrival \(n)\n".utf8))
      #expect(try store.observed.entry(checksum)?.paths.count == 1)
    }
    let scan = try await f.pipeline()
    #expect(scan.status == 0, "\(scan.stderr)")
  }
}

/// A library on a FUSE file system (fuse-overlayfs here; sshfs, NFS and SMB shares alike):
/// inotify would see only this machine's changes there, so the watcher leaves the root to the
/// scan, says so, and confirms nothing there, not even what this machine deletes.
@Suite(.serialized)
struct WatcherBlindRootTests {
  static var fuseAvailable: Bool {
    access("/dev/fuse", R_OK | W_OK) == 0
      && FileManager.default.isExecutableFile(atPath: "/usr/bin/fuse-overlayfs")
  }

  @Test(.enabled(if: fuseAvailable, "needs /dev/fuse and fuse-overlayfs (scripts/setup.sh)"))
  func aRootOnFuseIsScanOnlyAndNothingThereIsConfirmed() async throws {
    let f = try await FieldFixture(version: .v3_1, versions: ["A", "B", "C", "D", "E", "N"])
    defer { Task { await f.stop() } }
    let layers = f.dir.path + "/layers"
    let mount = try await ToolRunner.shellDetached(
      "mkdir -p '\(layers)/lower' '\(layers)/upper' '\(layers)/work' && fuse-overlayfs -o "
        + "lowerdir='\(layers)/lower',upperdir='\(layers)/upper',workdir='\(layers)/work' "
        + "'\(f.library)'", environment: f.env, workingDirectory: f.dir.path)
    try #require(mount.status == 0, "\(mount.stderr)")
    defer { _ = try? ToolRunner.shell("umount '\(f.library)'", environment: f.env) }
    for name in WatcherArrivalTests.seeded { try f.write(name.lowercased() + ".jpg", name) }
    try await Task.sleep(for: .milliseconds(50))
    let seed = try await f.pipeline()
    try #require(seed.status == 0, "\(seed.stderr)")

    let watcher = try await WatcherProcess(
      roots: [f.library], environment: f.env, logPath: f.dir.path + "/watch.log")
    defer { watcher.killIfRunning() }
    #expect(watcher.log.contains("on a network or FUSE file system (fuse)"))
    #expect(watcher.log.contains("scan-only (not witnessed): \(f.library) (fuse)"))
    try await WatcherArrivalTests.sync(f, "n.jpg", "N")
    try await f.sh("rm a.jpg")
    // Past the settle time and the arrival's quiet second, with events to spare.
    try await Task.sleep(for: .seconds(3))
    let status = try await ToolRunner.runDetached(
      "cairn-observe", ["watch", "status"], environment: f.env)
    #expect(status.stdout.contains("scan-only"), "\(status)")
    #expect(try await watcher.stop() == 0)
    #expect(!watcher.log.contains("deleted at") && !watcher.log.contains("arrived"))
    let store = try await WatcherArrivalTests.store(f)
    defer { store.close() }
    #expect(
      try store.signals.confirmations().values.allSatisfy {
        $0.source != DeletionConfirmation.watcherSource
      })
    #expect(try !store.observed.contains(WatcherArrivalTests.checksum("N")))
    // Its start gap stays open: the runs name the root as not witnessed.
    #expect(try store.watchGaps().map(\.caughtUpAt) == [nil])
  }
}

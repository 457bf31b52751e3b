import CairnReconcile
import CairnSettings
import CairnState
import CairnSupport
import CairnTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `cairn-observe watch` through the real binary under load: tree removals that take many
/// seconds, a queue overflow on a tree longer than the queue, and `--status`. Each negative
/// ends with a sentinel, or with the event that ends the removal, seen in the log: what came
/// before it was judged.
@Suite(.serialized)
struct WatcherLoadTests {
  /// `count` photos spread over the root and `folders` folders.
  static func library(_ count: Int, folders: Int) -> [String] {
    (0..<count).map { index in
      let folder = index % (folders + 1)
      return folder == 0 ? "p\(index).jpg" : "f\(folder)/p\(index).jpg"
    }
  }

  /// Removes every file under the library one by one with a pause each, then its folders:
  /// `rm -rf` slowed down, as a large tree removal or a sync tool's deletion runs.
  static func slowRemoval(of folder: String, pause: Double = 0.004) -> String {
    """
    find '\(folder)' -type f | while read -r f; do rm "$f"; sleep \(pause); done
    find '\(folder)' -depth -type d -exec rmdir {} \\;
    """
  }

  func sh(_ f: StateToolFixture, _ script: String) async throws {
    let result = try await ToolRunner.shellDetached(
      script, environment: f.environment(), workingDirectory: f.directory.path)
    #expect(result.status == 0, "\(script): \(result.stderr)")
  }

  @Test func aSlowRemovalOfAWatchedRootConfirmsNothing() async throws {
    let f = try await WatcherTests.seeded(Self.library(600, folders: 5))
    let watcher = try await WatcherProcess(
      roots: [f.library], environment: f.environment(), logPath: f.directory.path + "/watch.log",
      serverFile: f.serverFile, settleMilliseconds: 2000)
    defer { watcher.killIfRunning() }
    let started = Date()
    try await sh(f, Self.slowRemoval(of: f.library))
    // The removal itself must outlast the settling time, or it proves nothing.
    #expect(Date().timeIntervalSince(started) > 2)
    try await watcher.waitForLog(containing: "gap (root-removed)")
    try await Task.sleep(for: .milliseconds(2500))  // past the settling time
    #expect(try await watcher.stop() == 0)
    let state = try WatcherTests.state(f)
    #expect(state.watched.isEmpty, "confirmed: \(state.watched.count)")
    #expect(state.gaps.map(\.reason) == ["started", "root-removed"])
  }

  @Test func aSlowFolderRemovalConfirmsNothingAndASingleDeletionStillCounts() async throws {
    let f = try await WatcherTests.seeded(Self.library(400, folders: 3) + ["sentinel.jpg"])
    let watcher = try await WatcherProcess(
      roots: [f.library], environment: f.environment(), logPath: f.directory.path + "/watch.log",
      serverFile: f.serverFile, settleMilliseconds: 2000)
    defer { watcher.killIfRunning() }
    let started = Date()
    try await sh(f, Self.slowRemoval(of: f.library + "/f1", pause: 0.025))
    #expect(Date().timeIntervalSince(started) > 2)
    try await watcher.waitForLog(containing: "folder removed with its 100 deleted file(s)")
    try await sh(f, "rm '\(f.library)/sentinel.jpg'")
    try await WatcherTests.waitForConfirmed(f, [f.library + "/sentinel.jpg"])
    #expect(try await watcher.stop() == 0)
    #expect(try WatcherTests.state(f).watched.count == 1)
  }

  @Test(.enabled(if: InotifyQueue.adjustable, "needs root to lower fs.inotify.max_queued_events"))
  func aTreeLongerThanTheQueueIsCaughtUpOnceAfterAnOverflow() async throws {
    // 200 folders against a queue of 64: walking again by dropping every watch first would
    // queue 200 IN_IGNORED, overflow again, and never end.
    let f = try await WatcherTests.seeded(Self.library(400, folders: 199) + ["sentinel.jpg"])
    let watcher = try await InotifyQueue.withLimit(64) {
      try await WatcherProcess(
        roots: [f.library], environment: f.environment(),
        logPath: f.directory.path + "/watch.log", serverFile: f.serverFile)
    }
    defer { watcher.killIfRunning() }
    kill(watcher.pid, SIGSTOP)
    // 400 events for a queue of 64, while the watcher cannot read.
    try await sh(f, "cd '\(f.library)' && for d in f*; do echo x > \"$d/notes.txt\"; done")
    kill(watcher.pid, SIGCONT)
    try await watcher.waitForLog(containing: "gap (overflow)")
    try await watcher.waitForLog(containing: "watching again")
    try await sh(f, "rm '\(f.library)/sentinel.jpg'")
    try await WatcherTests.waitForConfirmed(f, [f.library + "/sentinel.jpg"])
    try await Task.sleep(for: .seconds(1))  // time enough for a loop to show itself
    #expect(try await watcher.stop() == 0)
    let state = try WatcherTests.state(f)
    #expect(state.gaps.map(\.reason) == ["started", "overflow"])
    #expect(state.gaps.allSatisfy { $0.caughtUpAt != nil })
    #expect(WatcherProcess.count("watching again", in: watcher.logPath) == 1)
    #expect(WatcherProcess.count("gap (", in: watcher.logPath) == 1)
  }

  @Test func statusSaysWhetherTheWatcherRunsItsRootsAndItsGaps() async throws {
    let f = try await WatcherTests.seeded(["a.jpg", "b.jpg"])
    let status = { () async throws -> ToolResult in
      try await ToolRunner.runDetached(
        "cairn-observe", ["watch", "status", "--server", f.serverFile],
        environment: f.environment())
    }
    // With no state for the partition yet, it says so and makes none.
    let emptyState = f.directory.path + "/no-state"
    let fresh = try await ToolRunner.runDetached(
      "cairn-observe", ["watch", "status", "--server", f.serverFile],
      environment: f.environment(["XDG_STATE_HOME": emptyState]))
    #expect(fresh.status == 0, "\(fresh.stderr)")
    #expect(fresh.stdout == "watcher: not running\ngaps: 0 recorded, 0 open\n")
    #expect(!FileManager.default.fileExists(atPath: emptyState + "/cairn/servers"))
    let before = try await status()
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.hasPrefix("watcher: not running\n"))
    #expect(before.stdout.contains("gaps: 0 recorded, 0 open"))
    let watcher = try await WatcherTests.watcher(f)
    defer { watcher.killIfRunning() }
    try await sh(f, "rm '\(f.library)/a.jpg'")
    try await WatcherTests.waitForConfirmed(f, [f.library + "/a.jpg"])
    let report = try Self.statusFile(f)
    try await WatcherProcess.poll(timeout: 45, "the watcher's report of its confirmation") {
      ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").contains("\"confirmed\":1")
    }
    let running = try await status()
    #expect(running.status == 0, "\(running.stderr)")
    #expect(running.stdout.hasPrefix("watcher: running (pid \(watcher.pid))\n"))
    #expect(running.stdout.contains("roots: \(f.library)\n"))
    #expect(running.stdout.contains("confirmed: 1"))
    #expect(!running.stdout.contains("last event: none yet"))
    #expect(running.stdout.contains("gaps: 1 recorded, 1 open"))
    #expect(running.stdout.contains("started  \(f.library)  caught up"))
    // A second watcher of the same partition would record the same deletions twice.
    let second = try await ToolRunner.runDetached(
      "cairn-observe", ["watch", "--server", f.serverFile, f.library],
      environment: f.environment())
    #expect(second.status == ExitStatus.busy.rawValue)
    #expect(second.stderr.contains("another cairn-observe watch (pid \(watcher.pid))"))
    #expect(try await watcher.stop() == 0)
    let after = try await status()
    #expect(after.stdout.hasPrefix("watcher: not running\nlast ran: pid \(watcher.pid)"))
    #expect(after.stdout.contains("stopped on a signal"))
    #expect(try await status().status == 0)
    // With folders it is a usage error: the status is the partition's, not a root's.
    let usage = try await ToolRunner.runDetached(
      "cairn-observe", ["watch", "status", f.library], environment: f.environment())
    #expect(usage.status == 64)
  }

  /// Where the watcher reports what it is doing.
  static func statusFile(_ f: StateToolFixture) throws -> String {
    let identity = try ListingInput.identity(serverFile: f.serverFile)
    return CairnPaths(environment: f.environment()).partitionDirectory(identity.partition)
      + "/watch-status.json"
  }
}

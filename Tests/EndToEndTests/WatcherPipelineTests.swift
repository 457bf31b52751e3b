import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The watcher's deletions through the whole pipeline against the Immich test double: strict
/// mode, so a deletion nobody confirmed waits for a person, and only what the watcher saw
/// deleted is trashed, once its quarantine has passed.
@Suite(.serialized)
struct WatcherPipelineTests {
  @Test func afterQuarantineExactlyThePhotosTheWatcherSawDeletedAreTrashed() async throws {
    let f = try await FieldFixture(
      version: .v3_1, versions: ["A", "B", "C", "D", "E", "F1", "F2"],
      extraEnvironment: ["CAIRN_STRICTNESS": "strict"])
    defer { Task { await f.stop() } }
    for (path, name) in [
      ("a.jpg", "A"), ("b.jpg", "B"), ("c.jpg", "C"), ("d.jpg", "D"), ("e.jpg", "E"),
      ("album/f1.jpg", "F1"), ("album/f2.jpg", "F2"),
    ] {
      try f.write(path, name)
    }
    try await Task.sleep(for: .milliseconds(50))  // past the hash cache's racy margin
    #expect(try await f.pipeline().status == 0)

    let watcher = try await WatcherProcess(
      roots: [f.library], environment: f.env, logPath: f.dir.path + "/watch.log")
    defer { watcher.killIfRunning() }
    // (The edit comes first: a file created after an unlink may get the unlinked inode, which
    // the scan would take for the deleted photo's identity.)
    let outside = f.dir.path + "/elsewhere"
    try await f.sh(
      """
      mkdir -p '\(outside)' 2025
      printf 'd edited' > .d.tmp && mv -f .d.tmp d.jpg
      mv c.jpg 2025/c.jpg
      rm a.jpg
      mv b.jpg '\(outside)/'
      rm -r album
      """)
    // The album went as a tree (its folder with it): its photos are the scan's to judge.
    try await WatcherProcess.poll(timeout: 45, "two watcher confirmations and the album") {
      watcher.log.contains("recorded")
        && watcher.log.contains("folder removed with its 2 deleted file(s)")
        && WatcherProcess.count("deleted at", in: watcher.logPath)
          + WatcherProcess.count("moved out of the roots at", in: watcher.logPath) == 2
    }
    #expect(try await watcher.stop() == 0)
    // Deleted while no watcher ran: the scan finds it missing, nobody saw it go.
    try await f.sh("rm e.jpg")

    // In quarantine: held, and the preview tells the watcher's deletions from the scan's.
    let held = try await f.pipeline()
    #expect(held.status == 0, "\(held.stderr)")
    #expect(f.trashed.isEmpty)
    #expect(held.stderr.contains("2 of these deletions were seen happening by cairn-observe watch"))
    #expect(held.stderr.contains("3 were only found missing by a scan"))
    let candidates = try await f.candidates()
    #expect(
      candidates.mapValues(\.bucket)
        == ["A": "held", "B": "held", "F1": "pending", "F2": "pending", "E": "pending"])

    // Past the quarantine (the first run with something to trash is a dry run).
    var env = f.env
    env["CAIRN_QUARANTINE_DAYS"] = "0"
    for _ in 0..<2 {
      let run = try await ToolRunner.shellDetached(
        "cairn-hash '\(f.library)' | cairn-reconcile | cairn-gate | setsid cairn-trash --yes",
        environment: env, workingDirectory: f.dir.path)
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(f.trashed == ["A", "B"])
  }

  /// A gap since the last scan: what the watcher confirmed before an overflow may belong to
  /// what the overflow lost, so the run judges it as the scan does (strict: a person); what it
  /// confirmed after catching up is trusted; the run closes the gap.
  @Test(.enabled(if: InotifyQueue.adjustable, "needs root to lower fs.inotify.max_queued_events"))
  func aRunJudgesTheWatchersDeletionsBeforeAnOverflowAsAScanWould() async throws {
    let f = try await FieldFixture(
      version: .v3_1, versions: ["A", "B", "C"], extraEnvironment: ["CAIRN_STRICTNESS": "strict"])
    defer { Task { await f.stop() } }
    for (path, name) in [("a.jpg", "A"), ("b.jpg", "B"), ("c.jpg", "C")] { try f.write(path, name) }
    try await Task.sleep(for: .milliseconds(50))  // past the hash cache's racy margin
    #expect(try await f.pipeline().status == 0)
    let watcher = try await InotifyQueue.withLimit(16) {
      try await WatcherProcess(
        roots: [f.library], environment: f.env, logPath: f.dir.path + "/watch.log")
    }
    defer { watcher.killIfRunning() }
    _ = try await f.sh("rm a.jpg")
    try await watcher.waitForLog(containing: "deleted at")
    kill(watcher.pid, SIGSTOP)
    _ = try await f.sh("for n in $(seq 1 40); do echo x > notes-$n.txt; done")
    kill(watcher.pid, SIGCONT)
    try await watcher.waitForLog(containing: "watching again")
    _ = try await f.sh("rm b.jpg")
    try await WatcherProcess.poll(timeout: 45, "the deletion after the catch-up") {
      WatcherProcess.count("deleted at", in: watcher.logPath) == 2
        && WatcherProcess.count("recorded", in: watcher.logPath) >= 2
    }
    #expect(try await watcher.stop() == 0)

    let run = try await f.pipeline()
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("has a gap (overflow"))
    let candidates = try await f.candidates()
    #expect(candidates["A"]?.bucket == "pending" && candidates["A"]?.reason == "unconfirmed")
    #expect(candidates["B"]?.bucket == "held")
    let identity = try await ToolRunner.runDetached(
      "cairn-fetch", ["identity"], environment: f.env)
    try identity.stdout.write(
      toFile: f.dir.path + "/identity.ndjson", atomically: true, encoding: .utf8)
    let state = try WatcherState(serverFile: f.dir.path + "/identity.ndjson", environment: f.env)
    #expect(state.gaps.map(\.reason) == ["started", "overflow"])
    #expect(state.gaps.allSatisfy { $0.closedAt != nil })
  }
}

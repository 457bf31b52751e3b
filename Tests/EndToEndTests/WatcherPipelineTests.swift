import CairnCore
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
    try await WatcherProcess.poll(timeout: 45, "four watcher confirmations") {
      watcher.log.contains("recorded")
        && WatcherProcess.count("deleted at", in: watcher.logPath)
          + WatcherProcess.count("moved out of the roots at", in: watcher.logPath) == 4
    }
    #expect(try await watcher.stop() == 0)
    // Deleted while no watcher ran: the scan finds it missing, nobody saw it go.
    try await f.sh("rm e.jpg")

    // In quarantine: held, and the preview tells the watcher's deletions from the scan's.
    let held = try await f.pipeline()
    #expect(held.status == 0, "\(held.stderr)")
    #expect(f.trashed.isEmpty)
    #expect(held.stderr.contains("4 of these deletions were seen happening by cairn-observe watch"))
    #expect(held.stderr.contains("1 were only found missing by a scan"))
    let candidates = try await f.candidates()
    #expect(
      candidates.mapValues(\.bucket)
        == ["A": "held", "B": "held", "F1": "held", "F2": "held", "E": "pending"])

    // Past the quarantine (the first run with something to trash is a dry run).
    var env = f.env
    env["CAIRN_QUARANTINE_DAYS"] = "0"
    for _ in 0..<2 {
      let run = try await ToolRunner.shellDetached(
        "cairn-hash '\(f.library)' | cairn-reconcile | cairn-gate | setsid cairn-trash --yes",
        environment: env, workingDirectory: f.dir.path)
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(f.trashed == ["A", "B", "F1", "F2"])
  }
}

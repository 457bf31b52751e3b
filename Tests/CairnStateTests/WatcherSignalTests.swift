import CairnEngine
import CairnRecords
import CairnStateTestSupport
import CairnStream
import CairnTestSupport
import Foundation
import GRDB
import Testing

@testable import CairnState

/// What `cairn-observe watch` writes: deletion signals with source `watcher`, its gaps, and
/// the brief lock that lets a pipeline run wait for it instead of failing busy.
struct WatcherSignalTests {
  @Test func deletionsOfObservedChecksumsBecomeWatcherSignalsFirstWriteWins() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    try store.recordScan([file("/lib/a.jpg", "A", inode: 1)], completeRoots: ["/lib"], at: t0)
    let added = try store.recordWatcher(
      [
        WatchedDeletionSignal(checksum: "A", at: t0 + day, path: "/lib/a.jpg"),
        WatchedDeletionSignal(checksum: "never-observed", at: t0 + day, path: "/lib/x.jpg"),
      ],
      gaps: [WatchGapRecord(at: t0, reason: "started", root: "/lib")])
    #expect(added == 1)
    // A later sighting of the same deletion does not restart the quarantine.
    try store.recordWatcher(
      [WatchedDeletionSignal(checksum: "A", at: t0 + 2 * day, path: "/lib/a.jpg")],
      gaps: [WatchGapRecord(at: t0 + day, reason: "overflow", root: "/lib")])
    let confirmations = try store.signals.confirmations()
    #expect(
      confirmations
        == [
          "A": DeletionConfirmation(
            checksum: "A", confirmedAt: t0 + day, source: "watcher", originalPath: "/lib/a.jpg")
        ])
    #expect(try store.watchGaps().map(\.reason) == ["started", "overflow"])
  }

  @Test func theGapTableIsAddedToAnExistingDatabase() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    let path = store.path
    store.close()
    // As a database written before the watcher existed: without the migration and its table.
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "DROP TABLE watchGap")
      try db.execute(
        sql: """
          DELETE FROM grdb_migrations
          WHERE identifier IN ('v7-watch-gaps', 'v9-watch-catch-up')
          """)
    }
    try queue.close()
    let reopened = try fixture.open()
    defer { reopened.close() }
    try reopened.recordWatcher([], gaps: [WatchGapRecord(at: t0, reason: "started", root: "/r")])
    #expect(try reopened.watchGaps().count == 1)
  }

  @Test func aRunWaitsForTheWatchersBriefHoldInsteadOfFailingBusy() throws {
    let fixture = StoreFixture()
    let watcher = try PartitionStore.open(fixture.partition, paths: fixture.paths, brief: true)
    // Released from a thread of its own, not a task: the open below blocks this thread, and
    // a task could wait behind it on a busy cooperative pool.
    let released = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) {
      watcher.close()
      released.signal()
    }
    let started = Date()
    let run = try fixture.open()  // would be busy at once without the brief announcement
    #expect(Date().timeIntervalSince(started) >= 0.2)
    // While a run holds it, the watcher itself never waits: it is busy and tries later.
    let error = #expect(throws: CairnError.self) {
      try PartitionStore.open(fixture.partition, paths: fixture.paths, brief: true)
    }
    #expect(error?.status == .busy)
    run.close()
    released.wait()
  }
}

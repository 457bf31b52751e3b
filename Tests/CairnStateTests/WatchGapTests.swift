import CairnEngine
import CairnStateTestSupport
import CairnTestSupport
import Foundation
import Testing

@testable import CairnState

/// How the watcher's gaps end and how a run reads them: one row per catch-up, a period that
/// reaches back to the last reconcile, the watcher's confirmations of that period not trusted,
/// and a gap closed by a complete scan after its catch-up.
struct WatchGapTests {
  static func watched(_ checksum: String, _ path: String, _ at: Date) -> DeletionConfirmation {
    DeletionConfirmation(checksum: checksum, confirmedAt: at, source: "watcher", originalPath: path)
  }

  @Test func aCatchUpEndsEveryOpenGapOfItsRootButAWatchLimitLeftShort() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    try store.recordWatcher(
      [],
      gaps: [
        WatchGapRecord(at: t0, reason: "overflow", root: "/lib"),
        WatchGapRecord(at: t0 + 1, reason: "watch-limit", root: "/lib"),
        WatchGapRecord(at: t0 + 1, reason: "overflow", root: "/other"),
      ])
    try store.recordWatcher(
      [], gaps: [],
      caughtUp: [WatchCatchUpRecord(root: "/lib", at: t0 + 5, events: 12_838, complete: false)])
    var gaps = try store.watchGaps()
    #expect(gaps.map(\.caughtUpAt) == [t0 + 5, nil, nil])
    #expect(gaps[0].events == 12_838)
    try store.recordWatcher(
      [], gaps: [],
      caughtUp: [WatchCatchUpRecord(root: "/lib", at: t0 + 9, events: 1, complete: true)])
    gaps = try store.watchGaps()
    #expect(gaps.map(\.caughtUpAt) == [t0 + 5, t0 + 9, nil])
  }

  @Test func aGapsPeriodReachesBackToTheLastReconcileButAStartsDoesNot() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    try store.meta.set(.lastReconcileAt, t0)
    try store.recordWatcher(
      [],
      gaps: [
        WatchGapRecord(at: t0 + day, reason: "started", root: "/lib"),
        WatchGapRecord(at: t0 + day, reason: "root-removed", root: "/lib"),
      ])
    #expect(try store.watchGaps().map(\.since) == [t0 + day, t0])
  }

  @Test func theWatchersConfirmationsInAGapsPeriodAreNotTrusted() {
    let gaps = [
      WatchGapRecord(at: t0 + 10, reason: "overflow", root: "/lib", since: t0, caughtUpAt: t0 + 20),
      WatchGapRecord(at: t0 + 50, reason: "unmounted", root: "/lib/disk", since: t0 + 40),
    ]
    let confirmations = [
      "before": Self.watched("before", "/lib/a.jpg", t0 - 1),
      "in": Self.watched("in", "/lib/b.jpg", t0 + 5),
      "after": Self.watched("after", "/lib/c.jpg", t0 + 30),
      "elsewhere": Self.watched("elsewhere", "/library2/d.jpg", t0 + 5),
      "open": Self.watched("open", "/lib/disk/e.jpg", t0 + 60),
      "trash": DeletionConfirmation(
        checksum: "trash", confirmedAt: t0 + 5, source: "freedesktop",
        originalPath: "/lib/f.jpg"),
    ]
    let (trusted, inGaps) = PartitionStore.trusted(confirmations, gaps: gaps, now: t0 + 100)
    #expect(Set(trusted.keys) == ["before", "after", "elsewhere", "trash"])
    #expect(Set(inGaps.keys) == ["in", "open"])
  }

  @Test func aCompleteScanAfterTheCatchUpClosesTheGap() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    try store.recordWatcher(
      [],
      gaps: [
        WatchGapRecord(at: t0, reason: "overflow", root: "/lib/2024"),
        WatchGapRecord(at: t0, reason: "overflow", root: "/other"),
        WatchGapRecord(at: t0 + 5, reason: "mounts-changed", root: "/lib"),
      ],
      caughtUp: [
        WatchCatchUpRecord(root: "/lib/2024", at: t0 + 1, events: 3, complete: true),
        WatchCatchUpRecord(root: "/other", at: t0 + 1, events: 1, complete: true),
      ])
    #expect(try store.closeWatchGaps(completeRoots: ["/lib"], scannedAt: t0 + day) == 1)
    let gaps = try store.watchGaps()
    #expect(gaps.map(\.closedAt) == [t0 + day, nil, nil])
    #expect(gaps.map(\.isOpen) == [false, true, true])
  }
}

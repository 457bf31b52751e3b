import CairnEngine
import CairnStream
import Foundation
import GRDB

/// A deletion `cairn-observe watch` saw happen: the kernel reported the unlink (or the move out
/// of every root) of a file whose checksum the hash cache knew.
package struct WatchedDeletionSignal: Sendable, Equatable {
  package var checksum: String
  package var at: Date
  package var path: String

  package init(checksum: String, at: Date, path: String) {
    self.checksum = checksum
    self.at = at
    self.path = path
  }
}

/// A span in which the watcher's record of a root has a hole.
///
/// Its period runs from `since` to `caughtUpAt` (to now while it is nil): for the watcher's
/// start, from the start itself (before it no watcher ran, so nothing was confirmed); for any
/// other cause, from the last reconcile before the gap, since whatever the watcher confirmed
/// since then may belong to the same cause (a root's removal whose end was lost in an
/// overflow, files unlinked one by one as a volume went). Watcher confirmations in the period
/// are not trusted: the scan judges those deletions (`trustedConfirmations`).
package struct WatchGapRecord: Sendable, Equatable {
  package var at: Date
  package var reason: String
  package var root: String
  package var since: Date?
  package var caughtUpAt: Date?
  package var closedAt: Date?
  package var events: Int

  package init(
    at: Date, reason: String, root: String, since: Date? = nil, caughtUpAt: Date? = nil,
    closedAt: Date? = nil, events: Int = 1
  ) {
    self.at = at
    self.reason = reason
    self.root = root
    self.since = since
    self.caughtUpAt = caughtUpAt
    self.closedAt = closedAt
    self.events = events
  }

  /// The reason of the gap the watcher's start opens.
  package static let started = "started"
  /// The reason of a gap that only a walk watching every folder ends.
  package static let watchLimit = "watch-limit"

  /// Open until a complete scan of its root came after its catch-up.
  package var isOpen: Bool { closedAt == nil }

  /// True when `path` lies in the gap's root and `date` in its period (until `now` while the
  /// watcher has not caught up).
  package func covers(path: String, at date: Date, now: Date) -> Bool {
    let start = since ?? at
    guard date >= start, date <= (caughtUpAt ?? now) else { return false }
    return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }
}

/// A root walked again by the watcher: the end of its gaps.
package struct WatchCatchUpRecord: Sendable, Equatable {
  package var root: String
  package var at: Date
  package var events: Int
  /// False when folders stayed unwatched: a watch-limit gap stays open.
  package var complete: Bool

  package init(root: String, at: Date, events: Int, complete: Bool) {
    self.root = root
    self.at = at
    self.events = events
    self.complete = complete
  }
}

extension PartitionStore {
  /// Records the watcher's deletions as positive signals (source `watcher`, dated when they
  /// happened, first write wins, as a trash's), its gaps, and its catch-ups, in one
  /// transaction. Checksums the observed store never saw are skipped: nothing on the server
  /// can be matched to them. Returns how many signals were new.
  @discardableResult
  package func recordWatcher(
    _ deletions: [WatchedDeletionSignal], gaps: [WatchGapRecord],
    caughtUp: [WatchCatchUpRecord] = []
  ) throws(CairnError) -> Int {
    var confirmations: [DeletionConfirmation] = []
    for deletion in deletions where try observed.contains(deletion.checksum) {
      confirmations.append(
        DeletionConfirmation(
          checksum: deletion.checksum, confirmedAt: deletion.at,
          source: DeletionConfirmation.watcherSource, originalPath: deletion.path))
    }
    let added = try signals.union(confirmations)
    guard !gaps.isEmpty || !caughtUp.isEmpty else { return added }
    let lastReconcile = try meta.date(.lastReconcileAt)
    try database.write { db in
      for gap in gaps {
        try db.execute(
          sql: """
            INSERT INTO watchGap (at, reason, root, since, caughtUpAt, closedAt, events)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            gap.at.stateValue, gap.reason, gap.root,
            Self.since(gap, lastReconcile: lastReconcile).stateValue,
            gap.caughtUpAt?.stateValue, gap.closedAt?.stateValue, gap.events,
          ])
      }
      for end in caughtUp {
        // Every gap of the root still open ends here, one left by a watcher that died too.
        try db.execute(
          sql: """
            UPDATE watchGap SET caughtUpAt = ?, events = max(events, ?)
            WHERE root = ? AND caughtUpAt IS NULL AND at <= ? AND (? OR reason <> ?)
            """,
          arguments: [
            end.at.stateValue, end.events, end.root, end.at.stateValue, end.complete,
            WatchGapRecord.watchLimit,
          ])
      }
    }
    return added
  }

  /// Where a gap's period begins: at the watcher's start for a start, else at the last
  /// reconcile before the gap (the beginning of time when none came before it).
  static func since(_ gap: WatchGapRecord, lastReconcile: Date?) -> Date {
    if let since = gap.since { return since }
    guard gap.reason != WatchGapRecord.started else { return gap.at }
    guard let lastReconcile, lastReconcile <= gap.at else {
      // No reconcile yet: nothing the watcher confirmed before the gap was ever judged, so
      // all of it is in the period; a reconcile after the gap (the state was busy while the
      // gap was written) leaves the period starting at the gap.
      return lastReconcile == nil ? Date(timeIntervalSince1970: 0) : gap.at
    }
    return lastReconcile
  }

  /// The watcher's gaps, oldest first.
  package func watchGaps() throws(CairnError) -> [WatchGapRecord] {
    try database.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT at, reason, root, since, caughtUpAt, closedAt, events FROM watchGap
          ORDER BY at, rowid
          """
      ).map {
        WatchGapRecord(
          at: Date(stateValue: $0[0]), reason: $0[1], root: $0[2],
          since: ($0[3] as Double?).map(Date.init(stateValue:)),
          caughtUpAt: ($0[4] as Double?).map(Date.init(stateValue:)),
          closedAt: ($0[5] as Double?).map(Date.init(stateValue:)), events: $0[6])
      }
    }
  }
}

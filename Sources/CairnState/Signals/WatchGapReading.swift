import CairnEngine
import CairnStream
import Foundation
import GRDB

/// How a run reads the watcher's gaps: its confirmations in a gap's period are not trusted
/// (the scan judges those deletions as if no watcher ran), and a gap is closed once a
/// complete scan of its root came after the watcher caught up.
extension PartitionStore {
  /// The positive signals the engine may trust at `now`: all but the watcher's that lie in a
  /// gap's period (`WatchGapRecord.covers`).
  package func trustedConfirmations(now: Date) throws(CairnError)
    -> [String: DeletionConfirmation]
  {
    Self.trusted(try signals.confirmations(), gaps: try watchGaps(), now: now).trusted
  }

  /// Splits confirmations into the trusted and the watcher's in a gap's period.
  package static func trusted(
    _ confirmations: [String: DeletionConfirmation], gaps: [WatchGapRecord], now: Date
  ) -> (trusted: [String: DeletionConfirmation], inGaps: [String: DeletionConfirmation]) {
    guard !gaps.isEmpty else { return (confirmations, [:]) }
    var trusted = confirmations
    var inGaps: [String: DeletionConfirmation] = [:]
    for (checksum, confirmation) in confirmations
    where confirmation.source == DeletionConfirmation.watcherSource {
      let path = confirmation.originalPath ?? ""
      if gaps.contains(where: { $0.covers(path: path, at: confirmation.confirmedAt, now: now) }) {
        trusted[checksum] = nil
        inGaps[checksum] = confirmation
      }
    }
    return (trusted, inGaps)
  }

  /// Closes the gaps the watcher caught up with before `scannedAt` whose roots lie in a
  /// root this run scanned completely. Returns how many.
  @discardableResult
  package func closeWatchGaps(completeRoots: [String], scannedAt now: Date) throws(CairnError)
    -> Int
  {
    guard !completeRoots.isEmpty else { return 0 }
    let gaps = try watchGaps().filter { gap in
      guard gap.isOpen, let caughtUp = gap.caughtUpAt, caughtUp <= now else { return false }
      return completeRoots.contains { root in
        gap.root == root || gap.root.hasPrefix(root.hasSuffix("/") ? root : root + "/")
      }
    }
    guard !gaps.isEmpty else { return 0 }
    try database.write { db in
      for gap in gaps {
        try db.execute(
          sql: "UPDATE watchGap SET closedAt = ? WHERE root = ? AND at = ? AND closedAt IS NULL",
          arguments: [now.stateValue, gap.root, gap.at.stateValue])
      }
    }
    return gaps.count
  }
}

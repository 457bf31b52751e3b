import CairnJSON
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// What a run says about the watcher's open gaps in the roots it scanned: there the watcher's
/// confirmations of the gap's period are not trusted, and the scan judges those deletions.
enum WatchGapNotice {
  static func say(_ store: PartitionStore, roots: [String], now: Date) throws(CairnError) {
    for gap in try store.watchGaps() where gap.isOpen && inScope(gap.root, roots) {
      guard gap.reason != WatchGapRecord.started || gap.caughtUpAt == nil else { continue }
      let state =
        gap.caughtUpAt.map { "caught up \($0.iso8601), not scanned since" } ?? "not caught up"
      let since = (gap.since ?? gap.at).iso8601
      Diagnostics.info(
        "the watcher's record of \(gap.root) has a gap (\(gap.reason) at \(gap.at.iso8601), "
          + "\(state)): its deletions since \(since) are judged as this scan judges them")
    }
  }

  /// True when the gap's root is one of the scanned roots or lies in or around one.
  static func inScope(_ root: String, _ scanned: [String]) -> Bool {
    scanned.contains { path in
      let r = root.hasSuffix("/") ? root : root + "/"
      let p = path.hasSuffix("/") ? path : path + "/"
      return r.hasPrefix(p) || p.hasPrefix(r)
    }
  }
}

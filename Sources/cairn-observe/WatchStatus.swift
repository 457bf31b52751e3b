import CairnJSON
import CairnReconcile
import CairnRecords
import CairnSettings
import CairnState
import CairnStream
import CairnTool
import CairnWatch
import Foundation

/// `cairn-observe watch status`: whether the partition's watcher runs, what it last
/// reported, and its recent gaps with their causes and ends, as lines for a person.
enum WatchStatus {
  /// How many gaps are listed, newest last.
  static let recentGaps = 10

  static func print(_ options: PartitionOptions, _ common: CommonOptions) throws(CairnError) {
    let configuration = try Configuration.load()
    let identity = try ListingInput.identity(
      serverFile: options.serverFile,
      fetchArguments: common.forwarded)
    let paths = configuration.paths
    let partition = identity.partition
    // A status changes nothing: a partition with no state yet has no gaps, and is not made.
    var gaps: [WatchGapRecord] = []
    if FileManager.default.fileExists(atPath: paths.stateDatabase(partition)) {
      // Read beside whatever holds the lock: a status never waits for a run.
      let store = try PartitionStore.open(partition, paths: paths, locking: false)
      defer { store.close() }
      gaps = try store.watchGaps()
    }
    let writer = RecordWriter()
    for line in lines(
      pid: WatchPresence.holder(paths, partition),
      activity: WatchPresence.read(paths, partition), gaps: gaps)
    {
      writer.writeText(line)
    }
    writer.flush()
  }

  /// The report, from what the kernel, the status file and the state say.
  static func lines(pid: Int?, activity: WatchActivity?, gaps: [WatchGapRecord]) -> [String] {
    var lines: [String] = []
    if let pid {
      lines.append("watcher: running (pid \(pid))")
    } else {
      lines.append("watcher: not running")
    }
    if let activity {
      if pid == nil {
        // A watcher that did not stop on a signal was killed, or its machine went down.
        let end = activity.stopping ? "stopped on a signal" : "ended without stopping cleanly"
        lines.append(
          "last ran: pid \(activity.pid), started \(activity.startedAt.iso8601), \(end)")
      } else {
        lines.append("started: pid \(activity.pid), \(activity.startedAt.iso8601)")
      }
      lines.append("roots: " + activity.roots.joined(separator: ", "))
      lines.append("last event: " + (activity.lastEventAt?.iso8601 ?? "none yet"))
      lines.append(
        "folders watched: \(activity.folders); waiting to settle: \(activity.waiting); "
          + "confirmed: \(activity.confirmed); catch-up walks: \(activity.catchUpWalks)")
      lines.append(
        "arrivals recorded: \(activity.arrivalsRecorded); seen but not hashed: "
          + "\(activity.arrivalsUnhashed)"
          + (activity.arrivalsDropped > 0
            ? "; left to the next scan (too many at once): \(activity.arrivalsDropped)" : "")
          + (pid != nil && activity.arrivalsWaiting > 0
            ? "; waiting to be hashed: \(activity.arrivalsWaiting)" : ""))
      if !activity.scanOnly.isEmpty {
        lines.append(
          "scan-only (network or FUSE file system: other machines' changes are not seen, "
            + "nothing is confirmed): " + activity.scanOnly.joined(separator: ", "))
      }
      if pid != nil && !activity.catchingUp.isEmpty {
        lines.append("catching up: " + activity.catchingUp.joined(separator: ", "))
      }
    }
    let open = gaps.filter(\.isOpen).count
    lines.append("gaps: \(gaps.count) recorded, \(open) open")
    for gap in gaps.suffix(recentGaps) { lines.append("  " + describe(gap)) }
    return lines
  }

  static func describe(_ gap: WatchGapRecord) -> String {
    var text = "\(gap.at.iso8601)  \(gap.reason)  \(gap.root)  "
    if let caughtUp = gap.caughtUpAt {
      text += "caught up \(caughtUp.iso8601)"
      if gap.events > 1 { text += " (\(gap.events) gap events, one walk)" }
      text += gap.closedAt.map { "; closed by the scan of \($0.iso8601)" } ?? "; not scanned since"
    } else {
      text += "not caught up"
    }
    return text
  }
}

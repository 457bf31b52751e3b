import Foundation

/// What a running watcher is doing, as `cairn-observe watch status` shows it: written by the
/// watcher beside the partition's state when it changes (at most once a second).
package struct WatchActivity: Sendable, Equatable, Codable {
  package var pid: Int
  package var startedAt: Date
  package var roots: [String]
  package var settleSeconds: Double
  /// When the source last reported anything (nil: nothing yet).
  package var lastEventAt: Date?
  /// Folders watched now.
  package var folders = 0
  /// Deletions and moves waiting to settle.
  package var waiting = 0
  /// Deletions confirmed since the start.
  package var confirmed = 0
  /// Walks that ended gaps since the start (the first walk of each root included).
  package var catchUpWalks = 0
  /// Roots with a gap whose catch-up walk has not run yet (or that are missing).
  package var catchingUp: [String] = []
  /// True once it stopped on a signal.
  package var stopping = false
  /// Arrivals recorded as observed since the start.
  package var arrivalsRecorded = 0
  /// Arrivals seen but not hashed (gone before they were read, unreadable), kept as seen.
  package var arrivalsUnhashed = 0
  /// Arrivals left to the next scan when an import overflowed the queue.
  package var arrivalsDropped = 0
  /// Arrivals waiting to be hashed, or being hashed.
  package var arrivalsWaiting = 0
  /// Roots on a network or FUSE file system, with its name: left to the scan, not witnessed.
  package var scanOnly: [String] = []

  enum CodingKeys: String, CodingKey {
    case pid, startedAt, roots, settleSeconds, lastEventAt, folders, waiting, confirmed
    case catchUpWalks, catchingUp, stopping, arrivalsRecorded, arrivalsUnhashed
    case arrivalsDropped, arrivalsWaiting, scanOnly
  }

  /// Reads what an older watcher wrote too (the counts it did not keep are nought).
  package init(from decoder: Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    pid = try values.decode(Int.self, forKey: .pid)
    startedAt = try values.decode(Date.self, forKey: .startedAt)
    roots = try values.decode([String].self, forKey: .roots)
    settleSeconds = try values.decode(Double.self, forKey: .settleSeconds)
    lastEventAt = try values.decodeIfPresent(Date.self, forKey: .lastEventAt)
    folders = try values.decodeIfPresent(Int.self, forKey: .folders) ?? 0
    waiting = try values.decodeIfPresent(Int.self, forKey: .waiting) ?? 0
    confirmed = try values.decodeIfPresent(Int.self, forKey: .confirmed) ?? 0
    catchUpWalks = try values.decodeIfPresent(Int.self, forKey: .catchUpWalks) ?? 0
    catchingUp = try values.decodeIfPresent([String].self, forKey: .catchingUp) ?? []
    stopping = try values.decodeIfPresent(Bool.self, forKey: .stopping) ?? false
    arrivalsRecorded = try values.decodeIfPresent(Int.self, forKey: .arrivalsRecorded) ?? 0
    arrivalsUnhashed = try values.decodeIfPresent(Int.self, forKey: .arrivalsUnhashed) ?? 0
    arrivalsDropped = try values.decodeIfPresent(Int.self, forKey: .arrivalsDropped) ?? 0
    arrivalsWaiting = try values.decodeIfPresent(Int.self, forKey: .arrivalsWaiting) ?? 0
    scanOnly = try values.decodeIfPresent([String].self, forKey: .scanOnly) ?? []
  }

  package init(pid: Int, startedAt: Date, roots: [String], settleSeconds: Double) {
    self.pid = pid
    self.startedAt = startedAt
    self.roots = roots
    self.settleSeconds = settleSeconds
  }
}

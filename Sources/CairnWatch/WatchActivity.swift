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

  package init(pid: Int, startedAt: Date, roots: [String], settleSeconds: Double) {
    self.pid = pid
    self.startedAt = startedAt
    self.roots = roots
    self.settleSeconds = settleSeconds
  }
}

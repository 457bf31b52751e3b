import CairnSupport
import Foundation

/// The one-line progress display on a terminal's stderr: files, bytes, rate and, once the walk
/// has listed everything, the time left. Drawn by the shared `ProgressLine`, which redraws it in
/// place at most ten times a second.
final class ScanProgress {
  let enabled: Bool
  private let started = ContinuousClock.now

  /// Files and bytes output so far.
  var files = 0
  var bytes: Int64 = 0
  /// Bytes the walk queued for hashing, and whether the walk has finished.
  var queuedBytes: Int64 = 0
  var walkFinished = false

  init(enabled: Bool) {
    self.enabled = enabled
  }

  /// Redraws if the line is due; `hashed` is bytes read by the workers.
  func tick(hashed: @autoclosure () -> Int64) {
    guard enabled else { return }
    ProgressLine.standardError.show(self.text(hashed: hashed(), now: ContinuousClock.now))
  }

  /// Removes the line, so a diagnostic or the shell prompt starts on a clean line.
  func clear() {
    guard enabled else { return }
    ProgressLine.standardError.clear()
  }

  private func text(hashed: Int64, now: ContinuousClock.Instant) -> String {
    let elapsed = now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = seconds > 0 ? Double(hashed) / seconds : 0
    var line = "\(files) files, \(Self.size(bytes)), \(Self.size(Int64(rate)))/s"
    if walkFinished && rate > 0 {
      let left = max(0, Double(queuedBytes - hashed) / rate)
      line += ", ETA " + Self.duration(left)
    } else if !walkFinished {
      line += ", listing"
    }
    return line
  }

  static func size(_ bytes: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
  }

  static func duration(_ seconds: Double) -> String {
    let total = Int(seconds.rounded())
    let h = total / 3600
    let m = total / 60 % 60
    let s = total % 60
    return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
  }
}

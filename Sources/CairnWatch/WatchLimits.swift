import Foundation

/// The kernel's limit on inotify watches, and what to say when a library needs more.
package enum WatchLimits {
  package static let path = "/proc/sys/fs/inotify/max_user_watches"

  /// `fs.inotify.max_user_watches`, or nil where there is none (not Linux).
  package static func current() -> Int? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// How to raise the limit to hold `needed` watches, with room to grow (and for the other
  /// programs of the same user that watch folders: editors, desktop search, sync tools).
  package static func advice(needed: Int) -> String {
    let suggested = max(needed * 2, 65_536)
    return "raise it with: sudo sysctl fs.inotify.max_user_watches=\(suggested), and keep it "
      + "with a line 'fs.inotify.max_user_watches=\(suggested)' in "
      + "/etc/sysctl.d/90-cairn-watch.conf"
  }
}

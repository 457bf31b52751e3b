/// Why a folder could not be watched.
package enum WatchFailure: Error, Sendable, Equatable {
  /// The kernel's limit on watches was reached (`ENOSPC`; `fs.inotify.max_user_watches`).
  case limit
  /// Anything else (the folder vanished, permission denied): `errno`'s text.
  case other(String)
}

/// Where the kernel's file events come from: inotify on Linux, FSEvents on macOS.
///
/// A source watches folders one at a time (inotify has no recursive watch; FSEvents watches a
/// root's whole tree and makes the others no-ops) and reports events by folder identity, so the
/// decisions (`EventJudge`) never depend on which kernel interface is underneath.
package protocol EventSource: AnyObject {
  /// Starts reporting the entries of the folder at `path`, known as `id`.
  func watch(_ path: String, id: FolderID) throws(WatchFailure)
  /// Stops reporting a folder (it left the roots, or was removed).
  func unwatch(_ id: FolderID)
  /// Waits up to `milliseconds` for events; returns what arrived (nothing on a time-out or
  /// when `stop` was signalled).
  func next(milliseconds: Int32) -> [SourceEvent]
}

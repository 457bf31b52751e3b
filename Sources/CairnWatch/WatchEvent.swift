import Foundation

/// A watched folder, by what survives its renames: device and inode.
package struct FolderID: Hashable, Sendable, CustomStringConvertible {
  package var device: UInt64
  package var inode: UInt64

  package init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }

  package var description: String { "\(device):\(inode)" }
}

/// What the watcher knows of a file: which inode it is, and when it last changed (nanoseconds).
/// The hash cache's checksum for the inode is trusted only when its change time is this one,
/// so an edit the cache has not seen, or an inode reused by another file, proves nothing.
package struct FileStamp: Hashable, Sendable {
  package var device: UInt64
  package var inode: UInt64
  package var changeNanoseconds: Int64

  package init(device: UInt64, inode: UInt64, changeNanoseconds: Int64) {
    self.device = device
    self.inode = inode
    self.changeNanoseconds = changeNanoseconds
  }
}

/// What happened to one name in a watched folder.
package enum EntryChange: String, Sendable {
  /// Created (`IN_CREATE`).
  case created
  /// Written and closed (`IN_CLOSE_WRITE`).
  case written
  /// Unlinked (`IN_DELETE`).
  case removed
  /// Renamed away from this name (`IN_MOVED_FROM`); a `movedTo` with the same cookie may follow.
  case movedFrom
  /// Renamed to this name (`IN_MOVED_TO`).
  case movedTo
}

/// Why the record has a hole: for the span of a gap, nothing the watcher did not see is
/// confirmed, and what it saw just before is dropped too (it may belong to the same cause).
package enum GapReason: String, Sendable {
  /// The watcher started (or restarted): whatever happened while it was not running is unknown.
  case started
  /// The kernel's queue overflowed (`IN_Q_OVERFLOW`): events were lost.
  case overflow
  /// A file system under a root was unmounted (`IN_UNMOUNT`).
  case unmounted
  /// The mount table changed under a root (a bind mount going leaves no inotify event at all).
  case mountsChanged = "mounts-changed"
  /// A root folder was deleted (`IN_DELETE_SELF`) or is missing.
  case rootRemoved = "root-removed"
  /// A root folder was moved away (`IN_MOVE_SELF`), or another folder now stands at its path.
  case rootReplaced = "root-replaced"
  /// `inotify_add_watch` failed with ENOSPC: folders beyond the limit are not watched.
  case watchLimit = "watch-limit"
  /// More files arrived than the watcher keeps waiting to be hashed (an import): those left
  /// are the next scan's to record.
  case arrivals = "arrivals-overflow"
}

/// One event from an `EventSource`, in the source's terms: folders by identity, names in them.
package enum SourceEvent: Sendable, Equatable {
  case entry(EntryChange, folder: FolderID, name: String, isDirectory: Bool, cookie: UInt32)
  /// The watched folder itself was deleted (`IN_DELETE_SELF`).
  case folderDeleted(FolderID)
  /// The watched folder itself was moved (`IN_MOVE_SELF`).
  case folderMoved(FolderID)
  /// The file system holding the watched folder was unmounted (`IN_UNMOUNT`).
  case unmounted(FolderID)
  /// Events were lost (`IN_Q_OVERFLOW`, FSEvents' dropped events).
  case overflow
  /// The system's mount table changed (which mounts, the watcher finds out itself).
  case mountsChanged
}

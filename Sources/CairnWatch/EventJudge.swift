import CairnHashing
import Foundation

/// A file the watcher saw leave the library: unlinked, or moved out of every watched root.
package struct WatchedDeletion: Sendable, Equatable {
  /// Where it was; for a file inside a folder moved out, the folder's path.
  package var path: String
  /// What the watcher knew of the file (nil: it never saw the file, so no checksum is known).
  package var stamp: FileStamp?
  /// When it happened.
  package var at: Date
  /// The index of its root.
  package var root: Int
  /// True when it was moved out rather than unlinked.
  package var movedOut: Bool

  package init(path: String, stamp: FileStamp?, at: Date, root: Int, movedOut: Bool) {
    self.path = path
    self.stamp = stamp
    self.at = at
    self.root = root
    self.movedOut = movedOut
  }
}

/// What the watcher must do or say about an event.
package enum Decision: Sendable, Equatable {
  /// A move within the roots: nothing is deleted.
  case renamed(from: String, to: String)
  /// A file replaced by a rename onto its name (an editor's or a sync tool's save): an edit.
  case edited(path: String)
  /// A photo renamed into Android's trash (`.trashed-`): left to the scan, which asks a person.
  case androidTrash(path: String)
  /// A folder appeared under a watched one: watch it, and walk what it already holds.
  case watchFolder(parent: FolderID, name: String)
  /// These folders left the roots: stop watching them.
  case unwatch([FolderID])
  /// The record has a hole for these roots (all of them when the list is every root).
  case gap(GapReason, roots: [Int])
}

/// Deletions the judge let go without confirming them, and why (the watcher says so).
package enum Withheld: Sendable, Equatable {
  /// Held deletions under a folder that was then removed itself: a tree removal.
  case folderRemoved(path: String, count: Int)
  /// A burst of deletions that emptied its root (at least half of its media files, and at
  /// least ten).
  case rootEmptied(root: Int, count: Int)
}

/// Decides, from the source's events alone, which are deletions, which renames and edits, and
/// which are gaps. Pure: the caller hands it each event with its time and, for a file that was
/// created, written or moved in, what `lstat` said of it; the only state is the folder tree,
/// the moves waiting for their other half, and the deletions waiting to settle.
///
/// A deletion is final only when its root has had no deletion for `settle` seconds
/// (`DeletionHold`), and then only if nothing said it was part of a tree removal: `rm -r`
/// unlinks every file of a folder before the folder's own removal arrives (the root's
/// `IN_DELETE_SELF` last of all), however many seconds that takes, and those unlinks are the
/// tree's disappearance, not deletions of photos. A folder's removal drops what is held under
/// it, a gap what is held in its roots, and a burst that empties its root drops itself.
package struct EventJudge: Sendable {
  package private(set) var tree: FolderTree
  /// How long a `movedFrom` waits for its `movedTo` (the kernel queues both halves together).
  package var moveWindow: TimeInterval
  /// How long a deletion waits for a gap that would cancel it.
  package var settle: TimeInterval

  enum Move: Sendable {
    case file(folder: FolderID, name: String, path: String, file: FolderTree.File?)
    case folder(FolderID, path: String)
  }

  private var moves: [UInt32: (move: Move, at: Date)] = [:]
  private var hold: DeletionHold
  private var withheld: [Withheld] = []

  package init(tree: FolderTree, moveWindow: TimeInterval = 0.5, settle: TimeInterval = 2) {
    self.tree = tree
    self.moveWindow = moveWindow
    self.settle = settle
    hold = DeletionHold(settle: settle)
  }

  package var waiting: Int { hold.count + moves.count }

  /// What was let go unconfirmed since the last call.
  package mutating func takeWithheld() -> [Withheld] {
    defer { withheld = [] }
    return withheld
  }

  /// Lets the caller add what it walked to the tree.
  package mutating func updateTree(_ body: (inout FolderTree) -> Void) { body(&tree) }

  /// A name the library scan would hash: a photo or video, not in a trash, not junk, not one
  /// MediaStore is still writing or has in its trash.
  package static func isLibraryFile(_ name: String) -> Bool {
    MediaTypes.isMedia(name: name) && !LibraryExclusions.isExcluded(name)
  }

  /// A folder the library scan would enter.
  package static func isLibraryFolder(_ name: String) -> Bool {
    !LibraryExclusions.isExcluded(name)
  }

  /// Judges one event. `stamp` is what `lstat` found at the event's path when the event is a
  /// file created, written or moved in (nil when it is already gone, or not a regular file).
  package mutating func judge(_ event: SourceEvent, at now: Date, stamp: FileStamp? = nil)
    -> [Decision]
  {
    switch event {
    case .entry(let change, let folder, let name, let isDirectory, let cookie):
      guard tree.contains(folder) else { return [] }
      return isDirectory
        ? folderEntry(change, folder, name, cookie, now)
        : fileEntry(change, folder, name, cookie, now, stamp)
    case .folderDeleted(let id):
      guard let root = tree.root(of: id), tree.isRoot(id) else { return [] }
      return [gap(.rootRemoved, roots: [root])]
    case .folderMoved(let id):
      guard let root = tree.root(of: id), tree.isRoot(id) else { return [] }
      return [gap(.rootReplaced, roots: [root])]
    case .unmounted(let id):
      guard let root = tree.root(of: id) else { return [] }
      return [gap(.unmounted, roots: [root])]
    case .overflow:
      return [gap(.overflow, roots: Array(tree.roots.indices))]
    case .mountsChanged:
      return []  // the caller compares the mount tables and calls `gap` when a root is touched
    }
  }

  private mutating func fileEntry(
    _ change: EntryChange, _ folder: FolderID, _ name: String, _ cookie: UInt32, _ now: Date,
    _ stamp: FileStamp?
  ) -> [Decision] {
    let path = tree.path(of: folder, name: name) ?? name
    switch change {
    case .created, .written:
      guard Self.isLibraryFile(name) else { return [] }
      tree.setFile(name, in: folder, stamp.map(Self.file))
      return []
    case .removed:
      guard Self.isLibraryFile(name) else { return [] }
      let known = tree.file(name, in: folder)
      tree.setFile(name, in: folder, nil)
      hold([deletion(path, folder, known, now, movedOut: false)], arrived: now)
      return []
    case .movedFrom:
      guard Self.isLibraryFile(name) else { return [] }
      moves[cookie] = (
        .file(folder: folder, name: name, path: path, file: tree.file(name, in: folder)), now
      )
      tree.setFile(name, in: folder, nil)
      return []
    case .movedTo:
      let replaced = tree.file(name, in: folder) != nil
      if let (move, _) = moves.removeValue(forKey: cookie),
        case .file(_, _, let from, let old) = move
      {
        guard Self.isLibraryFile(name) else {
          // Renamed to a name the scan skips, inside the roots: not an unlink.
          if MediaStoreName(name)?.state == .trashed { return [.androidTrash(path: from)] }
          return [.renamed(from: from, to: path)]
        }
        // A rename moves the ctime but not the bytes: keep what the cache may know.
        var file = stamp.map(Self.file)
        if let old, let new = file, new.inode == old.inode { file = old }
        tree.setFile(name, in: folder, file)
        return replaced
          ? [.renamed(from: from, to: path), .edited(path: path)]
          : [.renamed(from: from, to: path)]
      }
      guard Self.isLibraryFile(name) else { return [] }
      tree.setFile(name, in: folder, stamp.map(Self.file))
      return replaced ? [.edited(path: path)] : []
    }
  }

  private mutating func folderEntry(
    _ change: EntryChange, _ folder: FolderID, _ name: String, _ cookie: UInt32, _ now: Date
  ) -> [Decision] {
    switch change {
    case .created:
      return Self.isLibraryFolder(name) ? [.watchFolder(parent: folder, name: name)] : []
    case .written:
      return []
    case .removed:
      // `rm -r` unlinked (and reported) every file first; `rmdir` needs the folder empty.
      // Those unlinks were the folder's removal: nothing held under it is confirmed.
      guard let sub = tree.subfolder(name, of: folder) else { return [] }
      let path = tree.path(of: sub) ?? name
      let removed = tree.removeFolder(sub)
      let dropped = hold.drop(folders: Set(removed))
      if dropped > 0 { withheld.append(.folderRemoved(path: path, count: dropped)) }
      return [.unwatch(removed)]
    case .movedFrom:
      guard let sub = tree.subfolder(name, of: folder) else { return [] }
      moves[cookie] = (.folder(sub, path: tree.path(of: sub) ?? name), now)
      return []
    case .movedTo:
      if let (move, _) = moves.removeValue(forKey: cookie), case .folder(let id, let from) = move {
        let to = tree.path(of: folder, name: name) ?? name
        guard Self.isLibraryFolder(name) else {
          // Moved into a trash folder inside the root: its files left the library.
          return movedOut(id, path: from, at: now, now: now)
        }
        tree.moveFolder(id, to: folder, name: name)
        return [.renamed(from: from, to: to)]
      }
      return Self.isLibraryFolder(name) ? [.watchFolder(parent: folder, name: name)] : []
    }
  }

  /// A file or folder a walk found in a folder the watcher had only just begun to watch: the
  /// other half of a move whose `IN_MOVED_TO` came before the watch did
  /// (`mkdir 2025 && mv a.jpg 2025/`) is a rename, not a move out.
  package mutating func walked(
    into folder: FolderID, name: String, file: FileStamp? = nil, folderID: FolderID? = nil
  ) -> [Decision] {
    guard !moves.isEmpty else { return [] }
    for (cookie, (move, _)) in moves {
      switch move {
      case .file(let from, _, let path, let known):
        guard let file, let known, known.inode == file.inode, from.device == file.device else {
          continue
        }
        moves[cookie] = nil
        return [.renamed(from: path, to: tree.path(of: folder, name: name) ?? name)]
      case .folder(let id, let path):
        guard id == folderID else { continue }
        moves[cookie] = nil
        return [.renamed(from: path, to: tree.path(of: folder, name: name) ?? name)]
      }
    }
    return []
  }

  /// Moves whose other half did not come within the window left every root.
  package mutating func expireMoves(now: Date) -> [Decision] {
    var decisions: [Decision] = []
    for (cookie, (move, at)) in moves where now.timeIntervalSince(at) >= moveWindow {
      moves[cookie] = nil
      switch move {
      case .file(let folder, _, let path, let file):
        hold([deletion(path, folder, file, at, movedOut: true)], arrived: now)
      case .folder(let id, let path):
        decisions += movedOut(id, path: path, at: at, now: now)
      }
    }
    return decisions
  }

  /// The deletions of roots that have had no deletion for `settle` seconds, oldest first,
  /// but for a burst that emptied its root (`takeWithheld` says so).
  package mutating func settled(now: Date) -> [WatchedDeletion] {
    let (released, emptied) = hold.release(now: now)
    for (root, count) in emptied { withheld.append(.rootEmptied(root: root, count: count)) }
    return released
  }

  /// A hole in the record for `roots`: the deletions and moves not yet settled there are
  /// dropped (a root's disappearance begins with its files'), and nothing more is confirmed
  /// until the caller has walked the roots again.
  package mutating func gap(_ reason: GapReason, roots: [Int]) -> Decision {
    forget(roots: roots)
    return .gap(reason, roots: roots)
  }

  /// Drops the deletions and moves not yet settled in `roots`: at a gap, and again when the
  /// caller has walked a root after one (what arrived in between belongs to the gap).
  package mutating func forget(roots: [Int]) {
    let affected = Set(roots)
    _ = hold.drop(roots: affected)
    for (cookie, (move, _)) in moves {
      let folder: FolderID
      switch move {
      case .file(let id, _, _, _): folder = id
      case .folder(let id, _): folder = id
      }
      if let root = tree.root(of: folder), affected.contains(root) { moves[cookie] = nil }
    }
  }

  private mutating func movedOut(_ id: FolderID, path: String, at: Date, now: Date)
    -> [Decision]
  {
    guard let root = tree.root(of: id) else { return [] }
    var deletions: [DeletionHold.Held] = []
    for (folder, file) in tree.files(under: id) {
      let where_ = tree.path(of: folder) ?? path
      deletions.append(
        DeletionHold.Held(
          deletion: WatchedDeletion(
            path: where_, stamp: stamp(folder, file), at: at, root: root, movedOut: true),
          folder: folder))
    }
    let removed = tree.removeFolder(id)
    hold(deletions, arrived: now)
    return [.unwatch(removed)]
  }

  /// Holds one root's deletions (already gone from the tree) until their burst ends.
  private mutating func hold(_ deletions: [DeletionHold.Held], arrived: Date) {
    guard let root = deletions.first?.deletion.root else { return }
    let before = hold.bursting(root) ? 0 : tree.fileCount(inRoot: root) + deletions.count
    hold.add(deletions, root: root, arrived: arrived, filesBefore: before)
  }

  private func deletion(
    _ path: String, _ folder: FolderID, _ file: FolderTree.File?, _ at: Date, movedOut: Bool
  ) -> DeletionHold.Held {
    DeletionHold.Held(
      deletion: WatchedDeletion(
        path: path, stamp: file.map { stamp(folder, $0) }, at: at,
        root: tree.root(of: folder) ?? 0, movedOut: movedOut),
      folder: folder)
  }

  private func stamp(_ folder: FolderID, _ file: FolderTree.File) -> FileStamp {
    FileStamp(device: folder.device, inode: file.inode, changeNanoseconds: file.changeNanoseconds)
  }

  static func file(_ stamp: FileStamp) -> FolderTree.File {
    FolderTree.File(inode: stamp.inode, changeNanoseconds: stamp.changeNanoseconds)
  }
}

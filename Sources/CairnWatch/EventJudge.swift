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

/// Decides, from the source's events alone, which are deletions, which renames and edits, and
/// which are gaps. Pure: the caller hands it each event with its time and, for a file that was
/// created, written or moved in, what `lstat` said of it; the only state is the folder tree,
/// the moves waiting for their other half, and the deletions waiting to settle.
///
/// A deletion is final only after `settle` seconds without a gap on its root: `rm -r` of a
/// whole root unlinks every file before the root's own `IN_DELETE_SELF` arrives, and those
/// unlinks are the root's disappearance, not deletions of photos.
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
  private(set) var unsettled: [WatchedDeletion] = []

  package init(tree: FolderTree, moveWindow: TimeInterval = 0.5, settle: TimeInterval = 2) {
    self.tree = tree
    self.moveWindow = moveWindow
    self.settle = settle
  }

  package var waiting: Int { unsettled.count + moves.count }

  /// Gives the judge the folder tree the caller walked (after a start or a gap).
  package mutating func replaceTree(_ tree: FolderTree) { self.tree = tree }

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
      unsettled.append(deletion(path, folder, known, now, movedOut: false))
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
      guard let sub = tree.subfolder(name, of: folder) else { return [] }
      return [.unwatch(tree.removeFolder(sub))]
    case .movedFrom:
      guard let sub = tree.subfolder(name, of: folder) else { return [] }
      moves[cookie] = (.folder(sub, path: tree.path(of: sub) ?? name), now)
      return []
    case .movedTo:
      if let (move, _) = moves.removeValue(forKey: cookie), case .folder(let id, let from) = move {
        let to = tree.path(of: folder, name: name) ?? name
        guard Self.isLibraryFolder(name) else {
          // Moved into a trash folder inside the root: its files left the library.
          return movedOut(id, path: from, at: now)
        }
        tree.moveFolder(id, to: folder, name: name)
        return [.renamed(from: from, to: to)]
      }
      return Self.isLibraryFolder(name) ? [.watchFolder(parent: folder, name: name)] : []
    }
  }

  /// Moves whose other half did not come within the window left every root.
  package mutating func expireMoves(now: Date) -> [Decision] {
    var decisions: [Decision] = []
    for (cookie, (move, at)) in moves where now.timeIntervalSince(at) >= moveWindow {
      moves[cookie] = nil
      switch move {
      case .file(let folder, _, let path, let file):
        unsettled.append(deletion(path, folder, file, at, movedOut: true))
      case .folder(let id, let path):
        decisions += movedOut(id, path: path, at: at)
      }
    }
    return decisions
  }

  /// Deletions that waited `settle` seconds without a gap on their root, oldest first.
  package mutating func settled(now: Date) -> [WatchedDeletion] {
    let ready = unsettled.filter { now.timeIntervalSince($0.at) >= settle }
    unsettled.removeAll { now.timeIntervalSince($0.at) >= settle }
    return ready
  }

  /// A hole in the record for `roots`: the deletions and moves not yet settled there are
  /// dropped (a root's disappearance begins with its files'), and nothing more is confirmed
  /// until the caller has walked the roots again.
  package mutating func gap(_ reason: GapReason, roots: [Int]) -> Decision {
    let affected = Set(roots)
    unsettled.removeAll { affected.contains($0.root) }
    for (cookie, (move, _)) in moves {
      let folder: FolderID
      switch move {
      case .file(let id, _, _, _): folder = id
      case .folder(let id, _): folder = id
      }
      if let root = tree.root(of: folder), affected.contains(root) { moves[cookie] = nil }
    }
    return .gap(reason, roots: roots)
  }

  private mutating func movedOut(_ id: FolderID, path: String, at: Date) -> [Decision] {
    guard let root = tree.root(of: id) else { return [] }
    for (folder, file) in tree.files(under: id) {
      let where_ = tree.path(of: folder) ?? path
      unsettled.append(
        WatchedDeletion(
          path: where_, stamp: stamp(folder, file), at: at, root: root, movedOut: true))
    }
    return [.unwatch(tree.removeFolder(id))]
  }

  private func deletion(
    _ path: String, _ folder: FolderID, _ file: FolderTree.File?, _ at: Date, movedOut: Bool
  ) -> WatchedDeletion {
    WatchedDeletion(
      path: path, stamp: file.map { stamp(folder, $0) }, at: at, root: tree.root(of: folder) ?? 0,
      movedOut: movedOut)
  }

  private func stamp(_ folder: FolderID, _ file: FolderTree.File) -> FileStamp {
    FileStamp(device: folder.device, inode: file.inode, changeNanoseconds: file.changeNanoseconds)
  }

  static func file(_ stamp: FileStamp) -> FolderTree.File {
    FolderTree.File(inode: stamp.inode, changeNanoseconds: stamp.changeNanoseconds)
  }
}

import CairnSettings

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// What the walk found, in walk order.
package enum WalkItem {
  /// A media file to identify. `path` is NUL-terminated raw bytes; `explicit` when it was named
  /// on the command line (then a symbolic link to it is followed).
  case file(path: [UInt8], status: FileStatus, explicit: Bool)
  /// Something that could not be listed or read; the root's scan is incomplete.
  case failure(path: String, error: SystemError)
}

/// Lists a library root depth-first, each folder's entries sorted by their name bytes, so the
/// same library always yields the same files in the same order.
///
/// Decisions: symbolic links met during the walk are not followed (a linked folder could loop
/// or count a library twice; a linked file's bytes belong to wherever the link points), and
/// are counted as skipped; a root named explicitly is followed, as `find -H` does. A folder
/// reached twice (bind mounts) is visited once. Names that are not valid UTF-8 can't be written
/// as a record's path: they become `EILSEQ` failures, so they never vanish silently.
package struct LibraryWalker {
  /// Hash every regular file, not only the media types Immich accepts.
  package var includeAll = false
  /// Symbolic links skipped in the walk.
  package private(set) var skippedLinks = 0
  /// The mount points under a folder root (walk paths, no NUL), whose files are counted into
  /// `filesUnderMount` for the mount guard. Asked only for folder roots: a list of a hundred
  /// thousand file roots costs nothing.
  var mountPointsUnder: ((String) -> Set<[UInt8]>)?
  private var mountPoints = Set<[UInt8]>()
  /// Folders under a folder root not to walk (walk paths, no NUL): another volume mounted
  /// where a remembered one was is not part of the library until the person accepts it.
  /// Asked after `mountPointsUnder`.
  var foldersToSkipUnder: ((String) -> Set<[UInt8]>)?
  private var skippedFolders = Set<[UInt8]>()
  /// Parts of a folder root out of scope (`CAIRN_IGNORE_PATHS`): never listed, never read, so
  /// nothing in them can fail the scan or be hashed.
  package var ignoredPaths = IgnoredPaths.none
  /// Where the path relative to the root begins in a walk path.
  private var relativeStart = 0
  /// Files found under each folder of `mountPoints` the walk entered.
  private(set) var filesUnderMount: [[UInt8]: Int] = [:]
  /// Files found under the root of the last walk.
  package private(set) var filesInRoot = 0
  /// The paths of every root of the same scan, as the walk writes paths: one met inside
  /// another root is left to its own walk, so a file under two roots is listed once, under the
  /// innermost. (A root reached only through a link inside another is never met: links are
  /// not followed.)
  var otherRoots = Set<[UInt8]>()
  /// Read the folders ahead of the walk on a second thread (`FolderPrefetch`): for a scan
  /// with a core to spare. The walk's order and decisions are the same either way.
  package var readsAhead = false
  private var prefetch: FolderPrefetch?

  package init(includeAll: Bool = false) {
    self.includeAll = includeAll
  }

  /// How a root turned out, before its files are hashed.
  package enum RootOutcome {
    /// Listed; `folder` tells a folder root from a file root.
    case walked(folder: Bool)
    case missing(SystemError)
    case unreadable(SystemError)
  }

  /// Walks `root` (absolute), calling `visit` for every item in order.
  package mutating func walk(root: String, _ visit: (WalkItem) -> Void) -> RootOutcome {
    filesUnderMount = [:]
    filesInRoot = 0
    var s = stat()
    guard stat(root, &s) == 0 else {
      let error = SystemError(errno: errno)
      visit(.failure(path: root, error: error))
      return errno == ENOENT || errno == ENOTDIR ? .missing(error) : .unreadable(error)
    }
    let status = FileStatus(s)
    var bytes = Array(root.utf8)
    if status.isDirectory {
      mountPoints = mountPointsUnder?(root) ?? []
      skippedFolders = foldersToSkipUnder?(root) ?? []
      relativeStart = bytes.count > 1 ? bytes.count + 1 : bytes.count
      var ancestors: [DirectoryKey] = []
      if readsAhead { prefetch = FolderPrefetch(includeAll: includeAll) }
      defer {
        prefetch?.stop()
        prefetch = nil
      }
      if let error = walkDirectory(&bytes, status, &ancestors, visit) { return .unreadable(error) }
      return .walked(folder: true)
    }
    guard status.isRegularFile else {
      let error = SystemError(code: "EINVAL", message: "Not a regular file or folder")
      visit(.failure(path: root, error: error))
      return .unreadable(error)
    }
    if includeAll || bytes.withUnsafeBufferPointer({ MediaTypes.isMedia(name: $0) }) {
      bytes.append(0)
      filesInRoot += 1
      visit(.file(path: bytes, status: status, explicit: true))
    }
    return .walked(folder: false)
  }

  struct DirectoryKey: Equatable {
    var device: UInt64
    var inode: UInt64
  }

  /// Returns the error when the folder itself could not be listed.
  private mutating func walkDirectory(
    _ path: inout [UInt8], _ status: FileStatus, _ ancestors: inout [DirectoryKey],
    _ visit: (WalkItem) -> Void
  ) -> SystemError? {
    let key = DirectoryKey(device: status.device, inode: status.inode)
    if ancestors.contains(key) {
      prefetch?.forget(path)
      return nil
    }
    let listing: FolderListing
    switch prefetch?.take(path) ?? FolderListing.read(path, includeAll: includeAll) {
    case .success(let read): listing = read
    case .failure(let error):
      visit(.failure(path: String(decoding: path, as: UTF8.self), error: error))
      return error
    }
    skippedLinks += listing.skippedLinks
    if let prefetch { prefetch.expect(foldersToEnter(listing, under: path)) }
    ancestors.append(key)
    defer { ancestors.removeLast() }
    let base = path.count
    for entry in listing.entries {
      if base > 1 { path.append(UInt8(ascii: "/")) }  // the root `/` has its slash
      path.append(contentsOf: listing.names[entry.nameStart..<(entry.nameStart + entry.nameCount)])
      defer { path.removeSubrange(base...) }
      switch entry.kind {
      case .file(let fileStatus):
        guard otherRoots.isEmpty || !otherRoots.contains(path) else { continue }
        guard !isIgnored(path, isFolder: false) else { continue }
        path.append(0)
        filesInRoot += 1
        visit(.file(path: path, status: fileStatus, explicit: false))
      case .directory:
        guard !isIgnored(path, isFolder: true) else { continue }
        var s = stat()
        guard withNulTerminated(path, { lstat($0, &s) }) == 0 else {
          let error = SystemError(errno: errno)
          prefetch?.forget(path)
          visit(.failure(path: String(decoding: path, as: UTF8.self), error: error))
          continue
        }
        let child = FileStatus(s)
        // Replaced by a link or a file since the listing: not ours to follow.
        guard child.isDirectory else {
          prefetch?.forget(path)
          continue
        }
        guard otherRoots.isEmpty || !otherRoots.contains(path) else { continue }
        guard skippedFolders.isEmpty || !skippedFolders.contains(path) else { continue }
        // One set lookup per folder, and only when the root has mount points under it.
        guard !mountPoints.isEmpty, mountPoints.contains(path) else {
          _ = walkDirectory(&path, child, &ancestors, visit)
          continue
        }
        let before = filesInRoot
        _ = walkDirectory(&path, child, &ancestors, visit)
        filesUnderMount[path, default: 0] += filesInRoot - before
      case .failure(let error):
        // What could not be read may be a file or a folder: ignored as either, it is not ours.
        guard !isIgnored(path, isFolder: false), !isIgnored(path, isFolder: true) else { continue }
        visit(.failure(path: String(decoding: path, as: UTF8.self), error: error))
      }
    }
    return nil
  }

  /// The subfolders of the folder at `path` the walk will enter, in its order, as far as the
  /// listing tells: those out of scope, another root's or another volume's are left out, as
  /// the walk leaves them (a folder replaced since the listing is forgotten when reached).
  private func foldersToEnter(_ listing: FolderListing, under path: [UInt8]) -> [[UInt8]] {
    var folders: [[UInt8]] = []
    for entry in listing.entries {
      guard case .directory = entry.kind else { continue }
      var child = path
      if child.count > 1 { child.append(UInt8(ascii: "/")) }
      child.append(contentsOf: listing.names[entry.nameStart..<(entry.nameStart + entry.nameCount)])
      guard !isIgnored(child, isFolder: true),
        otherRoots.isEmpty || !otherRoots.contains(child),
        skippedFolders.isEmpty || !skippedFolders.contains(child)
      else { continue }
      folders.append(child)
    }
    return folders
  }

  /// Whether the entry at walk path `path` is out of scope: one string per entry, and only when
  /// some path is ignored.
  private func isIgnored(_ path: [UInt8], isFolder: Bool) -> Bool {
    guard !ignoredPaths.isEmpty, path.count > relativeStart else { return false }
    let relative = String(decoding: path[relativeStart...], as: UTF8.self)
    return ignoredPaths.matches(relative: relative, isFolder: isFolder)
  }
}

/// Calls `body` with `bytes` as a C string (`bytes` may already end in NUL).
func withNulTerminated<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
  var terminated = bytes
  if terminated.last != 0 { terminated.append(0) }
  return terminated.withUnsafeBytes { raw in
    // Never empty (it holds at least the NUL), so the base address exists.
    let chars = raw.bindMemory(to: CChar.self)
    var zero: CChar = 0
    guard let start = chars.baseAddress else { return body(&zero) }
    return body(start)
  }
}

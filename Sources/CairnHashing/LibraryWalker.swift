import CairnCore

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

  /// One directory entry worth visiting; its name lives in the listing's shared byte buffer
  /// (one allocation per folder rather than one per name).
  private struct Entry {
    var nameStart: Int
    var nameCount: Int
    var kind: Kind
    enum Kind { case file(FileStatus), directory, failure(SystemError) }
  }

  private struct Listing {
    var names: [UInt8] = []
    var entries: [Entry] = []
  }

  /// Returns the error when the folder itself could not be listed.
  private mutating func walkDirectory(
    _ path: inout [UInt8], _ status: FileStatus, _ ancestors: inout [DirectoryKey],
    _ visit: (WalkItem) -> Void
  ) -> SystemError? {
    let key = DirectoryKey(device: status.device, inode: status.inode)
    if ancestors.contains(key) { return nil }
    guard let listing = list(path) else {
      let error = SystemError(errno: errno)
      visit(.failure(path: String(decoding: path, as: UTF8.self), error: error))
      return error
    }
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
          visit(
            .failure(path: String(decoding: path, as: UTF8.self), error: SystemError(errno: errno)))
          continue
        }
        let child = FileStatus(s)
        // Replaced by a link or a file since the listing: not ours to follow.
        guard child.isDirectory else { continue }
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

  /// Whether the entry at walk path `path` is out of scope: one string per entry, and only when
  /// some path is ignored.
  private func isIgnored(_ path: [UInt8], isFolder: Bool) -> Bool {
    guard !ignoredPaths.isEmpty, path.count > relativeStart else { return false }
    let relative = String(decoding: path[relativeStart...], as: UTF8.self)
    return ignoredPaths.matches(relative: relative, isFolder: isFolder)
  }

  /// The folder's entries worth visiting, sorted by name bytes; nil (with errno set) when the
  /// folder can't be opened.
  private mutating func list(_ path: [UInt8]) -> Listing? {
    guard let dir = withNulTerminated(path, { opendir($0) }) else { return nil }
    defer { closedir(dir) }
    let fd = dirfd(dir)
    var listing = Listing()
    while true {
      errno = 0
      guard let raw = readdir(dir) else {
        if errno != 0 {
          listing.entries.append(
            Entry(nameStart: 0, nameCount: 0, kind: .failure(SystemError(errno: errno))))
        }
        break
      }
      let type = raw.pointee.d_type
      withUnsafePointer(to: &raw.pointee.d_name) { tuple in
        tuple.withMemoryRebound(to: CChar.self, capacity: 256) { start in
          let name = UnsafeBufferPointer(
            start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self), count: strlen(start)
          )
          if let kind = classify(fd: fd, name: name, type: type) {
            listing.entries.append(
              Entry(nameStart: listing.names.count, nameCount: name.count, kind: kind))
            listing.names.append(contentsOf: name)
          }
        }
      }
    }
    listing.entries = Self.sortedByName(listing)
    return listing
  }

  /// The listing's entries in the order of their name bytes. Each is sorted by its first eight
  /// bytes as one big-endian word (names hold no NUL, so the zeros that pad a short name sort
  /// it first, as the shorter of two names alike so far), and only names alike in those eight
  /// are compared further; the sort moves word and index pairs, not the entries themselves.
  private static func sortedByName(_ listing: Listing) -> [Entry] {
    listing.names.withUnsafeBufferPointer { names in
      guard let base = names.baseAddress else { return listing.entries }  // no names
      var order: [(prefix: UInt64, index: Int)] = []
      order.reserveCapacity(listing.entries.count)
      for (index, entry) in listing.entries.enumerated() {
        var prefix: UInt64 = 0
        for offset in 0..<8 {
          let byte = offset < entry.nameCount ? base[entry.nameStart + offset] : 0
          prefix = prefix << 8 | UInt64(byte)
        }
        order.append((prefix, index))
      }
      order.sort { a, b in
        if a.prefix != b.prefix { return a.prefix < b.prefix }
        let x = listing.entries[a.index]
        let y = listing.entries[b.index]
        let common = min(x.nameCount, y.nameCount) - 8
        let rest = common <= 0 ? 0 : memcmp(base + x.nameStart + 8, base + y.nameStart + 8, common)
        return rest != 0 ? rest < 0 : x.nameCount < y.nameCount
      }
      return order.map { listing.entries[$0.index] }
    }
  }

  private mutating func classify(
    fd: Int32, name: UnsafeBufferPointer<UInt8>, type: UInt8
  ) -> Entry.Kind? {
    if name.count <= 2 && name.allSatisfy({ $0 == UInt8(ascii: ".") }) { return nil }
    if LibraryExclusions.isExcluded(name: name) { return nil }
    var kind = type
    var status: FileStatus?
    let isCandidateFile = includeAll || MediaTypes.isMedia(name: name)
    if type == DT_UNKNOWN || (type == DT_REG && isCandidateFile) {
      var s = stat()
      guard let start = name.baseAddress else { return nil }
      let cName = UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
      guard fstatat(fd, cName, &s, AT_SYMLINK_NOFOLLOW) == 0 else {
        if errno == ENOENT { return nil }  // deleted since the listing
        return .failure(SystemError(errno: errno))
      }
      let fileStatus = FileStatus(s)
      status = fileStatus
      kind =
        fileStatus.isDirectory
        ? UInt8(DT_DIR)
        : fileStatus.isRegularFile
          ? UInt8(DT_REG) : fileStatus.isSymbolicLink ? UInt8(DT_LNK) : UInt8(DT_UNKNOWN)
    }
    switch kind {
    case UInt8(DT_DIR):
      guard Self.isValidUTF8(name) else { return .failure(Self.invalidName) }
      return .directory
    case UInt8(DT_REG):
      guard isCandidateFile, let status else { return nil }
      guard Self.isValidUTF8(name) else { return .failure(Self.invalidName) }
      return .file(status)
    case UInt8(DT_LNK):
      skippedLinks += 1
      return nil
    default:
      return nil
    }
  }

  /// Most names are ASCII: check that first, and only decode the rest.
  static func isValidUTF8(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    if name.allSatisfy({ $0 < 0x80 }) { return true }
    return StrictUTF8.isValid(name)
  }

  static let invalidName = SystemError(
    code: "EILSEQ", message: "Name is not valid UTF-8 and can't be reported; rename it")
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

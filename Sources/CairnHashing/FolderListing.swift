import CairnSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// One folder's entries worth visiting, sorted by their name bytes, as the walk reads them
/// (`LibraryWalker`): media files with their status, folders, and what could not be read.
/// Reading one touches nothing but the folder, so it may be read ahead on another thread
/// (`FolderPrefetch`).
struct FolderListing: Sendable {
  /// One entry; its name lives in the listing's shared byte buffer (one allocation per folder
  /// rather than one per name).
  struct Entry: Sendable {
    var nameStart: Int
    var nameCount: Int
    var kind: Kind
    enum Kind: Sendable { case file(FileStatus), directory, failure(SystemError) }
  }

  var names: [UInt8] = []
  var entries: [Entry] = []
  /// Symbolic links met, which the walk skips and counts.
  var skippedLinks = 0

  /// The folder at `path` (walk path bytes, no NUL), or the error that kept it from being
  /// opened. `includeAll`: every regular file, not only media.
  static func read(_ path: [UInt8], includeAll: Bool) -> Result<FolderListing, SystemError> {
    guard let dir = withNulTerminated(path, { opendir($0) }) else {
      return .failure(SystemError(errno: errno))
    }
    defer { closedir(dir) }
    let fd = dirfd(dir)
    var listing = FolderListing()
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
          if let kind = listing.classify(fd: fd, name: name, type: type, includeAll: includeAll) {
            listing.entries.append(
              Entry(nameStart: listing.names.count, nameCount: name.count, kind: kind))
            listing.names.append(contentsOf: name)
          }
        }
      }
    }
    listing.entries = listing.sortedByName()
    return .success(listing)
  }

  /// The entries in the order of their name bytes. Each is sorted by its first eight bytes as
  /// one big-endian word (names hold no NUL, so the zeros that pad a short name sort it first,
  /// as the shorter of two names alike so far), and only names alike in those eight are
  /// compared further; the sort moves word and index pairs, not the entries themselves.
  private func sortedByName() -> [Entry] {
    names.withUnsafeBufferPointer { names in
      guard let base = names.baseAddress else { return entries }  // no names
      var order: [(prefix: UInt64, index: Int)] = []
      order.reserveCapacity(entries.count)
      for (index, entry) in entries.enumerated() {
        var prefix: UInt64 = 0
        for offset in 0..<8 {
          let byte = offset < entry.nameCount ? base[entry.nameStart + offset] : 0
          prefix = prefix << 8 | UInt64(byte)
        }
        order.append((prefix, index))
      }
      order.sort { a, b in
        if a.prefix != b.prefix { return a.prefix < b.prefix }
        let x = entries[a.index]
        let y = entries[b.index]
        let common = min(x.nameCount, y.nameCount) - 8
        let rest = common <= 0 ? 0 : memcmp(base + x.nameStart + 8, base + y.nameStart + 8, common)
        return rest != 0 ? rest < 0 : x.nameCount < y.nameCount
      }
      return order.map { entries[$0.index] }
    }
  }

  private mutating func classify(
    fd: Int32, name: UnsafeBufferPointer<UInt8>, type: UInt8, includeAll: Bool
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

import CairnEngine
import CairnJSON
import CairnRecords
import CairnSealedFiles
import CairnSupport
import Foundation

/// The last recorded scan, kept as a file beside the state database (see
/// `ScanSnapshotStore`), so that the next scan of the same roots can be compared with it in
/// memory and only what changed is written to SQLite (see `ScanDelta`). A million unchanged
/// files then cost a pass over two lists, not a million rows through SQLite's b-trees.
///
/// Read back, it is its bytes and where each file's fields lie in them. Files are compared
/// with the new scan byte for byte in place; a file becomes a `ScannedFile` only when
/// recording needs one (a million strings would cost more than the comparison).
///
/// It is a full snapshot file (`ScanSnapshotFormat.swift`), or one with a patch over it
/// (`ScanSnapshot.Patch`): then both files' bytes lie in one buffer, the full one's first, and
/// the files are the patch's, in its order, each a file of the full one or one the patch
/// lists itself.
final class ScanSnapshot: ScanFileSource, @unchecked Sendable {
  let roots: [String]
  let absent: [String]
  let sharedIdentities: [String]
  let count: Int
  /// The length and digest of the file the database names: the patch, when there is one.
  let length: Int
  let digest: UInt64
  /// The full file: the whole scan, or the one under the patch.
  let full: FullFile
  private let buffer: SnapshotBuffer
  private let storage: UnsafeMutableRawPointer
  /// Per file: root index, then offset and length of path, checksum and identity.
  private let fields: [UInt32]
  /// Per file: the line digest's two words (both zero: unknown).
  private let digests: [UInt64]
  /// Per file, with a patch: its index in the full file, or -1 when the patch lists it.
  private let fullIndexes: [Int32]?
  /// Whether the paths are in strictly increasing walk order (`ScanDelta.walkOrder`), as
  /// `cairn-hash` lists one root: checked once here, where a snapshot read ahead is checked
  /// on its own core, rather than pair by pair as each scan is compared with it.
  let inWalkOrder: Bool
  let checksumsAreASCII: Bool
  private static let stride = 7

  /// Which full snapshot file a scan is, or is patched over.
  struct FullFile: Equatable {
    var length: Int
    var digest: UInt64
    /// How many files it lists.
    var count: Int
  }

  /// Reads the snapshot in `directory`: the patch over the full file when `naming` (the
  /// length and digest the database records) is the patch's, or when nothing is named and
  /// the patch is over the full file there; the full file alone when `naming` is its own or
  /// nothing is named. Nil when neither file is what is asked for, or when one is damaged,
  /// missing or of another version.
  static func load(directory: String, naming: (length: Int, digest: UInt64)? = nil)
    -> ScanSnapshot?
  {
    let fullPath = directory + "/" + ScanSnapshot.fileName
    if let patch = ScanSnapshot.Patch.Stored.load(directory + "/" + ScanSnapshot.Patch.fileName),
      naming.map({ $0.length == patch.length && $0.digest == patch.digest }) ?? true,
      let scan = load(fullPath, patchedWith: patch)
    {
      return scan
    }
    guard let scan = load(fullPath),
      naming.map({ $0.length == scan.length && $0.digest == scan.digest }) ?? true
    else { return nil }
    return scan
  }

  /// Reads and decodes the full file at `path`; nil when it cannot be read or is not a
  /// snapshot this version wrote.
  static func load(_ path: String) -> ScanSnapshot? { load(path, patchedWith: nil) }

  /// Reads the full file at `path` and, when `patch` is given, the patch after it in the same
  /// buffer; nil unless the full file is the one the patch was made over.
  private static func load(_ path: String, patchedWith patch: ScanSnapshot.Patch.Stored?)
    -> ScanSnapshot?
  {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard let size = SnapshotFile.size(fd) else { return nil }
    if let patch, size != patch.fullLength { return nil }
    let total = size + (patch?.bytes.count ?? 0)
    // Offsets into the buffer are 32-bit.
    guard total <= Int(UInt32.max) else { return nil }
    let buffer: SnapshotBuffer
    if let mapped = SnapshotBuffer(mapping: fd, size: size, count: total) {
      buffer = mapped
    } else {
      buffer = SnapshotBuffer(allocating: total)
      guard SnapshotFile.read(fd, into: buffer.base, count: size) else { return nil }
    }
    if let patch {
      patch.bytes.withUnsafeBytes { bytes in
        UnsafeMutableRawBufferPointer(start: buffer.base + size, count: bytes.count)
          .copyMemory(from: bytes)
      }
    }
    return ScanSnapshot(owning: buffer, fullLength: size, patch: patch)
  }

  /// Decodes `bytes` (copied), a full file; nil when they are not a snapshot this version
  /// wrote.
  static func decode(_ bytes: [UInt8]) -> ScanSnapshot? {
    decode(bytes, patchedWith: nil)
  }

  /// Decodes a full file and, when given, the bytes of a patch over it (both copied).
  static func decode(_ bytes: [UInt8], patchedWith patchBytes: [UInt8]?) -> ScanSnapshot? {
    var patch: ScanSnapshot.Patch.Stored?
    if let patchBytes {
      guard let stored = ScanSnapshot.Patch.Stored(patchBytes), stored.fullLength == bytes.count
      else { return nil }
      patch = stored
    }
    let total = bytes.count + (patchBytes?.count ?? 0)
    let buffer = SnapshotBuffer(allocating: total)
    for (offset, part) in [(0, bytes), (bytes.count, patchBytes ?? [])] {
      part.withUnsafeBytes { raw in
        UnsafeMutableRawBufferPointer(start: buffer.base + offset, count: raw.count)
          .copyMemory(from: raw)
      }
    }
    return ScanSnapshot(owning: buffer, fullLength: bytes.count, patch: patch)
  }

  /// Keeps `buffer`: the full file's `fullLength` bytes, then the patch's if there is one.
  private init?(owning buffer: SnapshotBuffer, fullLength: Int, patch: ScanSnapshot.Patch.Stored?) {
    let storage = buffer.base
    guard let full = ScanSnapshot.FullDecoding(storage, length: fullLength) else { return nil }
    let fullFile = FullFile(length: fullLength, digest: full.digest, count: full.count)
    if let patch {
      let raw = UnsafeRawBufferPointer(
        start: storage, count: fullLength + patch.bytes.count - 8)
      guard patch.fullDigest == full.digest, full.roots == patch.roots,
        let patched = patch.decodeFiles(raw, from: fullLength + patch.filesOffset, over: full)
      else { return nil }
      roots = patch.roots
      count = patched.fullIndexes.count
      absent = patch.absent
      sharedIdentities = patch.sharedIdentities
      length = patch.length
      digest = patch.digest
      fields = patched.fields
      digests = patched.digests
      fullIndexes = patched.fullIndexes
    } else {
      roots = full.roots
      count = full.count
      absent = full.absent
      sharedIdentities = full.sharedIdentities
      length = fullLength
      digest = full.digest
      fields = full.fields
      digests = full.digests
      fullIndexes = nil
    }
    self.buffer = buffer
    self.storage = storage
    self.full = fullFile
    inWalkOrder = Self.isInWalkOrder(storage: storage, fields: fields, count: count)
    checksumsAreASCII = Self.areASCII(storage: storage, fields: fields, count: count)
  }

  private static func areASCII(storage: UnsafeMutableRawPointer, fields: [UInt32], count: Int)
    -> Bool
  {
    (0..<count).allSatisfy { index in
      let at = index * stride + 3
      return UnsafeBufferPointer(
        start: (storage + Int(fields[at])).assumingMemoryBound(to: UInt8.self),
        count: Int(fields[at + 1])
      ).isASCII
    }
  }

  private static func isInWalkOrder(
    storage: UnsafeMutableRawPointer, fields: [UInt32], count: Int
  ) -> Bool {
    func path(_ index: Int) -> UnsafeBufferPointer<UInt8> {
      let at = index * stride + 1
      return UnsafeBufferPointer(
        start: (storage + Int(fields[at])).assumingMemoryBound(to: UInt8.self),
        count: Int(fields[at + 1]))
    }
    for index in 1..<max(1, count) where ScanDelta.walkOrder(path(index - 1), path(index)) >= 0 {
      return false
    }
    return true
  }

  /// The bytes of field `field` (0 path, 1 checksum, 2 identity) of file `index`.
  @inline(__always)
  func bytes(_ index: Int, _ field: Int) -> UnsafeBufferPointer<UInt8> {
    let at = index * Self.stride + 1 + 2 * field
    return UnsafeBufferPointer(
      start: (storage + Int(fields[at])).assumingMemoryBound(to: UInt8.self),
      count: Int(fields[at + 1]))
  }

  func root(_ index: Int) -> String { roots[Int(fields[index * Self.stride])] }

  func pathBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> { bytes(index, 0) }
  func checksumBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> { bytes(index, 1) }
  func identityBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> { bytes(index, 2) }

  /// The digest of the line file `index` was read from, when known.
  func lineDigest(_ index: Int) -> LineDigest? {
    let high = digests[2 * index]
    let low = digests[2 * index + 1]
    return high == 0 && low == 0 ? nil : LineDigest(high: high, low: low)
  }

  /// Where file `index` lies in the full file, when it is there (always, without a patch).
  func fullIndex(_ index: Int) -> Int? {
    guard let fullIndexes else { return index }
    let at = fullIndexes[index]
    return at < 0 ? nil : Int(at)
  }

  /// File `index` as the scan listed it.
  func file(_ index: Int) -> ScannedFile {
    ScannedFile(
      root: root(index), path: String(decoding: bytes(index, 0), as: UTF8.self),
      checksum: String(decoding: bytes(index, 1), as: UTF8.self),
      identity: FileIdentity(key: String(decoding: bytes(index, 2), as: UTF8.self)),
      lineDigest: lineDigest(index))
  }

  /// Whether `file` has file `index`'s root, checksum and identity, byte for byte.
  func hasSameContent(_ index: Int, as file: ScannedFile) -> Bool {
    root(index).sameBytes(as: file.root)
      && file.checksum.withBytes { $0.sameBytes(as: bytes(index, 1)) }
      && file.identity.key.withBytes { $0.sameBytes(as: bytes(index, 2)) }
  }

  /// Whether file `at` of `files` has file `index`'s root, checksum and identity: without a
  /// look when it was read from this very file.
  func hasSameContent(_ index: Int, as files: ScanFiles, _ at: Int) -> Bool {
    files.isFile(at, index, of: self)
      || (root(index).sameBytes(as: files.root(at))
        && files.withChecksum(at) { $0.sameBytes(as: bytes(index, 1)) }
        && files.withIdentity(at) { $0.sameBytes(as: bytes(index, 2)) })
  }

  /// Whether file `at` of `files` is file `index` in every field the snapshot keeps (see
  /// `isSame(_:as:)`): without a look when it was read from this very file.
  func isSame(_ index: Int, as files: ScanFiles, _ at: Int) -> Bool {
    files.isFile(at, index, of: self)
      || (files.lineDigest(at) == lineDigest(index) && hasSameContent(index, as: files, at)
        && files.withPath(at) { $0.sameBytes(as: bytes(index, 0)) })
  }

  /// Whether `file` is file `index` in every field the snapshot keeps, its line digest too.
  func isSame(_ index: Int, as file: ScannedFile) -> Bool {
    file.lineDigest == lineDigest(index) && hasSameContent(index, as: file)
      && file.path.withBytes { $0.sameBytes(as: bytes(index, 0)) }
  }
}

extension ScanSnapshot {
  /// Whether a file of the scan has `checksum`.
  func lists(checksum: String) -> Bool {
    checksum.withBytes { key in (0..<count).contains { bytes($0, 1).sameBytes(as: key) } }
  }

  /// The checksums of the scan's files.
  func checksums() -> Set<ByteKey> {
    Set((0..<count).map { ByteKey(String(decoding: bytes($0, 1), as: UTF8.self)) })
  }
}

/// Memory holding a snapshot's bytes: the file itself mapped copy-on-write, with room after
/// it for a patch, or memory allocated and filled. Mapped, a hundred megabytes cost no copy
/// and no fresh pages: the page cache's are used as they are. Only cairn writes the partition
/// folder, and always a new file renamed over the old, so the pages mapped stay what was
/// read (a file cut short in place under a mapping would fault).
private final class SnapshotBuffer: @unchecked Sendable {
  let base: UnsafeMutableRawPointer
  /// The mapping's length; nil when allocated.
  private let mapped: Int?

  init(allocating count: Int) {
    base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8)
    mapped = nil
  }

  /// The `size` bytes of the file open at `fd` at the start of `count` writable bytes (the
  /// rest zero); nil when it cannot be mapped.
  init?(mapping fd: Int32, size: Int, count: Int) {
    let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)
    let length = max((count + page - 1) / page * page, page)
    let failed = UnsafeMutableRawPointer(bitPattern: -1)
    guard
      let region = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      region != failed
    else { return nil }
    if size > 0 {
      let file = mmap(region, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0)
      guard file == region else {
        munmap(region, length)
        return nil
      }
    }
    base = region
    mapped = length
  }

  deinit {
    if let mapped { munmap(base, mapped) } else { base.deallocate() }
  }
}

import CairnCore
import Foundation

/// A snapshot read back: its bytes, and where each file's fields lie in them. Files are
/// compared with the new scan byte for byte in place; a file becomes a `ScannedFile` only
/// when recording needs one (a million strings would cost more than the comparison).
///
/// It is a full snapshot file (`ScanSnapshot`), or one with a patch over it
/// (`ScanSnapshotPatch`): then both files' bytes lie in one buffer, the full one's first, and
/// the files are the patch's, in its order, each a file of the full one or one the patch
/// lists itself.
final class StoredScan: ScanFileSource, @unchecked Sendable {
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
    -> StoredScan?
  {
    let fullPath = directory + "/" + ScanSnapshot.fileName
    if let patch = ScanSnapshotPatch.Stored.load(directory + "/" + ScanSnapshotPatch.fileName),
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
  static func load(_ path: String) -> StoredScan? { load(path, patchedWith: nil) }

  /// Reads the full file at `path` and, when `patch` is given, the patch after it in the same
  /// buffer; nil unless the full file is the one the patch was made over.
  private static func load(_ path: String, patchedWith patch: ScanSnapshotPatch.Stored?)
    -> StoredScan?
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
    return StoredScan(owning: buffer, fullLength: size, patch: patch)
  }

  /// Decodes `bytes` (copied), a full file; nil when they are not a snapshot this version
  /// wrote.
  static func decode(_ bytes: [UInt8]) -> StoredScan? {
    decode(bytes, patchedWith: nil)
  }

  /// Decodes a full file and, when given, the bytes of a patch over it (both copied).
  static func decode(_ bytes: [UInt8], patchedWith patchBytes: [UInt8]?) -> StoredScan? {
    var patch: ScanSnapshotPatch.Stored?
    if let patchBytes {
      guard let stored = ScanSnapshotPatch.Stored(patchBytes), stored.fullLength == bytes.count
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
    return StoredScan(owning: buffer, fullLength: bytes.count, patch: patch)
  }

  /// Keeps `buffer`: the full file's `fullLength` bytes, then the patch's if there is one.
  private init?(owning buffer: SnapshotBuffer, fullLength: Int, patch: ScanSnapshotPatch.Stored?) {
    let storage = buffer.base
    guard let full = FullDecoding(storage, length: fullLength) else { return nil }
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

/// A full snapshot file decoded (see `ScanSnapshot` for its layout).
struct FullDecoding {
  var roots: [String] = []
  var count = 0
  var absent: [String] = []
  var sharedIdentities: [String] = []
  var digest: UInt64 = 0
  /// As `StoredScan` keeps them.
  var fields: [UInt32] = []
  var digests: [UInt64] = []

  /// Nil when the `length` bytes at `storage` are not a whole snapshot this version wrote.
  init?(_ storage: UnsafeMutableRawPointer, length: Int) {
    let raw = UnsafeRawBufferPointer(start: storage, count: length)
    guard SnapshotFile.hasOwnDigest(raw) else { return nil }
    let content = UnsafeRawBufferPointer(rebasing: raw[0..<length - 8])
    digest = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self))
    var reader = SnapshotReader(content)
    guard reader.bytes(ScanSnapshot.magic.count)?.elementsEqual(ScanSnapshot.magic) == true,
      reader.integer() == ScanSnapshot.version, let roots = reader.strings(),
      let count = reader.count()
    else { return nil }
    self.roots = roots
    self.count = count
    guard let files = Self.files(count, roots: roots.count, in: content, from: reader.offset)
    else { return nil }
    (fields, digests, reader.offset) = files
    guard let absent = reader.strings(), let shared = reader.strings(), reader.atEnd
    else { return nil }
    self.absent = absent
    sharedIdentities = shared
  }
}

extension FullDecoding {
  /// `count` files as `ScanSnapshot.append` wrote them from `offset` in `content`, their
  /// fields as `StoredScan` keeps them, and where they end; nil when they are not that.
  /// (A million files a run: written straight into the two arrays, each read checked against
  /// the end by hand.)
  private static func files(
    _ count: Int, roots: Int, in content: UnsafeRawBufferPointer, from offset: Int
  ) -> (fields: [UInt32], digests: [UInt64], end: Int)? {
    guard let base = content.baseAddress else { return count == 0 ? ([], [], offset) : nil }
    let end = content.count
    var at = offset
    var complete = true
    func integer() -> UInt32? {
      guard end - at >= 4 else { return nil }
      defer { at += 4 }
      return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    func word() -> UInt64? {
      guard end - at >= 8 else { return nil }
      defer { at += 8 }
      return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
    var fields: [UInt32] = []
    let digests = [UInt64](unsafeUninitializedCapacity: count * 2) { digests, digestsDone in
      fields = [UInt32](unsafeUninitializedCapacity: count * 7) { fields, fieldsDone in
        files: for index in 0..<count {
          guard let root = integer(), Int(root) < roots else {
            complete = false
            break files
          }
          fields[index * 7] = root
          for field in 0..<3 {
            guard let length = integer(), end - at >= Int(length) else {
              complete = false
              break files
            }
            fields[index * 7 + 1 + 2 * field] = UInt32(at)
            fields[index * 7 + 2 + 2 * field] = length
            at += Int(length)
          }
          guard let high = word(), let low = word() else {
            complete = false
            break files
          }
          digests[index * 2] = high
          digests[index * 2 + 1] = low
        }
        fieldsDone = complete ? count * 7 : 0
      }
      digestsDone = complete ? count * 2 : 0
    }
    return complete ? (fields, digests, at) : nil
  }
}

extension SnapshotReader {
  /// One file as `ScanSnapshot.append` wrote it, its fields appended as `StoredScan` keeps
  /// them; false when it is not one.
  mutating func file(roots: Int, fields: inout [UInt32], digests: inout [UInt64]) -> Bool {
    guard let root = integer(), Int(root) < roots else { return false }
    fields.append(root)
    for _ in 0..<3 {
      guard let (offset, length) = field() else { return false }
      fields.append(offset)
      fields.append(length)
    }
    guard let high = word(), let low = word() else { return false }
    digests.append(high)
    digests.append(low)
    return true
  }
}

extension StoredScan {
  /// Whether a file of the scan has `checksum`.
  func lists(checksum: String) -> Bool {
    checksum.withBytes { key in (0..<count).contains { bytes($0, 1).sameBytes(as: key) } }
  }

  /// The checksums of the scan's files.
  func checksums() -> Set<ByteKey> {
    Set((0..<count).map { ByteKey(String(decoding: bytes($0, 1), as: UTF8.self)) })
  }
}

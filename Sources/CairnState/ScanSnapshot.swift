import CairnCore
import Foundation

/// The last recorded scan, as a file beside the state database, so that the next scan of the
/// same roots can be compared with it in memory and only what changed is written to SQLite
/// (see `ScanDelta`). A million unchanged files then cost a pass over two lists, not a
/// million rows through SQLite's b-trees.
///
/// It is trusted only while the database says so: the `scanSnapshot` row holds the length,
/// digest and time of the file recorded with the scan, and triggers mark that row stale on any
/// change to `observed`, `observedPath` or `anchor` made by anything else (an import, a reset,
/// a partial scan that changed something, an older or newer code path). A file that is
/// missing, damaged, of another version or not the one the row names is ignored, and the scan
/// is recorded the whole way (`recordScan`'s full comparison), which writes a new one. A stale
/// snapshot still says when the checksums it lists were last seen.
///
/// The file: a magic line and a version, then counted lists of length-prefixed UTF-8 strings
/// (little-endian 32-bit numbers): the roots; the files (root index, path, checksum,
/// identity, and the 16-byte digest of the scan line it was read from, zero when unknown) in
/// scan order; the absent checksums; the identities listed more than once.
struct ScanSnapshot {
  /// The complete roots the scan covered; every file lies under one of them.
  var roots: [String]
  /// The scan's files, in scan order.
  var files: [ScannedFile]
  /// The observed checksums absent from the scan (`temp.absentChecksum` after recording it):
  /// with the scan's own checksums, they are every observed checksum.
  var absent: [String]
  /// File identities listed more than once in the scan (hard links).
  var sharedIdentities: [String]

  static let fileName = "scan-snapshot"
  static let magic = Array("cairn-scan-snapshot\n".utf8)
  static let version: UInt32 = 2

  /// Streams the file's bytes to `sink` in pieces of at most a megabyte, each but the last a
  /// whole number of 8-byte words (the digest's unit): a million files never sit in memory
  /// twice. The last piece is the digest of all before it, so that a damaged file is known as
  /// such without the database (`ScanInput` reads it ahead, before opening the store). Returns
  /// the file's length and that digest. Throws `tooBig` past 4 GiB (offsets are 32-bit: some
  /// 40 million files).
  @discardableResult
  func encode(into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> (
    length: Int, digest: UInt64
  ) {
    var size = Self.magic.count + 4 * 5 + 8
    for string in roots + absent + sharedIdentities { size += 4 + string.utf8.count }
    for file in files {
      size +=
        32 + file.path.utf8.count + file.checksum.utf8.count + file.identity.key.utf8.count
    }
    guard size <= Int(UInt32.max) else { throw TooBig() }
    let rootIndex = Dictionary(
      roots.enumerated().map { (ByteKey($0.element), UInt32($0.offset)) },
      uniquingKeysWith: { first, _ in first })
    var digest = SnapshotDigest()
    try withoutActuallyEscaping(sink) { sink in
      var writer = ChunkWriter { chunk in
        digest.update(chunk)
        try sink(chunk)
      }
      defer { writer.release() }
      try encode(files, rootIndex: rootIndex, into: &writer)
    }
    let content = digest.finish()
    try withUnsafeBytes(of: content.littleEndian) { try sink($0) }
    return (digest.length + 8, content)
  }

  private func encode(
    _ files: [ScannedFile], rootIndex: [ByteKey: UInt32], into writer: inout ChunkWriter
  ) throws {
    try writer.append(Self.magic)
    try writer.append(Self.version)
    try writer.append(roots)
    try writer.append(UInt32(files.count))
    for file in files {
      // Every file's root is one of `roots` (the caller checked).
      try writer.append(rootIndex[ByteKey(file.root)] ?? 0)
      try writer.append(file.path)
      try writer.append(file.checksum)
      try writer.append(file.identity.key)
      try writer.append(file.lineDigest?.high ?? 0)
      try writer.append(file.lineDigest?.low ?? 0)
    }
    try writer.append(absent)
    try writer.append(sharedIdentities)
    try writer.finish()
  }

  struct TooBig: Error {}

  /// The whole file in memory (for tests).
  func encoded() throws -> [UInt8] {
    var bytes: [UInt8] = []
    try encode { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// Writes the file at `path` (0600, replaced whole: a temporary file renamed over it; no
  /// fsync) and returns its length and digest.
  func write(to path: String) throws -> (length: Int, digest: UInt64) {
    let temporary = path + ".tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw CairnError(.stateFailure, String(cString: strerror(errno))) }
    let written: (length: Int, digest: UInt64)
    do {
      written = try encode { chunk in
        let failure = POSIXIO.writeAll(fd, chunk)
        guard failure == 0 else {
          throw CairnError(.stateFailure, String(cString: strerror(failure)))
        }
      }
      guard close(fd) == 0 else {
        throw CairnError(.stateFailure, String(cString: strerror(errno)))
      }
    } catch {
      close(fd)
      unlink(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let message = String(cString: strerror(errno))
      unlink(temporary)
      throw CairnError(.stateFailure, message)
    }
    return written
  }

  /// The digest of `bytes` (see `SnapshotDigest`): of a snapshot file, all but its last eight
  /// bytes, which hold it.
  static func digest(_ raw: UnsafeRawBufferPointer) -> UInt64 {
    var digest = SnapshotDigest()
    digest.update(raw)
    return digest.finish()
  }

  static func digest(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { digest($0) } }
}

/// A 64-bit digest of a snapshot's bytes, fed in pieces, to tell the file recorded with the
/// scan from any other (damaged, truncated, left by an interrupted run). Not cryptographic:
/// nobody but cairn writes the partition folder, and it is 0700.
struct SnapshotDigest {
  private var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
  private var pending: UInt64 = 0
  private var pendingCount = 0
  private(set) var length = 0

  mutating func update(_ raw: UnsafeRawBufferPointer) {
    length += raw.count
    var offset = 0
    // Finish a word begun in the last piece.
    while pendingCount > 0 && offset < raw.count {
      take(raw[offset])
      offset += 1
    }
    while offset + 8 <= raw.count {
      hash = Self.mix(
        hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
      offset += 8
    }
    while offset < raw.count {
      take(raw[offset])
      offset += 1
    }
  }

  func finish() -> UInt64 { Self.mix(Self.mix(hash ^ pending) ^ UInt64(length)) }

  private mutating func take(_ byte: UInt8) {
    pending |= UInt64(byte) << (8 * pendingCount)
    pendingCount += 1
    if pendingCount == 8 {
      hash = Self.mix(hash ^ pending)
      pending = 0
      pendingCount = 0
    }
  }

  /// A 64-bit finaliser (SplitMix64's).
  private static func mix(_ value: UInt64) -> UInt64 {
    var x = value &* 0xBF58_476D_1CE4_E5B9
    x ^= x >> 31
    return x &* 0x94D0_49BB_1331_11EB
  }
}

/// A snapshot read back: its bytes, and where each file's fields lie in them. Files are
/// compared with the new scan byte for byte in place; a file becomes a `ScannedFile` only
/// when recording needs one (a million strings would cost more than the comparison).
final class StoredScan: @unchecked Sendable {
  let roots: [String]
  let absent: [String]
  let sharedIdentities: [String]
  let count: Int
  let length: Int
  let digest: UInt64
  private let base: UnsafeMutableRawPointer
  /// Per file: root index, then offset and length of path, checksum and identity.
  private let fields: [UInt32]
  /// Per file: the line digest's two words (both zero: unknown).
  private let digests: [UInt64]
  private static let stride = 7

  /// Reads and decodes the file at `path`; nil when it cannot be read or is not a snapshot
  /// this version wrote.
  static func load(_ path: String) -> StoredScan? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { return nil }
    let size = Int(status.st_size)
    let base = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 8)
    var done = 0
    while done < size {
      let got = read(fd, base + done, size - done)
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { break }
      done += got
    }
    guard done == size else {
      base.deallocate()
      return nil
    }
    return StoredScan(owning: base, length: size)
  }

  /// Decodes `bytes` (copied); nil when they are not a snapshot this version wrote.
  static func decode(_ bytes: [UInt8]) -> StoredScan? {
    let base = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
    bytes.withUnsafeBytes { raw in
      UnsafeMutableRawBufferPointer(start: base, count: raw.count).copyMemory(from: raw)
    }
    return StoredScan(owning: base, length: bytes.count)
  }

  /// Takes ownership of the `length` bytes at `base` (freed with this object, or here when
  /// they don't decode).
  private init?(owning base: UnsafeMutableRawPointer, length: Int) {
    // The content, then its digest (see `ScanSnapshot.encode`).
    let bytes = UnsafeRawBufferPointer(start: base, count: max(length - 8, 0))
    let contentDigest = ScanSnapshot.digest(bytes)
    guard length >= 8,
      UInt64(
        littleEndian: UnsafeRawBufferPointer(start: base + bytes.count, count: 8)
          .loadUnaligned(as: UInt64.self)) == contentDigest
    else {
      base.deallocate()
      return nil
    }
    var reader = Reader(bytes)
    var fields: [UInt32] = []
    var digests: [UInt64] = []
    func decode() -> (roots: [String], count: Int, absent: [String], shared: [String])? {
      guard reader.bytes(ScanSnapshot.magic.count)?.elementsEqual(ScanSnapshot.magic) == true,
        reader.integer() == ScanSnapshot.version, let roots = reader.strings(),
        let count = reader.count()
      else { return nil }
      fields.reserveCapacity(count * Self.stride)
      digests.reserveCapacity(count * 2)
      for _ in 0..<count {
        guard let root = reader.integer(), Int(root) < roots.count else { return nil }
        fields.append(root)
        for _ in 0..<3 {
          guard let (offset, length) = reader.field() else { return nil }
          fields.append(offset)
          fields.append(length)
        }
        guard let high = reader.word(), let low = reader.word() else { return nil }
        digests.append(high)
        digests.append(low)
      }
      guard let absent = reader.strings(), let shared = reader.strings(), reader.atEnd
      else { return nil }
      return (roots, count, absent, shared)
    }
    guard let decoded = decode() else {
      base.deallocate()
      return nil
    }
    self.base = base
    self.fields = fields
    self.digests = digests
    roots = decoded.roots
    count = decoded.count
    absent = decoded.absent
    sharedIdentities = decoded.shared
    self.length = length
    digest = contentDigest
  }

  deinit { base.deallocate() }

  /// The bytes of field `field` (0 path, 1 checksum, 2 identity) of file `index`.
  @inline(__always)
  func bytes(_ index: Int, _ field: Int) -> UnsafeBufferPointer<UInt8> {
    let at = index * Self.stride + 1 + 2 * field
    return UnsafeBufferPointer(
      start: (base + Int(fields[at])).assumingMemoryBound(to: UInt8.self),
      count: Int(fields[at + 1]))
  }

  func root(_ index: Int) -> String { roots[Int(fields[index * Self.stride])] }

  /// The digest of the line file `index` was read from, when known.
  func lineDigest(_ index: Int) -> LineDigest? {
    let high = digests[2 * index]
    let low = digests[2 * index + 1]
    return high == 0 && low == 0 ? nil : LineDigest(high: high, low: low)
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
}

/// A string compared and hashed by its UTF-8 bytes, as SQLite's BINARY collation compares
/// text. (`String` equality holds for canonically equivalent spellings: two paths that differ
/// only in Unicode normalisation are two files on Linux, and two rows in the store.)
struct ByteKey: Hashable {
  let string: String
  init(_ string: String) { self.string = string }

  static func == (a: ByteKey, b: ByteKey) -> Bool { a.string.sameBytes(as: b.string) }

  func hash(into hasher: inout Hasher) {
    string.withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

/// Fills a megabyte buffer and hands it to a sink each time it is full, and what is left at
/// `finish`.
struct ChunkWriter {
  let sink: (UnsafeRawBufferPointer) throws -> Void
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
  private var used = 0

  init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) { self.sink = sink }

  func release() { buffer.deallocate() }

  mutating func append(_ value: UInt32) throws {
    try withUnsafeBytes(of: value.littleEndian) { try append(bytes: $0) }
  }

  mutating func append(_ value: UInt64) throws {
    try withUnsafeBytes(of: value.littleEndian) { try append(bytes: $0) }
  }

  mutating func append(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try append(bytes: $0) }
  }

  mutating func append(_ string: String) throws {
    try append(UInt32(string.utf8.count))
    var string = string
    try string.withUTF8 { try append(bytes: UnsafeRawBufferPointer($0)) }
  }

  mutating func append(_ strings: [String]) throws {
    try append(UInt32(strings.count))
    for string in strings { try append(string) }
  }

  mutating func append(bytes: UnsafeRawBufferPointer) throws {
    var offset = 0
    while offset < bytes.count {
      if used == buffer.count { try flush() }
      let count = min(bytes.count - offset, buffer.count - used)
      UnsafeMutableRawBufferPointer(rebasing: buffer[used..<used + count])
        .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
      used += count
      offset += count
    }
  }

  /// Hands over the full buffer: a megabyte, a whole number of words.
  private mutating func flush() throws {
    try sink(UnsafeRawBufferPointer(buffer))
    used = 0
  }

  mutating func finish() throws {
    if used > 0 { try sink(UnsafeRawBufferPointer(rebasing: buffer[0..<used])) }
    used = 0
  }
}

private struct Reader {
  let raw: UnsafeRawBufferPointer
  var offset = 0
  init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

  var atEnd: Bool { offset == raw.count }

  mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
    guard count >= 0, raw.count - offset >= count else { return nil }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
  }

  mutating func integer() -> UInt32? {
    guard let bytes = bytes(4) else { return nil }
    return UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))
  }

  mutating func word() -> UInt64? {
    guard let bytes = bytes(8) else { return nil }
    return UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
  }

  /// A count of items that each take at least four bytes, so a damaged count cannot make
  /// the caller reserve more than the file could hold.
  mutating func count() -> Int? {
    guard let value = integer(), Int(value) <= (raw.count - offset) / 4 else { return nil }
    return Int(value)
  }

  /// Where a length-prefixed string lies, skipping it.
  mutating func field() -> (offset: UInt32, length: UInt32)? {
    guard let length = integer(), raw.count - offset >= Int(length) else { return nil }
    defer { offset += Int(length) }
    return (UInt32(offset), length)
  }

  mutating func string() -> String? {
    guard let length = integer(), let bytes = bytes(Int(length)) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  mutating func strings() -> [String]? {
    guard let count = count() else { return nil }
    var strings: [String] = []
    strings.reserveCapacity(count)
    for _ in 0..<count {
      guard let string = string() else { return nil }
      strings.append(string)
    }
    return strings
  }
}

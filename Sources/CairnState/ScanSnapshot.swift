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
/// snapshot still says when the checksums it lists were last seen. When a scan differs from
/// the last in a few files, its snapshot is written as a patch over the last full file
/// (`ScanSnapshotPatch`), and read back as one (`StoredScan`).
///
/// The file: a magic line and a version, then counted lists of length-prefixed UTF-8 strings
/// (little-endian 32-bit numbers): the roots; the files (root index, path, checksum,
/// identity, and the 16-byte digest of the scan line it was read from, zero when unknown) in
/// scan order; the absent checksums; the identities listed more than once.
struct ScanSnapshot: SnapshotEncoding {
  /// The complete roots the scan covered; every file lies under one of them.
  var roots: [String]
  /// The scan's files, in scan order.
  var files: ScanFiles
  /// The observed checksums absent from the scan (`temp.absentChecksum` after recording it):
  /// with the scan's own checksums, they are every observed checksum.
  var absent: [String]
  /// File identities listed more than once in the scan (hard links).
  var sharedIdentities: [String]

  static let fileName = "scan-snapshot"
  static let magic = Array("cairn-scan-snapshot\n".utf8)
  static let version: UInt32 = 3

  /// Streams the file's bytes to `sink` (see `SnapshotFile.encode`): a million files never
  /// sit in memory twice. Returns the file's length and digest. Throws `TooBig` past 4 GiB
  /// (offsets are 32-bit: some 40 million files).
  @discardableResult
  func encode(into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> (
    length: Int, digest: UInt64
  ) {
    var size = Self.magic.count + 4 * 5 + 8
    for string in roots + absent + sharedIdentities { size += 4 + string.utf8.count }
    for index in files.indices { size += Self.encodedSize(files, index) }
    guard size <= Int(UInt32.max) else { throw TooBig() }
    return try SnapshotFile.encode(into: sink) { writer in
      try writer.append(Self.magic)
      try writer.append(Self.version)
      try writer.append(roots)
      try writer.append(UInt32(files.count))
      var rootIndex = RootIndex(roots)
      for index in files.indices {
        try Self.append(files, index, rootIndex: &rootIndex, to: &writer)
      }
      try writer.append(absent)
      try writer.append(sharedIdentities)
    }
  }

  /// The bytes `append` writes for file `index` of `files`.
  static func encodedSize(_ files: ScanFiles, _ index: Int) -> Int {
    32 + files.withPath(index, \.count) + files.withChecksum(index, \.count)
      + files.withIdentity(index, \.count)
  }

  /// File `index` of `files`: root index, path, checksum, identity, line digest.
  static func append(
    _ files: ScanFiles, _ index: Int, rootIndex: inout RootIndex, to writer: inout ChunkWriter
  ) throws {
    // Every file's root is one of the roots (the caller checked).
    try writer.append(rootIndex.index(of: files.root(index)))
    try files.withPath(index) { try writer.append(field: $0) }
    try files.withChecksum(index) { try writer.append(field: $0) }
    try files.withIdentity(index) { try writer.append(field: $0) }
    let digest = files.lineDigest(index)
    try writer.append(digest?.high ?? 0)
    try writer.append(digest?.low ?? 0)
  }

  struct TooBig: Error {}

  /// The digest of `bytes` (see `SnapshotDigest`): of a snapshot file, all but its last eight
  /// bytes, which hold it.
  static func digest(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { SnapshotFile.digest($0) }
  }
}

/// The index of a file's root among the snapshot's roots. Files come root by root, so the
/// last answer is nearly always the next one: a byte comparison, not a hash, per file.
struct RootIndex {
  private let roots: [String]
  private var last = 0

  init(_ roots: [String]) { self.roots = roots }

  /// 0 for a root that is not one of them (callers check first that none is).
  mutating func index(of root: String) -> UInt32 {
    if last < roots.count && roots[last].sameBytes(as: root) { return UInt32(last) }
    last = roots.firstIndex { $0.sameBytes(as: root) } ?? 0
    return UInt32(last)
  }
}

/// A 64-bit digest of a snapshot's bytes, fed in pieces, to tell the file recorded with the
/// scan from any other (damaged, truncated, left by an interrupted run). Not cryptographic:
/// nobody but cairn writes the partition folder, and it is 0700.
///
/// The 8-byte words go to four lanes in turn, so that four are mixed at once (a hundred
/// megabytes are checked on every run); the bytes after the last whole word, and the
/// length, close it.
package struct SnapshotDigest {
  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
    0x9E37_79B9_7F4A_7C15, 0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0
  )
  /// Whole words taken so far: which lane takes the next.
  private var words = 0
  private var pending: UInt64 = 0
  private var pendingCount = 0
  private(set) var length = 0

  package init() {}

  package mutating func update(_ raw: UnsafeRawBufferPointer) {
    length += raw.count
    var offset = 0
    func word(_ at: Int) -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
    // Finish a word begun in the last piece.
    while pendingCount > 0 && offset < raw.count {
      take(raw[offset])
      offset += 1
    }
    while words & 3 != 0 && offset + 8 <= raw.count {
      take(word: word(offset))
      offset += 8
    }
    while offset + 32 <= raw.count {
      lanes.0 = Self.round(lanes.0, word(offset))
      lanes.1 = Self.round(lanes.1, word(offset + 8))
      lanes.2 = Self.round(lanes.2, word(offset + 16))
      lanes.3 = Self.round(lanes.3, word(offset + 24))
      words += 4
      offset += 32
    }
    while offset + 8 <= raw.count {
      take(word: word(offset))
      offset += 8
    }
    while offset < raw.count {
      take(raw[offset])
      offset += 1
    }
  }

  package func finish() -> UInt64 {
    var hash = Self.mix(lanes.0)
    hash = Self.mix(hash ^ lanes.1)
    hash = Self.mix(hash ^ lanes.2)
    hash = Self.mix(hash ^ lanes.3)
    return Self.mix(Self.mix(hash ^ pending) ^ UInt64(length))
  }

  private mutating func take(_ byte: UInt8) {
    pending |= UInt64(byte) << (8 * pendingCount)
    pendingCount += 1
    if pendingCount == 8 {
      take(word: pending)
      pending = 0
      pendingCount = 0
    }
  }

  private mutating func take(word: UInt64) {
    switch words & 3 {
    case 0: lanes.0 = Self.round(lanes.0, word)
    case 1: lanes.1 = Self.round(lanes.1, word)
    case 2: lanes.2 = Self.round(lanes.2, word)
    default: lanes.3 = Self.round(lanes.3, word)
    }
    words += 1
  }

  /// One word into a lane: a bijection of the lane for a given word, and of the word for a
  /// given lane.
  @inline(__always)
  private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
    let x = lane &+ word &* 0xC2B2_AE3D_27D4_EB4F
    return ((x << 31) | (x >> 33)) &* 0x9E37_79B1_85EB_CA87
  }

  /// A 64-bit finaliser (SplitMix64's).
  private static func mix(_ value: UInt64) -> UInt64 {
    var x = value &* 0xBF58_476D_1CE4_E5B9
    x ^= x >> 31
    return x &* 0x94D0_49BB_1331_11EB
  }
}

/// A string compared and hashed by its UTF-8 bytes, as SQLite's BINARY collation compares
/// text. (`String` equality holds for canonically equivalent spellings: two paths that differ
/// only in Unicode normalisation are two files on Linux, and two rows in the store.)
package struct ByteKey: Hashable {
  package let string: String
  package init(_ string: String) { self.string = string }

  package static func == (a: ByteKey, b: ByteKey) -> Bool { a.string.sameBytes(as: b.string) }

  /// `strings` in byte order, as SQLite's BINARY collation sorts them.
  static func sorted(_ strings: [String]) -> [String] {
    strings.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  package func hash(into hasher: inout Hasher) {
    string.withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

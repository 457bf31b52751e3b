import CairnEngine
import CairnSealedFiles
import CairnSettings
import CairnSupport
import Foundation

/// The full snapshot file, as `Contents` writes it and `FullDecoding` reads it: a magic line
/// and a version, then counted lists of length-prefixed UTF-8 strings (little-endian 32-bit
/// numbers): the roots; the files (root index, path, checksum,
/// identity, and the 16-byte digest of the scan line it was read from, zero when unknown) in
/// scan order; the absent checksums; the identities listed more than once.
extension ScanSnapshot {
  static let fileName = CairnPaths.scanSnapshotName
  static let magic = Array("cairn-scan-snapshot\n".utf8)
  static let version: UInt32 = 3

  /// A snapshot that would pass 4 GiB (offsets are 32-bit: some 40 million files).
  struct TooBig: Error {}

  /// The digest of `bytes` (see `SnapshotFile.Digest`): of a snapshot file, all but its last eight
  /// bytes, which hold it.
  static func digest(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { SnapshotFile.digest($0) }
  }

  /// What a new snapshot lists, written as a full file.
  struct Contents: SnapshotFile.Encoding {
    /// The complete roots the scan covered; every file lies under one of them.
    var roots: [String]
    /// The scan's files, in scan order.
    var files: ScanFiles
    /// The observed checksums absent from the scan (`temp.absentChecksum` after recording it):
    /// with the scan's own checksums, they are every observed checksum.
    var absent: [String]
    /// File identities listed more than once in the scan (hard links).
    var sharedIdentities: [String]

    /// Streams the file's bytes to `sink` (see `SnapshotFile.encode`): a million files never
    /// sit in memory twice. Returns the file's length and digest. Throws `TooBig` past 4 GiB
    /// (offsets are 32-bit: some 40 million files).
    @discardableResult
    func encode(into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> (
      length: Int, digest: UInt64
    ) {
      var size = ScanSnapshot.magic.count + 4 * 5 + 8
      for string in roots + absent + sharedIdentities { size += 4 + string.utf8.count }
      for index in files.indices { size += Self.encodedSize(files, index) }
      guard size <= Int(UInt32.max) else { throw TooBig() }
      return try SnapshotFile.encode(into: sink) { writer in
        try writer.append(ScanSnapshot.magic)
        try writer.append(ScanSnapshot.version)
        try writer.append(roots)
        try writer.append(UInt32(files.count))
        var rootIndex = ScanSnapshot.RootIndex(roots)
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
      _ files: ScanFiles, _ index: Int, rootIndex: inout ScanSnapshot.RootIndex,
      to writer: inout SnapshotFile.Writer
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

  /// A full snapshot file decoded (see `ScanSnapshot` for its layout).
  struct FullDecoding {
    var roots: [String] = []
    var count = 0
    var absent: [String] = []
    var sharedIdentities: [String] = []
    var digest: UInt64 = 0
    /// As `ScanSnapshot` keeps them.
    var fields: [UInt32] = []
    var digests: [UInt64] = []

    /// Nil when the `length` bytes at `storage` are not a whole snapshot this version wrote.
    init?(_ storage: UnsafeMutableRawPointer, length: Int) {
      let raw = UnsafeRawBufferPointer(start: storage, count: length)
      guard SnapshotFile.hasOwnDigest(raw) else { return nil }
      let content = UnsafeRawBufferPointer(rebasing: raw[0..<length - 8])
      digest = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self))
      var reader = SnapshotFile.Reader(content)
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

}

extension ScanSnapshot.FullDecoding {
  /// `count` files as `ScanSnapshot.append` wrote them from `offset` in `content`, their
  /// fields as `ScanSnapshot` keeps them, and where they end; nil when they are not that.
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

extension SnapshotFile.Reader {
  /// One file as `ScanSnapshot.append` wrote it, its fields appended as `ScanSnapshot` keeps
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

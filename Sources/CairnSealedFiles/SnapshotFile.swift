import CairnStream
import CairnSupport
import Foundation

/// What cairn's own binary files share, the state's (the scan snapshot and its patch) and
/// reconcile's (the listing snapshot, the presence cache): a body streamed in megabyte pieces (`Writer`) and ended by
/// the digest of all before it (`Digest`), written to a temporary file renamed over the old
/// one, and read back whole (`Reader`).
package enum SnapshotFile {
  /// Streams what `body` writes to `sink` in pieces of at most a megabyte, each but the last a
  /// whole number of 8-byte words (the digest's unit), then the digest of them all (so that a
  /// damaged file is known as such without the database). Returns the length and the digest.
  package static func encode(
    into sink: (UnsafeRawBufferPointer) throws -> Void,
    _ body: (inout SnapshotFile.Writer) throws -> Void
  ) throws -> (length: Int, digest: UInt64) {
    var digest = SnapshotFile.Digest()
    try withoutActuallyEscaping(sink) { sink in
      var writer = SnapshotFile.Writer { chunk in
        digest.update(chunk)
        try sink(chunk)
      }
      defer { writer.release() }
      try body(&writer)
      try writer.finish()
    }
    let content = digest.finish()
    try withUnsafeBytes(of: content.littleEndian) { try sink($0) }
    return (digest.length + 8, content)
  }

  /// Writes at `path` (0600, replaced whole: a temporary file renamed over it; no fsync) what
  /// `encode` streams, and returns what it returns.
  package static func write(
    to path: String,
    _ encode: ((UnsafeRawBufferPointer) throws -> Void) throws -> (length: Int, digest: UInt64)
  ) throws -> (length: Int, digest: UInt64) {
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

  /// The digest of `raw` (see `SnapshotFile.Digest`).
  package static func digest(_ raw: UnsafeRawBufferPointer) -> UInt64 {
    var digest = SnapshotFile.Digest()
    digest.update(raw)
    return digest.finish()
  }

  /// `content` followed by its digest, as every sealed file ends (the fuzzing harness seals
  /// its input so that it reaches the parsing behind the check).
  package static func sealed(_ content: [UInt8]) -> [UInt8] {
    let digest = content.withUnsafeBytes(SnapshotFile.digest)
    return content + withUnsafeBytes(of: digest.littleEndian, Array.init)
  }

  /// Whether the last eight bytes of `raw` are the digest of those before them.
  package static func hasOwnDigest(_ raw: UnsafeRawBufferPointer) -> Bool {
    guard raw.count >= 8 else { return false }
    let content = UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 8])
    return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: content.count, as: UInt64.self))
      == digest(content)
  }

  /// The size of the file open at `fd`, when it can be known.
  package static func size(_ fd: Int32) -> Int? {
    var status = stat()
    guard fstat(fd, &status) == 0 else { return nil }
    return Int(status.st_size)
  }

  /// The whole file at `path`, read straight into the array (no `Data` to copy from); nil when
  /// it cannot be read.
  package static func contents(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard let size = size(fd) else { return nil }
    var complete = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      if let base = buffer.baseAddress {
        complete = read(fd, into: base, count: size)
      } else {
        complete = size == 0
      }
      count = complete ? size : 0
    }
    return complete ? bytes : nil
  }

  /// Reads `count` bytes from `fd` into `buffer`; false when the file ends or fails first.
  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Bool {
    var done = 0
    while done < count {
      let got = Foundation.read(fd, buffer + done, count - done)
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return false }
      done += got
    }
    return true
  }

  /// Fills a megabyte buffer and hands it to a sink each time it is full, and what is left at
  /// `finish`.
  package struct Writer {
    package let sink: (UnsafeRawBufferPointer) throws -> Void
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
    private var used = 0

    package init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) { self.sink = sink }

    package func release() { buffer.deallocate() }

    package mutating func append(_ value: UInt32) throws {
      try withUnsafeBytes(of: value.littleEndian) { try append(bytes: $0) }
    }

    package mutating func append(_ value: UInt64) throws {
      try withUnsafeBytes(of: value.littleEndian) { try append(bytes: $0) }
    }

    package mutating func append(_ bytes: [UInt8]) throws {
      try bytes.withUnsafeBytes { try append(bytes: $0) }
    }

    package mutating func append(_ string: String) throws {
      var string = string
      try string.withUTF8 { try append(field: $0) }
    }

    /// A string's UTF-8 bytes, after their count.
    package mutating func append(field bytes: UnsafeBufferPointer<UInt8>) throws {
      try append(UInt32(bytes.count))
      try append(bytes: UnsafeRawBufferPointer(bytes))
    }

    package mutating func append(_ strings: [String]) throws {
      try append(UInt32(strings.count))
      for string in strings { try append(string) }
    }

    package mutating func append(bytes: UnsafeRawBufferPointer) throws {
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

    package mutating func finish() throws {
      if used > 0 { try sink(UnsafeRawBufferPointer(rebasing: buffer[0..<used])) }
      used = 0
    }
  }

  /// A snapshot file's content, streamed by `encode` (see `SnapshotFile.encode`).
  package protocol Encoding {
    func encode(into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> (
      length: Int, digest: UInt64
    )
  }

  /// Reads a snapshot's numbers and strings in order. Offsets are into `raw`, which may hold
  /// more than the file being read (a patch is read after the file it patches).
  package struct Reader {
    package let raw: UnsafeRawBufferPointer
    package var offset: Int
    package init(_ raw: UnsafeRawBufferPointer, from offset: Int = 0) {
      self.raw = raw
      self.offset = offset
    }

    package var atEnd: Bool { offset == raw.count }

    package mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
      guard count >= 0, raw.count - offset >= count else { return nil }
      defer { offset += count }
      return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
    }

    package mutating func integer() -> UInt32? {
      guard let bytes = bytes(4) else { return nil }
      return UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))
    }

    package mutating func word() -> UInt64? {
      guard let bytes = bytes(8) else { return nil }
      return UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
    }

    /// A count of items that each take at least four bytes, so a damaged count cannot make
    /// the caller reserve more than the file could hold.
    package mutating func count() -> Int? {
      guard let value = integer(), Int(value) <= (raw.count - offset) / 4 else { return nil }
      return Int(value)
    }

    /// Where a length-prefixed string lies, skipping it.
    package mutating func field() -> (offset: UInt32, length: UInt32)? {
      guard let length = integer(), raw.count - offset >= Int(length) else { return nil }
      defer { offset += Int(length) }
      return (UInt32(offset), length)
    }

    package mutating func string() -> String? {
      guard let length = integer(), let bytes = bytes(Int(length)) else { return nil }
      return String(decoding: bytes, as: UTF8.self)
    }

    package mutating func strings() -> [String]? {
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

  /// A 64-bit digest of a snapshot's bytes, fed in pieces, to tell the file recorded with the
  /// scan from any other (damaged, truncated, left by an interrupted run). Not cryptographic:
  /// nobody but cairn writes the partition folder, and it is 0700.
  ///
  /// The 8-byte words go to four lanes in turn, so that four are mixed at once (a hundred
  /// megabytes are checked on every run); the bytes after the last whole word, and the
  /// length, close it.
  package struct Digest {
    package init() {}
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
      0x9E37_79B9_7F4A_7C15, 0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0
    )
    /// Whole words taken so far: which lane takes the next.
    private var words = 0
    private var pending: UInt64 = 0
    private var pendingCount = 0
    /// Bytes taken so far.
    package private(set) var length = 0

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
}

extension SnapshotFile.Encoding {
  /// The whole file in memory (for tests).
  package func encoded() throws -> [UInt8] {
    var bytes: [UInt8] = []
    try encode { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// Writes the file at `path` (see `SnapshotFile.write`) and returns its length and digest.
  package func write(to path: String) throws -> (length: Int, digest: UInt64) {
    try SnapshotFile.write(to: path, encode)
  }
}

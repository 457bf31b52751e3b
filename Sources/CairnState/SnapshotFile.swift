import CairnCore
import Foundation

/// What the scan snapshot's files (`ScanSnapshot`, `ScanSnapshotPatch`) share: a body streamed
/// in megabyte pieces and ended by the digest of all before it, written to a temporary file
/// renamed over the old one, and read back whole.
package enum SnapshotFile {
  /// Streams what `body` writes to `sink` in pieces of at most a megabyte, each but the last a
  /// whole number of 8-byte words (the digest's unit), then the digest of them all (so that a
  /// damaged file is known as such without the database). Returns the length and the digest.
  package static func encode(
    into sink: (UnsafeRawBufferPointer) throws -> Void,
    _ body: (inout ChunkWriter) throws -> Void
  ) throws -> (length: Int, digest: UInt64) {
    var digest = SnapshotDigest()
    try withoutActuallyEscaping(sink) { sink in
      var writer = ChunkWriter { chunk in
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
  static func write(
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

  /// The digest of `raw` (see `SnapshotDigest`).
  package static func digest(_ raw: UnsafeRawBufferPointer) -> UInt64 {
    var digest = SnapshotDigest()
    digest.update(raw)
    return digest.finish()
  }

  /// Whether the last eight bytes of `raw` are the digest of those before them.
  package static func hasOwnDigest(_ raw: UnsafeRawBufferPointer) -> Bool {
    guard raw.count >= 8 else { return false }
    let content = UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 8])
    return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: content.count, as: UInt64.self))
      == digest(content)
  }

  /// The size of the file open at `fd`, when it can be known.
  static func size(_ fd: Int32) -> Int? {
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
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Bool {
    var done = 0
    while done < count {
      let got = Foundation.read(fd, buffer + done, count - done)
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return false }
      done += got
    }
    return true
  }
}

/// Fills a megabyte buffer and hands it to a sink each time it is full, and what is left at
/// `finish`.
package struct ChunkWriter {
  let sink: (UnsafeRawBufferPointer) throws -> Void
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

  mutating func append(_ string: String) throws {
    var string = string
    try string.withUTF8 { try append(field: $0) }
  }

  /// A string's UTF-8 bytes, after their count.
  mutating func append(field bytes: UnsafeBufferPointer<UInt8>) throws {
    try append(UInt32(bytes.count))
    try append(bytes: UnsafeRawBufferPointer(bytes))
  }

  mutating func append(_ strings: [String]) throws {
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
package protocol SnapshotEncoding {
  func encode(into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> (
    length: Int, digest: UInt64
  )
}

extension SnapshotEncoding {
  /// The whole file in memory (for tests).
  func encoded() throws -> [UInt8] {
    var bytes: [UInt8] = []
    try encode { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// Writes the file at `path` (see `SnapshotFile.write`) and returns its length and digest.
  package func write(to path: String) throws -> (length: Int, digest: UInt64) {
    try SnapshotFile.write(to: path, encode)
  }
}

/// Memory holding a snapshot's bytes: the file itself mapped copy-on-write, with room after
/// it for a patch, or memory allocated and filled. Mapped, a hundred megabytes cost no copy
/// and no fresh pages: the page cache's are used as they are. Only cairn writes the partition
/// folder, and always a new file renamed over the old, so the pages mapped stay what was
/// read (a file cut short in place under a mapping would fault).
final class SnapshotBuffer: @unchecked Sendable {
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

/// Reads a snapshot's numbers and strings in order. Offsets are into `raw`, which may hold
/// more than the file being read (a patch is read after the file it patches).
package struct SnapshotReader {
  let raw: UnsafeRawBufferPointer
  var offset: Int
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

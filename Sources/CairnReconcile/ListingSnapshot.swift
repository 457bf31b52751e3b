import CairnJSON
import CairnSealedFiles
import CairnSettings
import CairnState
import CairnSupport
import Foundation

/// What checking the last server listing found, line by line, so that the next listing's
/// unchanged lines need no parsing: a listing is mostly the same million lines as last time,
/// and checking each costs more than the rest of the run's work on them.
///
/// An entry is the 128-bit digest of an asset line and what `ServerAssets.append` found in it
/// (where its checksum lies, whether it is trashed) and whether it is the user's. A line with
/// that digest is that line, byte for byte, so it would be checked and found the same. The file
/// is only a cache: it carries the user it was made for and its own digest, and a file that
/// is missing, damaged, of another version or another user is ignored (every line is then
/// parsed). It lives in the partition's cache folder (beside the server-asset cache), 0600,
/// replaced whole.
///
/// The file: a magic line and a version, the user id (length-prefixed), then 28 bytes an entry
/// in listing order (digest, checksum start and end in the line, flags; little-endian), then
/// the digest of all before it.
enum ListingSnapshot {
  static let fileName = CairnPaths.listingSnapshotName
  static let magic = Array("cairn-listing-snapshot\n".utf8)
  /// 3: lines are checked for `isFavorite` and `libraryId` too; a line an older check let
  /// through must be checked again, not recognised.
  static let version: UInt32 = 3
  static let entrySize = 28

  struct Entry: Equatable {
    var digest: LineDigest
    /// Where the checksum lies in the line; nil when it is escaped there.
    var checksum: Range<Int>?
    var isTrashed: Bool
    /// Owned by the partition's user (the assets of others are checked and left out).
    var isMine: Bool
  }

  /// A listing snapshot read back.
  final class Stored: @unchecked Sendable {
    private let bytes: [UInt8]
    private let start: Int
    let count: Int

    /// The file at `path` when it is intact and was made for `userId`.
    static func load(_ path: String, userId: String) -> Stored? {
      guard let bytes = SnapshotFile.contents(path) else { return nil }
      return Stored(bytes, userId: userId)
    }

    init?(_ bytes: [UInt8], userId: String) {
      let header = ListingSnapshot.header(userId)
      let content = bytes.count - 8
      guard content >= header.count, bytes.withUnsafeBytes(SnapshotFile.hasOwnDigest),
        bytes.starts(with: header), (content - header.count) % ListingSnapshot.entrySize == 0
      else { return nil }
      self.bytes = bytes
      start = header.count
      count = (content - header.count) / ListingSnapshot.entrySize
    }

    func digest(_ index: Int) -> LineDigest {
      let at = start + index * ListingSnapshot.entrySize
      return bytes.withUnsafeBytes { raw in
        LineDigest(
          high: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)),
          low: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
      }
    }

    /// The bytes of the first `count` entries, as the file holds them.
    func withEntryBytes<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
      bytes.withUnsafeBytes { raw in
        body(
          UnsafeRawBufferPointer(rebasing: raw[start..<start + count * ListingSnapshot.entrySize]))
      }
    }

    func entry(_ index: Int) -> Entry {
      let at = start + index * ListingSnapshot.entrySize + 16
      let (lower, upper, flags) = bytes.withUnsafeBytes { raw in
        (
          UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)),
          UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)),
          UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))
        )
      }
      return Entry(
        digest: digest(index),
        checksum: lower == .max || upper < lower ? nil : Int(lower)..<Int(upper),
        isTrashed: flags & 1 != 0, isMine: flags & 2 != 0)
    }
  }

  static func header(_ userId: String) -> [UInt8] {
    var header = magic
    withUnsafeBytes(of: version.littleEndian) { header += $0 }
    withUnsafeBytes(of: UInt32(userId.utf8.count).littleEndian) { header += $0 }
    header += Array(userId.utf8)
    return header
  }

  /// Follows the last listing along a new one: the next entry or one of the two after it
  /// (assets removed from the server); after 64 lines it could not place, every entry by
  /// digest (assets listed in another order).
  struct Follower {
    let previous: Stored
    private var next = 0
    private var misses = 0
    private var byDigest: [LineDigest: Int]?
    private(set) var recognised = 0

    init(_ previous: Stored) { self.previous = previous }

    mutating func entry(for digest: LineDigest) -> Entry? {
      for candidate in next..<min(next + 3, previous.count)
      where previous.digest(candidate) == digest {
        return take(candidate)
      }
      misses += 1
      if byDigest == nil && misses >= 64 {
        var index: [LineDigest: Int] = [:]
        index.reserveCapacity(previous.count)
        for position in 0..<previous.count { index[previous.digest(position)] = position }
        byDigest = index
      }
      guard let found = byDigest?[digest] else { return nil }
      return take(found)
    }

    private mutating func take(_ index: Int) -> Entry {
      next = index + 1
      recognised += 1
      return previous.entry(index)
    }
  }

  /// Writes the entries of the listing being read, as they come, to a temporary file renamed
  /// into place at `finish`; a file that cannot be written is given up quietly (the cache is
  /// lost, nothing else). While the listing is the last one (`previous`, the file in place)
  /// entry for entry, nothing is written: a listing unchanged to its end leaves that file as
  /// it is, and one that changes has the entries read so far copied from it first.
  final class Recorder {
    private let path: String
    private let temporary: String
    private let userId: String
    private let previous: Stored?
    /// Entries so far, when they are `previous`'s first ones and nothing is written yet.
    private var unchanged = 0
    private var fd: Int32 = -1
    private var writer: SnapshotFile.Writer?
    private var failed = false
    private var digest = SnapshotFile.Digest()

    init(path: String, userId: String, previous: Stored?) {
      self.path = path
      temporary = path + ".tmp-\(getpid())"
      self.userId = userId
      self.previous = previous
    }

    deinit { abandon() }

    func add(_ entry: Entry) {
      if writer == nil {
        guard !failed else { return }
        if let previous, unchanged < previous.count, previous.entry(unchanged) == entry {
          unchanged += 1
          return
        }
        begin()
      }
      write { writer in
        try writer.append(entry.digest.high)
        try writer.append(entry.digest.low)
        try writer.append(entry.checksum.map { UInt32($0.lowerBound) } ?? .max)
        try writer.append(entry.checksum.map { UInt32($0.upperBound) } ?? .max)
        try writer.append(UInt32((entry.isTrashed ? 1 : 0) | (entry.isMine ? 2 : 0)))
      }
    }

    /// Puts the file in place (the listing was read to its proper end).
    func finish() {
      if writer == nil {
        guard !failed else { return }
        // The file in place is this listing's, byte for byte.
        if let previous, unchanged == previous.count { return }
        begin()
      }
      write { try $0.finish() }
      guard writer != nil else { return }
      let trailer = digest.finish().littleEndian
      let complete = withUnsafeBytes(of: trailer) { POSIXIO.writeAll(fd, $0) } == 0
      writer?.release()
      writer = nil
      if complete && close(fd) == 0 && rename(temporary, path) == 0 {
        fd = -1
        return
      }
      fd = -1
      unlink(temporary)
    }

    /// Opens the temporary file and writes the header and the unchanged entries.
    private func begin() {
      fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
      guard fd >= 0 else {
        failed = true
        return
      }
      writer = SnapshotFile.Writer { [unowned self] chunk in
        guard POSIXIO.writeAll(self.fd, chunk) == 0 else { throw RecorderFailed() }
        self.digest.update(chunk)
      }
      write { try $0.append(ListingSnapshot.header(userId)) }
      if let previous, unchanged > 0 {
        previous.withEntryBytes(unchanged) { bytes in write { try $0.append(bytes: bytes) } }
      }
    }

    private func write(_ body: (inout SnapshotFile.Writer) throws -> Void) {
      guard var current = writer else { return }
      do {
        try body(&current)
        writer = current
      } catch {
        abandon()
      }
    }

    private func abandon() {
      writer?.release()
      writer = nil
      failed = true
      if fd >= 0 {
        close(fd)
        fd = -1
        unlink(temporary)
      }
    }

    private struct RecorderFailed: Error {}
  }
}

import CairnTestSupport
import Crypto
import Foundation
import Testing

@testable import CairnHashing

/// A file written while it is hashed: the checksum is of one whole version of it, or there is
/// none (an error record). Each writer is a real write to the file, made at a chosen moment of
/// the read (the hasher's progress hook), so the race is the same on every run.
@Suite("A file that changes while it is hashed")
struct ChangingFileTests {
  static let chunk = 1 << 16
  static let size = 8 * chunk

  /// A file of `size` pattern bytes, and its path as a C string for the hasher.
  func file(in dir: TemporaryDirectory) throws -> String {
    try dir.file("photo.jpg", contents: Hash.pattern(Self.size, seed: 3))
  }

  func sha1(_ path: String) throws -> ContentDigest {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    return try #require(ContentDigest(Array(Insecure.SHA1.hash(data: bytes))))
  }

  /// Overwrites the first and the last bytes in place (same size): a read caught between the
  /// two writes holds a head and a tail that no version of the file ever had together.
  func rewriteHeadAndTail(_ fd: Int32, _ fill: UInt8) {
    let patch = [UInt8](repeating: fill, count: 512)
    _ = patch.withUnsafeBytes { pwrite(fd, $0.baseAddress, 512, 0) }
    _ = patch.withUnsafeBytes { pwrite(fd, $0.baseAddress, 512, off_t(Self.size - 512)) }
  }

  @Test("rewritten once during the read: read again, the checksum is of the final bytes")
  func rewrittenOnce() throws {
    let dir = TemporaryDirectory("cairn-changing")
    let path = try file(in: dir)
    let fd = open(path, O_WRONLY)
    defer { close(fd) }
    var reads = 0
    let hasher = ContentHasher(chunkSize: Self.chunk)
    let result = hasher.hash(path: path, followSymlinks: false) { _ in
      reads += 1
      if reads == 2 { rewriteHeadAndTail(fd, 0xA5) }
    }
    let outcome = try result.get()
    #expect(outcome.digest == (try sha1(path)))
    #expect(outcome.status.size == Int64(Self.size))
  }

  @Test("rewritten during every read: an EAGAIN error, never a checksum")
  func keepsChanging() throws {
    let dir = TemporaryDirectory("cairn-changing")
    let path = try file(in: dir)
    let fd = open(path, O_WRONLY)
    defer { close(fd) }
    var reads = 0
    let hasher = ContentHasher(chunkSize: Self.chunk)
    let result = hasher.hash(path: path, followSymlinks: false) { _ in
      reads += 1
      if reads % 4 == 0 { rewriteHeadAndTail(fd, UInt8(truncatingIfNeeded: reads)) }
    }
    guard case .failure(let error) = result else {
      Issue.record("a file written during every read was given a checksum")
      return
    }
    #expect(error.code == "EAGAIN")
  }

  /// A store through a shared mapping into a page already dirty moves no timestamp: only a
  /// second read can see it. The margin makes the file's last change recent whatever the
  /// machine's speed (its real value, 20 ms, would make this test depend on the scheduler).
  @Test("changed where timestamps cannot show it, just after a change: a second read decides")
  func unseenByTimestamps() throws {
    let dir = TemporaryDirectory("cairn-changing")
    let path = try file(in: dir)
    let fd = open(path, O_RDWR)
    defer { close(fd) }
    let mapped = try #require(
      mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0).flatMap {
        $0 == MAP_FAILED ? nil : $0
      })
    defer { munmap(mapped, Self.size) }
    let bytes = mapped.assumingMemoryBound(to: UInt8.self)
    // Dirty the first and last pages now, so the stores during the read fault no more.
    bytes[0] = 1
    bytes[Self.size - 1] = 1
    var before = stat()
    fstat(fd, &before)
    var reads = 0
    let hasher = ContentHasher(chunkSize: Self.chunk, racyMargin: 3_600_000_000_000)
    let result = hasher.hash(path: path, followSymlinks: false) { _ in
      reads += 1
      if reads == 2 {
        bytes[0] = 2
        bytes[Self.size - 1] = 2
      }
    }
    var after = stat()
    fstat(fd, &after)
    // The premise: the stores left every timestamp as it was.
    #expect(FileStatus(after).sameVersion(as: FileStatus(before)))
    let outcome = try result.get()
    #expect(outcome.digest == (try sha1(path)))
  }
}

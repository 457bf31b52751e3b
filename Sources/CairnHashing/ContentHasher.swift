import Crypto

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The SHA-1 of a file's bytes: Immich's asset `checksum`, as raw digest bytes.
package struct ContentDigest: Sendable, Hashable {
  // 20 bytes kept inline, so a cache of a million entries doesn't allocate a million strings.
  var head: UInt64
  var middle: UInt64
  var tail: UInt32

  package init?(_ bytes: some Collection<UInt8>) {
    guard bytes.count == 20 else { return nil }
    var h: UInt64 = 0
    var m: UInt64 = 0
    var t: UInt32 = 0
    var i = 0
    for byte in bytes {
      if i < 8 {
        h = h << 8 | UInt64(byte)
      } else if i < 16 {
        m = m << 8 | UInt64(byte)
      } else {
        t = t << 8 | UInt32(byte)
      }
      i += 1
    }
    head = h
    middle = m
    tail = t
  }

  package var bytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(20)
    for shift in stride(from: 56, through: 0, by: -8) {
      out.append(UInt8(truncatingIfNeeded: head >> shift))
    }
    for shift in stride(from: 56, through: 0, by: -8) {
      out.append(UInt8(truncatingIfNeeded: middle >> shift))
    }
    for shift in stride(from: 24, through: 0, by: -8) {
      out.append(UInt8(truncatingIfNeeded: tail >> shift))
    }
    return out
  }

  /// Writes the 20 digest bytes into `out[0..<20]` (which must be that long).
  package func copyBytes(into out: inout [UInt8]) {
    for i in 0..<8 { out[i] = UInt8(truncatingIfNeeded: head >> (56 - 8 * i)) }
    for i in 0..<8 { out[8 + i] = UInt8(truncatingIfNeeded: middle >> (56 - 8 * i)) }
    for i in 0..<4 { out[16 + i] = UInt8(truncatingIfNeeded: tail >> (24 - 8 * i)) }
  }

  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Standard base64 with padding, as Immich stores and returns checksums.
  package var base64: String {
    var out: [UInt8] = []
    out.reserveCapacity(28)
    appendBase64(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The 28 characters of `base64`, appended to `out`: straight from the three words (a warm
  /// scan writes one per file, and a byte array per digest cost as much as the encoding).
  package func appendBase64(to out: inout [UInt8]) {
    Self.alphabet.withUnsafeBufferPointer { alphabet in
      // The 160 bits as six groups of 24 bits, then 16 bits left over.
      func group(_ bits: UInt64) {
        let n = Int(truncatingIfNeeded: bits) & 0xFF_FFFF
        out.append(alphabet[n >> 18 & 63])
        out.append(alphabet[n >> 12 & 63])
        out.append(alphabet[n >> 6 & 63])
        out.append(alphabet[n & 63])
      }
      group(head >> 40)
      group(head >> 16)
      group(head << 8 | middle >> 56)
      group(middle >> 32)
      group(middle >> 8)
      group(middle << 16 | UInt64(tail >> 16))
      // Two bytes left over: three characters and one pad.
      let n = Int(tail & 0xFFFF) << 8
      out.append(alphabet[n >> 18 & 63])
      out.append(alphabet[n >> 12 & 63])
      out.append(alphabet[n >> 6 & 63])
      out.append(UInt8(ascii: "="))
    }
  }
}

/// Reads files in large chunks and hashes them. One per worker thread: it owns its buffer.
package final class ContentHasher {
  /// Big enough that system calls don't dominate, small enough to stay in cache.
  package static let chunkSize = 1 << 20

  /// Files at least this big are asked where their holes are (two extra system calls that
  /// small files can't afford); holes are hashed as zeros without being read.
  static let sparseCheckSize: Int64 = 64 << 20

  private let buffer: UnsafeMutableRawBufferPointer
  private let zeros: UnsafeMutableRawBufferPointer
  /// How long after a change a file's timestamps may still not show the next one; nil: the
  /// file system's own tick, judged from the timestamps (`FileStatus.timestampMargin`).
  private let racyMargin: Int64?

  package init(chunkSize: Int = ContentHasher.chunkSize, racyMargin: Int64? = nil) {
    buffer = .allocate(byteCount: chunkSize, alignment: 4096)
    zeros = .allocate(byteCount: chunkSize, alignment: 4096)
    zeros.initializeMemory(as: UInt8.self, repeating: 0)
    self.racyMargin = racyMargin
  }

  deinit {
    buffer.deallocate()
    zeros.deallocate()
  }

  /// What hashing a file produced: its digest and the status it had while being read.
  package struct Outcome: Sendable {
    package var digest: ContentDigest
    package var status: FileStatus
  }

  /// Reads of one file at most: a first read, a read again when it changed, and one to confirm
  /// a read whose timestamps cannot prove it.
  static let maximumReads = 3

  /// Hashes the file at `path` (a NUL-terminated C string).
  ///
  /// `followSymlinks` is false for files found by the walk (a file swapped for a link after
  /// the listing is not followed).
  ///
  /// A checksum must be of one whole version of the file. The file's status (device, inode,
  /// size, mtime, ctime) is taken before and after each read, and a read is accepted only when
  /// they are the same and they prove it: a file changed within a tick of the file system's
  /// clock before its status was taken may change again without its timestamps moving, so
  /// such a read is accepted only when a second read of the same status gives the same
  /// checksum. A file that will not hold still for that is a failure (`EAGAIN`), reported as an
  /// error record: never a checksum of bytes that no version of the file held.
  ///
  /// `expected` is the status the walk saw, at or after `expectedNotBefore` (nanoseconds since
  /// 1970): when it is old enough to prove a read, the first read trusts it instead of asking
  /// again (one system call of five for a small file).
  package func hash(
    path: UnsafePointer<CChar>, followSymlinks: Bool, expected: FileStatus? = nil,
    expectedNotBefore: Int64 = 0, progress: (Int) -> Void = { _ in }
  ) -> Result<Outcome, SystemError> {
    var flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK
    if !followSymlinks { flags |= O_NOFOLLOW }
    let fd = open(path, flags)
    guard fd >= 0 else { return .failure(SystemError(errno: errno)) }
    defer { close(fd) }
    // A read that was stable but could not prove it, waiting for a second to agree.
    var unproven: Outcome?
    for attempt in 1...Self.maximumReads {
      let status: FileStatus
      let racy: Bool
      if attempt == 1, let expected, expected.isRegularFile,
        !isRacy(expected, statusTakenAt: expectedNotBefore)
      {
        status = expected
        racy = false
      } else {
        let takenAt = Self.now()
        var before = stat()
        guard fstat(fd, &before) == 0 else { return .failure(SystemError(errno: errno)) }
        status = FileStatus(before)
        racy = isRacy(status, statusTakenAt: takenAt)
      }
      guard status.isRegularFile else {
        return .failure(
          status.isDirectory
            ? SystemError(errno: EISDIR)
            : SystemError(code: "EINVAL", message: "Not a regular file"))
      }
      if attempt == 1 && status.size > Int64(buffer.count) {
        #if os(Linux)
          _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        #endif
      }
      let digest: ContentDigest?
      switch read(fd, status, progress) {
      case .failure(let error): return .failure(error)
      case .success(let read): digest = read
      }
      var after = stat()
      guard fstat(fd, &after) == 0 else { return .failure(SystemError(errno: errno)) }
      guard let digest, FileStatus(after).sameVersion(as: status) else {
        unproven = nil
        continue
      }
      let outcome = Outcome(digest: digest, status: status)
      if !racy { return .success(outcome) }
      if let earlier = unproven, earlier.status.sameVersion(as: status), earlier.digest == digest {
        return .success(outcome)
      }
      unproven = outcome
    }
    return .failure(
      SystemError(code: "EAGAIN", message: "File keeps changing while it is being read"))
  }

  /// Whether a write after `statusTakenAt` could have left `status`'s timestamps as they are.
  private func isRacy(_ status: FileStatus, statusTakenAt: Int64) -> Bool {
    let margin = racyMargin ?? status.timestampMargin
    return status.ctimeNanoseconds > statusTakenAt - margin
  }

  /// One read of the whole file as `status` describes it: its digest, or nil when the file
  /// ended before `status.size` (it shrank meanwhile).
  private func read(
    _ fd: Int32, _ status: FileStatus, _ progress: (Int) -> Void
  ) -> Result<ContentDigest?, SystemError> {
    var hasher = Insecure.SHA1()
    var offset: off_t = 0
    // Where the current run of data ends (a hole or the end): only known for big files.
    var dataEnd = off_t.max
    var checkHoles = status.size >= Self.sparseCheckSize
    var holesChecked = false
    while true {
      if checkHoles && (offset >= dataEnd || !holesChecked) {
        holesChecked = true
        let data = lseek(fd, offset, seekData)
        // ENXIO: no data after offset. Any other failure: the file system can't say; read.
        if data < 0 && errno != ENXIO {
          checkHoles = false
          continue
        }
        let next = data < 0 ? off_t(status.size) : min(data, off_t(status.size))
        // A hole (or, past the last data, the tail): its bytes are zeros by definition.
        var hole = next - offset
        while hole > 0 {
          let n = Int(min(off_t(zeros.count), hole))
          hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: zeros[0..<n]))
          progress(n)
          hole -= off_t(n)
          offset += off_t(n)
        }
        if offset >= off_t(status.size) { break }
        let end = lseek(fd, offset, seekHole)
        dataEnd = end < 0 ? off_t.max : end
      }
      let want =
        checkHoles ? Int(min(off_t(buffer.count), max(1, dataEnd - offset))) : buffer.count
      let n = pread(fd, buffer.baseAddress, want, offset)
      if n > 0 {
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        offset += off_t(n)
        progress(n)
        // All the bytes stat promised: growth since then shows in the second stat, so the
        // read that would return 0 can be saved (it's a fifth of the calls for a small file).
        if offset == off_t(status.size) { break }
      } else if n == 0 {
        break
      } else if errno != EINTR {
        return .failure(SystemError(errno: errno))
      }
    }
    guard Int64(offset) == status.size else { return .success(nil) }
    guard let digest = ContentDigest(Array(hasher.finalize())) else {
      return .failure(SystemError(code: "EIO", message: "SHA-1 gave an unexpected length"))
    }
    return .success(digest)
  }

  static func now() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }
}

// Glibc doesn't export these without _GNU_SOURCE; the values differ between kernels.
#if canImport(Darwin)
  private let seekHole: Int32 = 3
  private let seekData: Int32 = 4
#else
  private let seekData: Int32 = 3
  private let seekHole: Int32 = 4
#endif

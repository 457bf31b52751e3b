#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The one loop that writes a buffer to a file descriptor completely.
package enum POSIXIO {
  /// Writes all of `bytes` to `fd`, going on after short writes and EINTR.
  /// Returns 0, or the `errno` of the write that failed.
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var offset = 0
    while offset < bytes.count {
      let written = write(fd, base + offset, bytes.count - offset)
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return written < 0 ? errno : EIO
      }
    }
    return 0
  }
}

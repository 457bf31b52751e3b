import CairnEngine
import CairnJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A listing file (`--server FILE`) kept open so that an asset's line can be read again when
/// its record is needed (`ServerAssets`), instead of holding every line in memory.
///
/// A line read again must be the bytes read the first time (its digest says so): a file
/// rewritten or cut short in between (a new listing saved over it) fails the read with a
/// `ListingReadBackError`; it never yields another asset's record.
package final class ListingFile: Sendable {
  /// Read in place by `forEachLine` (a search over every line).
  let fd: Int32
  package let path: String

  /// Takes ownership of `fd`, open on `path`.
  package init(descriptor fd: Int32, path: String) {
    self.fd = fd
    self.path = path
  }

  deinit { close(fd) }

  /// The line at `place`; it must still be the line that was read there.
  func line(_ place: ServerAssets.LinePlace) throws(ListingReadBackError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: place.length)
    var done = 0
    while done < place.length {
      let got = bytes.withUnsafeMutableBytes { raw in
        pread(
          fd, raw.baseAddress.map { $0 + done }, place.length - done, off_t(place.offset + done))
      }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else {
        throw failure(
          got < 0 ? String(cString: strerror(errno)) : "it ends before a line read from it")
      }
      done += got
    }
    guard bytes.withUnsafeBufferPointer(LineDigest.init) == place.digest else {
      throw failure("a line read from it is no longer the same")
    }
    return bytes
  }

  func failure(_ reason: String) -> ListingReadBackError {
    ListingReadBackError("\(path) changed while it was read: \(reason)")
  }
}

import CairnHashing
import CairnStream
import CairnSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A list of paths on stdin, one per line or NUL-separated.
enum PathList {
  static func load(fileDescriptor fd: Int32, separator: UInt8) throws -> [ScanRoot] {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        data.append(contentsOf: chunk[0..<n])
      } else if n == 0 {
        break
      } else if errno != EINTR {
        throw CairnError(.malformedInput, String(cString: strerror(errno)), at: "<stdin>")
      }
    }
    var roots: [ScanRoot] = []
    for entry in data.split(separator: separator, omittingEmptySubsequences: true) {
      if StrictUTF8.isValid(entry) {
        roots.append(ScanRoot(path: RootPath.absolute(String(decoding: entry, as: UTF8.self))))
      } else {
        roots.append(
          ScanRoot(
            path: RootPath.absolute(String(decoding: entry, as: UTF8.self)),
            failure: SystemError(
              code: "EILSEQ", message: "Path is not valid UTF-8 and can't be reported; rename it")))
      }
    }
    return roots
  }
}

import CairnStream
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Reading a file that may hold a secret (the configuration file, an API key file), which
/// must be the reader's own: a key another user can read is a key another user has.
package enum PrivateFile {
  /// The file's text, or nil when it does not exist. A file that exists but cannot be read, is
  /// not a regular file or is not UTF-8 is a configuration error, as is one whose group or
  /// other read bit is set when `mustBePrivate`.
  package static func readText(_ path: String, what: String, mustBePrivate: Bool = true)
    throws(CairnError) -> String?
  {
    var status = stat()
    guard stat(path, &status) == 0 else {
      if errno == ENOENT { return nil }
      throw CairnError(
        .configuration, "cannot read the \(what): \(String(cString: strerror(errno)))", at: path)
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw CairnError(.configuration, "the \(what) is not a regular file", at: path)
    }
    if mustBePrivate { try requirePrivate(path, mode: status.st_mode, what: what) }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw CairnError(
        .configuration, "cannot read the \(what): \(String(cString: strerror(errno)))", at: path)
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        throw CairnError(
          .configuration, "cannot read the \(what): \(String(cString: strerror(errno)))",
          at: path)
      }
      if count == 0 { break }
      bytes += buffer[..<count]
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw CairnError(.configuration, "the \(what) is not UTF-8 text", at: path)
    }
    return text
  }

  /// Refuses a file whose group or other read bit is set, saying how to fix it.
  package static func requirePrivate(_ path: String, mode: mode_t, what: String)
    throws(CairnError)
  {
    guard mode & 0o044 != 0 else { return }
    let octal = String(mode & 0o777, radix: 8)
    throw CairnError(
      .configuration,
      "the \(what) is readable by other users (mode \(octal)); make it private: chmod 600"
        + " \(shellQuoted(path))", at: path)
  }

  /// The mode of an existing file, for a check made after reading it.
  package static func mode(_ path: String) -> mode_t? {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode : nil
  }

  private static func shellQuoted(_ path: String) -> String {
    path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) }
      ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

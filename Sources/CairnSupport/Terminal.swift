import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The person at the controlling terminal. Questions and passwords go through `/dev/tty`, not
/// standard input and output: those carry records, and a pipeline has them redirected.
package final class Terminal {
  private let fd: Int32
  private let ownsDescriptor: Bool

  /// The controlling terminal; nil when there is none (cron, CI, a detached service).
  package static func open() -> Terminal? {
    let fd = openControllingTerminal()
    guard fd >= 0 else { return nil }
    return Terminal(fd, owning: true)
  }

  /// A terminal on a descriptor the caller keeps open, e.g. a pseudo-terminal in a test.
  package convenience init(fileDescriptor: Int32) { self.init(fileDescriptor, owning: false) }

  private init(_ fd: Int32, owning: Bool) {
    self.fd = fd
    self.ownsDescriptor = owning
  }

  deinit {
    if ownsDescriptor { close(fd) }
  }

  /// Whether standard input is a terminal: then no records are coming through it.
  package static var standardInputIsTerminal: Bool { isatty(0) == 1 }

  /// Asks `question` (`[y/N]` is added) and reads the answer: true for `y` or `yes`, in any
  /// case; false for anything else, an empty line or the end of input.
  package func confirm(_ question: String) -> Bool {
    write(question + " [y/N] ")
    guard let answer = readLine() else { return false }
    let word = answer.trimmingCharacters(in: .whitespaces).lowercased()
    return word == "y" || word == "yes"
  }

  /// The line typed after `prompt`, with echo off (the newline is still echoed); nil when
  /// this is not a terminal whose echo can be turned off.
  package func readSecret(prompt: String) -> Secret? {
    var saved = termios()
    guard tcgetattr(fd, &saved) == 0 else { return nil }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    quiet.c_lflag |= tcflag_t(ECHONL)
    write(prompt)
    tcsetattr(fd, TCSAFLUSH, &quiet)
    defer { tcsetattr(fd, TCSAFLUSH, &saved) }
    return readLine().map(Secret.init)
  }

  private func write(_ text: String) {
    var text = text
    _ = text.withUTF8 { POSIXIO.writeAll(fd, UnsafeRawBufferPointer($0)) }
  }

  /// One line, without its end (a newline or a carriage return); nil at the end of input
  /// before anything was typed. Read a byte at a time: nothing after the line is consumed.
  private func readLine() -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = read(fd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      if byte == 0x0A || byte == 0x0D { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
  }
}

private func openControllingTerminal() -> Int32 { open("/dev/tty", O_RDWR | O_CLOEXEC) }

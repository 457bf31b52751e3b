import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a password from the controlling terminal, with echo off.
enum Terminal {
  /// The line typed after `prompt`, or nil when there is no terminal.
  static func readSecretLine(prompt: String) -> String? {
    let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var saved = termios()
    guard tcgetattr(fd, &saved) == 0 else { return nil }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    quiet.c_lflag |= tcflag_t(ECHONL)
    writeAll(fd, prompt)
    tcsetattr(fd, TCSAFLUSH, &quiet)
    defer { tcsetattr(fd, TCSAFLUSH, &saved) }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while read(fd, &byte, 1) == 1 {
      if byte == 0x0A || byte == 0x0D { break }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func writeAll(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { buffer in _ = write(fd, buffer.baseAddress, buffer.count) }
  }
}

import CairnCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks the person at the terminal (`/dev/tty`, not standard input: that carries the plan).
enum Confirmation {
  /// True when the person answered yes; nil when there is no terminal to ask on.
  static func ask(_ question: String) -> Bool? {
    guard let tty = fopen("/dev/tty", "r+") else { return nil }
    defer { fclose(tty) }
    fputs(question + " [y/N] ", tty)
    fflush(tty)
    var buffer = [CChar](repeating: 0, count: 64)
    guard fgets(&buffer, Int32(buffer.count), tty) != nil else { return false }
    let answer = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self
    )
    .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    return answer == "y" || answer == "yes"
  }
}

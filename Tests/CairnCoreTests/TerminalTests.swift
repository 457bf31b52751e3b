import CairnSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `Terminal` on a pseudo-terminal: what the person sees and what the tool reads back.
@Suite struct TerminalTests {
  /// A pseudo-terminal: the test types on `main`, the tool reads `side`.
  final class PseudoTerminal: @unchecked Sendable {
    let main: Int32
    let side: Int32

    init() throws {
      var main: Int32 = -1
      var side: Int32 = -1
      try #require(openpty(&main, &side, nil, nil, nil) == 0)
      self.main = main
      self.side = side
    }

    deinit {
      close(side)
      close(main)
    }

    func type(_ text: String) {
      _ = text.withCString { write(main, $0, strlen($0)) }
    }

    /// What the terminal showed so far.
    func screen() -> String {
      var bytes: [UInt8] = []
      var pollFD = pollfd(fd: main, events: Int16(POLLIN), revents: 0)
      var buffer = [UInt8](repeating: 0, count: 4096)
      while poll(&pollFD, 1, 200) > 0 {
        let count = read(main, &buffer, buffer.count)
        guard count > 0 else { break }
        bytes += buffer[0..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    var echoes: Bool {
      var settings = termios()
      tcgetattr(side, &settings)
      return settings.c_lflag & tcflag_t(ECHO) != 0
    }
  }

  @Test(arguments: [("y\n", true), ("Yes \n", true), ("no\n", false), ("\n", false)])
  func confirmTakesOnlyYes(_ typed: String, _ expected: Bool) throws {
    let tty = try PseudoTerminal()
    tty.type(typed)
    #expect(Terminal(fileDescriptor: tty.side).confirm("Trash 3 assets?") == expected)
    #expect(tty.screen().contains("Trash 3 assets? [y/N] "))
  }

  @Test func aSecretIsReadWithoutEcho() async throws {
    let tty = try PseudoTerminal()
    let reading = Task.detached {
      Terminal(fileDescriptor: tty.side).readSecret(prompt: "Password: ")
    }
    // Typed once echo is off, as a person would after the prompt.
    for _ in 0..<500 where tty.echoes { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(!tty.echoes)
    tty.type("hunter2\n")
    let secret = await reading.value
    #expect(secret?.reveal() == "hunter2")
    #expect(tty.echoes)
    let screen = tty.screen()
    #expect(screen.contains("Password: "))
    #expect(!screen.contains("hunter2"))
  }

  @Test func noTerminalNoSecret() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    _ = "hunter2\n".withCString { write(ends[1], $0, strlen($0)) }
    #expect(Terminal(fileDescriptor: ends[0]).readSecret(prompt: "") == nil)
  }
}

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Human-facing lines on stderr: `cairn-tool: where: what`. Never anything on stdout.
package enum Diagnostics {
  package enum Verbosity: Int, Sendable, Comparable {
    case quiet, normal, verbose
    package static func < (a: Verbosity, b: Verbosity) -> Bool { a.rawValue < b.rawValue }
  }

  private struct Settings {
    var tool = "cairn"
    var verbosity = Verbosity.normal
  }

  private static let settings = Locked(Settings())

  /// Set once at start-up by the tool's entry point.
  package static var tool: String {
    get { settings.current.tool }
    set { settings.withLock { $0.tool = newValue } }
  }

  package static var verbosity: Verbosity {
    get { settings.current.verbosity }
    set { settings.withLock { $0.verbosity = newValue } }
  }

  /// True when stderr is a terminal and NO_COLOR is unset: colour and progress are allowed.
  package static let stderrIsTerminal: Bool = isatty(2) == 1

  package static var useColor: Bool {
    stderrIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
  }

  package static func error(_ message: String, at location: String? = nil) {
    emit(message, at: location, color: "31")
  }

  /// `evenWhenQuiet`: a warning that answers something a person did (a decision tag cairn
  /// could not act on), which `-q` must not hide: it silences cairn's own narration, and an
  /// unattended run's only way to tell them is its log and notification.
  package static func warning(
    _ message: String, at location: String? = nil, evenWhenQuiet: Bool = false
  ) {
    guard verbosity > .quiet || evenWhenQuiet else { return }
    emit("warning: " + message, at: location, color: "33")
  }

  /// A plain informational line (summaries); silenced by `-q`.
  package static func info(_ message: String) {
    guard verbosity > .quiet else { return }
    emit(message, at: nil, color: nil)
  }

  /// Narration for `-v`: what the tool is doing and how long it took.
  package static func verbose(_ message: String) {
    guard verbosity >= .verbose else { return }
    emit(message, at: nil, color: "2")
  }

  package static func emit(_ message: String, at location: String?, color: String?) {
    var prefix = tool + ": "
    if let color, useColor { prefix = "\u{1B}[1;\(color)m\(tool):\u{1B}[0m " }
    let line = prefix + (location.map { "\($0): " } ?? "") + message + "\n"
    ProgressLine.standardError.clearForMessage()
    writeStderr(line)
  }

  /// Unbuffered, so lines interleave correctly with other processes' output.
  package static func writeStderr(_ text: String) {
    var text = text
    _ = text.withUTF8 { POSIXIO.writeAll(2, UnsafeRawBufferPointer($0)) }
  }

}

/// Times the phases of a run and narrates them under `-v` (`cairn-hash: walk: 12,345 files, 0.41 s`).
package struct PhaseClock: Sendable {
  private var started = ContinuousClock.now
  package private(set) var phases: [(name: String, seconds: Double)] = []

  package init() {}

  /// Ends the current phase, reports it under `-v`, and starts the next.
  package mutating func lap(_ name: String, _ detail: String? = nil) {
    let now = ContinuousClock.now
    let elapsed = now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    phases.append((name, seconds))
    started = now
    Diagnostics.verbose(
      "\(name): " + (detail.map { "\($0), " } ?? "") + String(format: "%.3f s", seconds))
  }
}

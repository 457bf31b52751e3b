import Foundation

/// The one progress line a tool draws on a terminal's stderr: `cairn-trash: 2000/5000 assets`.
///
/// Redrawn in place (`\r`, erase to the end of the line) at most once an interval (a tenth of a
/// second; `CAIRN_PROGRESS_INTERVAL` milliseconds), erased before any diagnostic and at the
/// end of the run. Drawn only while stderr is a terminal, `NO_COLOR` is unset and `-q` was not
/// given: in a pipe or a timer's log every call returns at once and nothing is written.
///
/// A tool's phases report through the shared line with one call at each seam: `phase(_:)` says
/// what is running, `count(_:_:of:)` and `advance(_:by:of:)` keep counts, `show(_:)` replaces
/// the whole text (`cairn-hash`'s files, bytes and rate).
package final class ProgressLine: @unchecked Sendable {
  /// The process's line on standard error.
  package static let standardError = ProgressLine(
    allowed: Diagnostics.stderrIsTerminal
      && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty,
    interval: interval(ProcessInfo.processInfo.environment["CAIRN_PROGRESS_INTERVAL"]),
    write: { Diagnostics.writeStderr($0) })

  /// Whether this line may draw at all (a terminal, colour allowed); `-q` is checked per draw.
  package let isAllowed: Bool
  private let interval: Duration
  private let write: @Sendable (String) -> Void
  private let state: Locked<State>

  private struct State {
    var lastDraw: ContinuousClock.Instant
    var drawn = false
    var phase: String?
    var text: String?
    var counts: [(what: String, value: Int, total: Int?)] = []
  }

  /// A line that writes with `write`; `standardError` is the one tools use.
  package init(
    allowed: Bool, interval: Duration = .milliseconds(100),
    write: @escaping @Sendable (String) -> Void
  ) {
    isAllowed = allowed
    self.interval = interval
    self.write = write
    state = Locked(State(lastDraw: ContinuousClock.now))
  }

  /// The redraw interval from `CAIRN_PROGRESS_INTERVAL` (milliseconds, 0 to 10000).
  static func interval(_ text: String?) -> Duration {
    guard let text, let ms = Int(text), (0...10_000).contains(ms) else {
      return .milliseconds(100)
    }
    return .milliseconds(ms)
  }

  /// Says what is running now (`recording 120000 files`); drawn at once unless the line was
  /// drawn less than an interval ago. The counts stay.
  package func phase(_ text: String) {
    guard isAllowed else { return }
    update {
      $0.phase = text
      $0.text = nil
    }
  }

  /// Sets the count of `what` (`assets listed`), out of `total` when it is known.
  package func count(_ what: String, _ value: Int, of total: Int? = nil) {
    guard isAllowed else { return }
    update { state in
      if let index = state.counts.firstIndex(where: { $0.what == what }) {
        state.counts[index] = (what, value, total)
      } else {
        state.counts.append((what, value, total))
      }
    }
  }

  /// Adds `amount` to the count of `what`.
  package func advance(_ what: String, by amount: Int = 1, of total: Int? = nil) {
    guard isAllowed else { return }
    update { state in
      if let index = state.counts.firstIndex(where: { $0.what == what }) {
        state.counts[index].value += amount
        state.counts[index].total = total
      } else {
        state.counts.append((what, amount, total))
      }
    }
  }

  /// Replaces the whole text; `text` is made only when the line is about to be drawn.
  package func show(_ text: @autoclosure () -> String) {
    guard isAllowed else { return }
    let now = ContinuousClock.now
    state.withLock { state in
      guard now - state.lastDraw >= interval else { return }
      state.text = text()
      draw(&state, now: now)
    }
  }

  /// Erases the line, so a message or the shell prompt starts on a clean line; what it says is
  /// kept for the next draw.
  package func clear() {
    guard isAllowed else { return }
    state.withLock { state in
      guard state.drawn else { return }
      write("\r\u{1B}[K")
      state.drawn = false
    }
  }

  /// Erases the line and forgets what it said: the run (or its part that had progress) is over.
  package func finish() {
    guard isAllowed else { return }
    state.withLock { state in
      if state.drawn { write("\r\u{1B}[K") }
      state = State(lastDraw: ContinuousClock.now)
    }
  }

  /// Before a diagnostic: erases whatever line is on the terminal, this process's or another
  /// cairn tool's sharing it (`cairn-reconcile` and the `cairn-fetch` it runs).
  func clearForMessage() {
    guard isAllowed, Diagnostics.verbosity > .quiet else { return }
    state.withLock { state in
      state.drawn = false
      write("\r\u{1B}[K")
    }
  }

  /// The text as it would be drawn now (for tests).
  var text: String { state.withLock { render($0) } }

  private func update(_ change: (inout State) -> Void) {
    let now = ContinuousClock.now
    state.withLock { state in
      change(&state)
      guard now - state.lastDraw >= interval else { return }
      draw(&state, now: now)
    }
  }

  private func draw(_ state: inout State, now: ContinuousClock.Instant) {
    state.lastDraw = now
    guard Diagnostics.verbosity > .quiet else { return }
    write("\r\u{1B}[K" + Diagnostics.tool + ": " + render(state))
    state.drawn = true
  }

  private func render(_ state: State) -> String {
    if let text = state.text { return text }
    var parts: [String] = []
    if let phase = state.phase { parts.append(phase) }
    for count in state.counts {
      parts.append(
        count.total.map { "\(count.value)/\($0) \(count.what)" } ?? "\(count.value) \(count.what)")
    }
    return parts.joined(separator: ", ")
  }
}

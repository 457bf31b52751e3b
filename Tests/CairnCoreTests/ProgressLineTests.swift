import CairnSupport
import Testing

/// The shared progress line: what it draws, how often, and that it draws nothing when not
/// allowed. (Under a real terminal: `EndToEndTests/ProgressLineTests`.)
struct ProgressLineTests {
  /// What a line wrote, one string per write.
  final class Screen: @unchecked Sendable {
    private let writes = Locked<[String]>([])
    var all: [String] { writes.current }
    var text: String { all.joined() }
    func write(_ text: String) { writes.withLock { $0.append(text) } }
  }

  static let erase = "\r\u{1B}[K"

  @Test func drawsPhaseAndCountsInPlaceAndErasesOnlyWhatItDrew() {
    let screen = Screen()
    let line = ProgressLine(allowed: true, interval: .zero, write: screen.write)
    line.clear()
    #expect(screen.all.isEmpty)
    line.phase("recording 5 files")
    line.count("assets listed", 40)
    line.advance("assets", by: 2, of: 10)
    line.advance("assets", of: 10)
    let last = screen.all.last ?? ""
    #expect(last.hasPrefix(Self.erase))
    #expect(last.hasSuffix(": recording 5 files, 40 assets listed, 3/10 assets"))
    #expect(!screen.text.contains("\n"))
    line.clear()
    #expect(screen.all.last == Self.erase)
    let writes = screen.all.count
    line.clear()
    #expect(screen.all.count == writes)
    // finish forgets: the next draw starts afresh.
    line.show("7 files")
    line.finish()
    #expect(screen.all.last == Self.erase)
    line.count("assets", 1)
    #expect(screen.all.last?.hasSuffix(": 1 assets") == true)
  }

  @Test func redrawsAtMostOnceAnInterval() {
    let screen = Screen()
    let line = ProgressLine(allowed: true, interval: .seconds(3600), write: screen.write)
    for n in 1...1000 { line.count("assets listed", n) }
    line.phase("reconciling")
    line.show("x")
    #expect(screen.all.isEmpty)
  }

  @Test func writesNothingWhenNotAllowed() {
    let screen = Screen()
    let line = ProgressLine(allowed: false, interval: .zero, write: screen.write)
    line.phase("recording")
    line.count("assets listed", 3)
    line.advance("assets", of: 4)
    line.show("3 files")
    line.clear()
    line.finish()
    #expect(screen.all.isEmpty)
  }
}

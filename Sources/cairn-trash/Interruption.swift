import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a flag the run polls between batches, so the batch in flight
/// finishes and is journalled before the tool exits 130.
final class Interruption: @unchecked Sendable {
  private let flag = NSLock()
  private var raised = false
  private var sources: [DispatchSourceSignal] = []

  init() {
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [weak self] in
        guard let self else { return }
        self.flag.lock()
        self.raised = true
        self.flag.unlock()
      }
      source.resume()
      sources.append(source)
    }
  }

  var isRaised: Bool {
    flag.lock()
    defer { flag.unlock() }
    return raised
  }
}

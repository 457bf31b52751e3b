import CairnStream
import CairnSupport
import Foundation

/// Work started on a thread of its own and collected later, for two independent inputs that
/// each take seconds to read (a scan on stdin and a server listing): read together, the
/// slower one sets the time rather than their sum.
package final class BackgroundWork<Value: Sendable>: Sendable {
  private let result = Locked<Result<Value, CairnError>?>(nil)
  private let finished = DispatchSemaphore(value: 0)

  package init(_ name: String, _ body: @escaping @Sendable () throws(CairnError) -> Value) {
    let result = result
    let finished = finished
    let thread = Thread {
      let outcome: Result<Value, CairnError>
      do throws(CairnError) {
        outcome = .success(try body())
      } catch {
        outcome = .failure(error)
      }
      result.withLock { $0 = outcome }
      finished.signal()
    }
    thread.name = name
    // Deep enough for the record decoders; the default for secondary threads is 512 KiB.
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// The value if the work has finished with one, without waiting.
  package var finishedValue: Value? { try? result.current?.get() }

  /// Waits at most `seconds` for the work to finish; whether it has.
  @discardableResult
  package func wait(upTo seconds: Double) -> Bool {
    if result.current != nil { return true }
    guard finished.wait(timeout: .now() + seconds) == .success else { return false }
    finished.signal()  // for `value()` and later waits
    return true
  }

  /// Waits for the work and returns its value or throws its error.
  package func value() throws(CairnError) -> Value {
    while true {
      if let outcome = result.current { return try outcome.get() }
      finished.wait()
      finished.signal()  // a later call returns at once
    }
  }
}

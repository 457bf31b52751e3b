import CairnStream
import CairnSupport
import Foundation

/// A value one thread hands to another once, early in a longer piece of work: the server's
/// identity, known from a listing's first line, so that the scan can be recorded while the
/// rest of the listing is still being read.
package final class Handoff<Value: Sendable>: Sendable {
  private let result = Locked<Result<Value, CairnError>?>(nil)
  private let ready = DispatchSemaphore(value: 0)

  package init() {}

  /// Hands over `value` (or `error`); only the first call counts.
  package func deliver(_ outcome: Result<Value, CairnError>) {
    let first = result.withLock { result in
      guard result == nil else { return false }
      result = outcome
      return true
    }
    if first { ready.signal() }
  }

  /// Waits for the value and returns it, or throws the error handed over instead.
  package func value() throws(CairnError) -> Value {
    while true {
      if let outcome = result.current { return try outcome.get() }
      ready.wait()
      ready.signal()  // a later call returns at once
    }
  }
}

import Foundation

/// A failure to inject into the next `count` requests matching `method` and `path`.
///
/// `path` is a pattern of segments: `:name` or `*` match one segment, a trailing `**` matches
/// the rest; `method` nil matches any method.
package struct Fault: Sendable, Equatable {
  package enum Action: Sendable, Equatable {
    /// Answer this status and raw body (JSON by default) without running the route.
    case status(Int, body: String = "", contentType: String = "application/json")
    /// Wait, then answer normally.
    case delay(seconds: Double)
    /// Answer this redirect status (301, 302, 303, 307, 308) with `Location: location`, as a
    /// reverse proxy or a hostile server would, without running the route.
    case redirect(Int, location: String)
    /// Close the connection without sending any response.
    case reset
    /// Sync stream only: send the head and the first `afterLines` lines, then drop the
    /// connection, so the body ends without its final chunk.
    case truncateStream(afterLines: Int)
    /// Sync stream only: the lines without `SyncCompleteV1`, repeated until the client goes
    /// away, as a server that streams for ever would send them.
    case endlessStream
    /// Sync stream only: the start of a line that never ends, until the client goes away.
    case endlessLine
  }

  package var method: String?
  package var path: String
  package var count: Int
  package var action: Action

  package init(method: String? = nil, path: String, count: Int = 1, action: Action) {
    self.method = method?.uppercased()
    self.path = path
    self.count = count
    self.action = action
  }

  var label: String {
    switch action {
    case .status: return "status"
    case .redirect: return "redirect"
    case .delay: return "delay"
    case .reset: return "reset"
    case .truncateStream: return "truncate"
    case .endlessStream, .endlessLine: return "endless"
    }
  }

  func matches(method: String, path: String) -> Bool {
    if let wanted = self.method, wanted != method { return false }
    let pattern = self.path.split(separator: "/")
    let parts = path.split(separator: "/")
    for (i, segment) in pattern.enumerated() {
      if segment == "**" { return true }
      guard i < parts.count else { return false }
      if segment == "*" || segment.hasPrefix(":") { continue }
      if segment != parts[i] { return false }
    }
    return pattern.count == parts.count
  }
}

/// The armed faults; each match uses up one of its `count`.
package final class FaultInjector: @unchecked Sendable {
  private let lock = NSLock()
  private var faults: [Fault] = []

  package init() {}

  package func inject(_ fault: Fault) { lock.withLock { faults.append(fault) } }

  package func clear() { lock.withLock { faults.removeAll() } }

  /// Faults not yet used up.
  package var armed: [Fault] { lock.withLock { faults } }

  func take(method: String, path: String) -> Fault? {
    lock.withLock {
      guard
        let i = faults.firstIndex(where: { $0.count > 0 && $0.matches(method: method, path: path) })
      else { return nil }
      faults[i].count -= 1
      let fault = faults[i]
      if faults[i].count == 0 { faults.remove(at: i) }
      return fault
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Passes a termination signal sent to this process alone on to the cairn tools it started,
/// then lets it do what it would have done here: a `kill PID` aimed at `cairn-reconcile`, as a
/// service manager or a script sends it, stops its `cairn-fetch` too.
///
/// Signals sent to the whole pipeline (Ctrl-C, a terminal's hangup, `kill -- -PGID`) reach
/// the children directly, since they share this process's group (see `SiblingTool`).
enum ChildSignals {
  static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  static let capacity = 8
  /// The children's process ids (0: a free slot); fixed memory, so the handler only reads.
  nonisolated(unsafe) static let children: UnsafeMutablePointer<pid_t> = {
    let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
    slots.initialize(repeating: 0, count: capacity)
    return slots
  }()
  nonisolated(unsafe) static var installed = false

  /// Forwards signals to `pid` until `forget(pid)`. Called from one thread at a time (the one
  /// that starts and waits for children).
  static func forward(to pid: pid_t) {
    if !installed {
      installed = true
      _ = children  // made before any handler can read it
      for number in forwarded {
        let previous = signal(number, forwardThenDie)
        // An ignored signal (a background job's SIGINT) stays ignored, as it was.
        if let previous, unsafeBitCast(previous, to: Int.self) == 1 {
          signal(number, SIG_IGN)
        }
      }
    }
    for i in 0..<capacity where children[i] == 0 {
      children[i] = pid
      return
    }
  }

  static func forget(_ pid: pid_t) {
    for i in 0..<capacity where children[i] == pid { children[i] = 0 }
  }
}

/// Async-signal-safe: reads the slots, kill(2), signal(2), raise(3).
private func forwardThenDie(_ number: Int32) {
  for i in 0..<ChildSignals.capacity {
    let pid = ChildSignals.children[i]
    if pid > 0 { kill(pid, number) }
  }
  signal(number, SIG_DFL)
  raise(number)
}

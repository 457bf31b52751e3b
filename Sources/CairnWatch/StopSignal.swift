#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGTERM and SIGINT, turned into a readable descriptor the event loop waits on, so the
/// watcher stops between two events and never in the middle of a write.
package enum StopSignal {
  // Plain integers: all a signal handler may touch.
  nonisolated(unsafe) private static var writeEnd: Int32 = -1
  nonisolated(unsafe) private static var raised: sig_atomic_t = 0

  /// The descriptor that becomes readable on SIGTERM or SIGINT.
  package static func install() -> Int32 {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return -1 }
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    writeEnd = ends[1]
    let handler: @convention(c) (Int32) -> Void = { _ in
      StopSignal.raised = 1
      var byte: UInt8 = 1
      _ = write(StopSignal.writeEnd, &byte, 1)
    }
    signal(SIGTERM, handler)
    signal(SIGINT, handler)
    return ends[0]
  }

  package static var requested: Bool { raised != 0 }
}

import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The double answers on threads of its own: with every thread of the cooperative pool blocked
/// (what a few hundred synchronous tests waiting for tools do to it), a request still gets its
/// answer at once rather than after the blocked tests, which once took longer than a tool's
/// 30 s timeout.
@Suite struct ServerThreadsTests {
  @Test func answersWhileEveryThreadOfTheCooperativePoolIsBlocked() async throws {
    try await ImmichTestServer.withRunning(Scenario(version: .v3_1)) { _, url in
      let ping = url.appendingPathComponent("api/server/ping")
      let outcome = try await offCooperativePool { Self.ping(ping) }
      #expect(outcome == "answered")
    }
  }

  /// Blocks as many pool threads as the pool has (one per core), then asks the server.
  private static func ping(_ url: URL) -> String {
    let width = ProcessInfo.processInfo.activeProcessorCount
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    for _ in 0..<width {
      Task.detached {
        started.signal()
        release.wait()
      }
    }
    defer { for _ in 0..<width { release.signal() } }
    // Other tests may hold pool threads for a while; the blockers start as those end.
    for _ in 0..<width where started.wait(timeout: .now() + 120) == .timedOut {
      return "the pool was never blocked"
    }
    return get(url, within: 10) ? "answered" : "no answer within 10 s"
  }

  /// A GET through Foundation's own threads, none of them the pool's.
  private static func get(_ url: URL, within seconds: Double) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let status = LockedStatus()
    let task = URLSession.shared.dataTask(with: url) { _, response, _ in
      status.set((response as? HTTPURLResponse)?.statusCode)
      done.signal()
    }
    task.resume()
    guard done.wait(timeout: .now() + seconds) == .success else {
      task.cancel()
      return false
    }
    return status.get() == 200
  }
}

/// The status a URLSession callback hands to the waiting thread.
private final class LockedStatus: @unchecked Sendable {
  private let lock = NSLock()
  private var code: Int?
  func set(_ value: Int?) { lock.withLock { code = value } }
  func get() -> Int? { lock.withLock { code } }
}

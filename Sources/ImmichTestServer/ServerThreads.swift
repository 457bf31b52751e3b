import Foundation

/// Threads of the double's own, on which every request it answers runs.
///
/// The double runs inside the test process, and `swift test` runs every suite there on one
/// cooperative pool of a thread per core. A test that blocks a pool thread (a synchronous test
/// waiting for a tool, a blocking read) is legal Swift, and when a few hundred such tests are
/// queued on two cores, a request's handler queued behind them waited more than the tools'
/// 30 s timeout: the tool under test saw a server that did not answer, and the test failed for
/// a reason no user meets. Tasks started with this executor as their preference (and their
/// child tasks: Hummingbird answers each connection in a child task, and the double's state is
/// reached from there) run here instead, whatever the pool is doing.
final class ServerThreads: TaskExecutor, @unchecked Sendable {
  /// One set for every double in the process: a thread per core (at least two), as the pool
  /// has, and never one per test.
  static let shared = ServerThreads(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

  private let condition = NSCondition()
  private var queue: [UnownedJob] = []
  private var next = 0

  private init(count: Int) {
    for index in 0..<count {
      let thread = Thread { [unowned self] in self.serve() }
      thread.name = "immich-testserver-\(index)"
      thread.start()
    }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    queue.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Runs jobs in the order they came, for ever: the set lives as long as the process.
  private func serve() {
    while true {
      let job = take()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  private func take() -> UnownedJob {
    condition.lock()
    defer { condition.unlock() }
    while next == queue.count { condition.wait() }
    let job = queue[next]
    next += 1
    // Drop the run part now and then, so the queue does not grow with the run's length.
    if next > 1024, next * 2 > queue.count {
      queue.removeFirst(next)
      next = 0
    }
    return job
  }
}

import CairnHashing
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What hashing an arrival came to.
enum HashedArrival: Sendable {
  /// Read whole: the status it had while read, and its digest.
  case hashed(Arrival, FileStatus, ContentDigest)
  /// Could not be read whole: what `lstat` said of it (nil: nothing, it was gone), and why.
  case failed(Arrival, FileStatus?, SystemError)
  /// No longer that file at its path (replaced, or not a regular file): whatever is there now
  /// is another event's arrival.
  case replaced(Arrival)
}

/// Hashes arrivals on threads of their own, as many as the scan uses, so that an import is
/// hashed at the scan's speed and a large video never holds up the event loop, which only
/// hands jobs over and takes results back.
final class ArrivalHashers: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [Arrival] = []
  private var next = 0
  private var results: [HashedArrival] = []
  private var stopping = false
  private let running = DispatchGroup()

  init(workers: Int) {
    for _ in 0..<max(1, workers) {
      running.enter()
      let thread = Thread { [self] in
        work()
        running.leave()
      }
      thread.name = "cairn-watch-hash"
      thread.start()
    }
  }

  /// Hands arrivals over to be hashed, in order.
  func submit(_ arrivals: [Arrival]) {
    guard !arrivals.isEmpty else { return }
    condition.lock()
    jobs += arrivals
    condition.broadcast()
    condition.unlock()
  }

  /// What was hashed since the last call.
  func take() -> [HashedArrival] {
    condition.lock()
    defer { condition.unlock() }
    let done = results
    results = []
    return done
  }

  /// Lets the threads end once the file each is reading is done; waits for them.
  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    condition.unlock()
    running.wait()
  }

  private func work() {
    let hasher = ContentHasher()
    while true {
      condition.lock()
      while next == jobs.count && !stopping { condition.wait() }
      if stopping {
        condition.unlock()
        return
      }
      let job = jobs[next]
      next += 1
      if next == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        next = 0
      }
      condition.unlock()
      let result = Self.hash(job, hasher)
      condition.lock()
      results.append(result)
      condition.unlock()
    }
  }

  /// Hashes one arrival as the scan hashes a file: a regular file only, never through a link,
  /// one whole version of its bytes (`ContentHasher`).
  static func hash(_ arrival: Arrival, _ hasher: ContentHasher) -> HashedArrival {
    let takenAt = now()
    var info = stat()
    guard lstat(arrival.path, &info) == 0 else {
      return .failed(arrival, nil, SystemError(errno: errno))
    }
    let status = FileStatus(info)
    guard status.isRegularFile, status.device == arrival.stamp.device,
      status.inode == arrival.stamp.inode
    else { return .replaced(arrival) }
    let outcome = arrival.path.withCString {
      hasher.hash(path: $0, followSymlinks: false, expected: status, expectedNotBefore: takenAt)
    }
    switch outcome {
    case .success(let read): return .hashed(arrival, read.status, read.digest)
    case .failure(let error): return .failed(arrival, status, error)
    }
  }

  static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}

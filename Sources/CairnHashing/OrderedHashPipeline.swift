import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// One item of a scan on its way from the walk to the output.
struct ScanItem {
  enum Outcome {
    case needsHash
    case cached(ContentDigest)
    case hashed(ContentDigest, FileStatus, hashedAt: Int64)
    case failed(SystemError)
  }

  var rootIndex: Int
  /// Raw path bytes; NUL-terminated for files.
  var path: [UInt8]
  var status: FileStatus?
  var explicit: Bool
  var outcome: Outcome
}

/// Hashes files on one worker thread per core and gives the results back in the order they
/// were submitted, whichever worker finished first.
///
/// Memory stays bounded: at most `window` items are between submission and output; the walk
/// waits when the window is full. Items that need no hashing (cache hits, failures) pass
/// through without waking a worker.
final class OrderedHashPipeline: @unchecked Sendable {
  private var slots: [ScanItem?]
  private var done: [Bool]
  private var jobs: [Int] = []
  private var jobsHead = 0
  private var submitted = 0
  private var emitted = 0
  private var finishing = false
  /// The item whose completion wakes the submitting thread (-1: it isn't waiting).
  private var wakeAt = -1
  private var mutex = pthread_mutex_t()
  private var workAvailable = pthread_cond_t()
  private var slotDone = pthread_cond_t()
  private var threads: [Thread] = []
  private let workerCount: Int
  private var running = 0
  /// Bytes read by the workers so far, including files not finished yet (for progress).
  private var bytesRead: Int64 = 0

  /// Whether `bytesReadSoFar` is wanted (a progress line): counting costs a lock per read.
  private let countsBytes: Bool
  /// When the scan began: every status the walk takes is later, which is what a hasher needs
  /// to know whether the walk's status can prove a read.
  private let startedAt = ContentHasher.now()

  init(workers: Int, window: Int, countsBytes: Bool = true) {
    self.countsBytes = countsBytes
    workerCount = workers
    slots = Array(repeating: nil, count: window)
    done = Array(repeating: false, count: window)
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&workAvailable, nil)
    pthread_cond_init(&slotDone, nil)
    running = workers
    for index in 0..<workers {
      let thread = Thread { [self] in work() }
      thread.name = "cairn-hash-\(index)"
      thread.stackSize = 1 << 20
      threads.append(thread)
      thread.start()
    }
  }

  deinit {
    pthread_cond_destroy(&slotDone)
    pthread_cond_destroy(&workAvailable)
    pthread_mutex_destroy(&mutex)
  }

  /// Nothing submitted is waiting to be emitted: the next ready item may be written at once.
  /// Only the submitting thread changes `submitted` and `emitted`, so it may read them unlocked.
  var isDrained: Bool { submitted == emitted }

  var bytesReadSoFar: Int64 {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return bytesRead
  }

  /// Adds `item`; calls `emit` for every item whose turn has come. `idle` runs (unlocked)
  /// about ten times a second while the walk waits for room.
  func submit(_ item: ScanItem, emit: (ScanItem) -> Void, idle: () -> Void) {
    var ready: [ScanItem] = []
    pthread_mutex_lock(&mutex)
    while submitted - emitted >= slots.count {
      takeReadyLocked(into: &ready)
      if submitted - emitted < slots.count { break }
      if !ready.isEmpty {
        pthread_mutex_unlock(&mutex)
        for item in ready { emit(item) }
        ready.removeAll(keepingCapacity: true)
        pthread_mutex_lock(&mutex)
        continue
      }
      // Wait for a batch, not for the head alone: waking for every file finished would cost a
      // context switch per small file. Workers finish jobs in order, so when the item an eighth
      // of a window ahead is done, nearly everything before it is too.
      var target = emitted + min(slots.count / 8, submitted - emitted) - 1
      if done[target % slots.count] { target = emitted }
      wakeAt = target
      pthread_mutex_unlock(&mutex)
      idle()
      pthread_mutex_lock(&mutex)
      // Checked under the lock the workers signal under: no wake-up is lost.
      if !done[target % slots.count] { waitLocked() }
      wakeAt = -1
    }
    let index = submitted % slots.count
    let needsHash: Bool
    if case .needsHash = item.outcome { needsHash = true } else { needsHash = false }
    slots[index] = item
    done[index] = !needsHash
    if needsHash {
      jobs.append(submitted)
      pthread_cond_signal(&workAvailable)
    }
    submitted += 1
    takeReadyLocked(into: &ready)
    pthread_mutex_unlock(&mutex)
    for item in ready { emit(item) }
  }

  /// Waits for every submitted item, emits the rest, and stops the workers.
  func finish(emit: (ScanItem) -> Void, idle: () -> Void) {
    var ready: [ScanItem] = []
    pthread_mutex_lock(&mutex)
    while emitted < submitted {
      takeReadyLocked(into: &ready)
      if !ready.isEmpty {
        pthread_mutex_unlock(&mutex)
        for item in ready { emit(item) }
        ready.removeAll(keepingCapacity: true)
        pthread_mutex_lock(&mutex)
        continue
      }
      wakeAt = emitted
      pthread_mutex_unlock(&mutex)
      idle()
      pthread_mutex_lock(&mutex)
      if emitted < submitted && !done[emitted % slots.count] { waitLocked() }
      wakeAt = -1
    }
    finishing = true
    pthread_cond_broadcast(&workAvailable)
    while running > 0 { waitLocked() }
    pthread_mutex_unlock(&mutex)
  }

  private func takeReadyLocked(into ready: inout [ScanItem]) {
    while emitted < submitted {
      let index = emitted % slots.count
      guard done[index], let item = slots[index] else { break }
      ready.append(item)
      slots[index] = nil
      done[index] = false
      emitted += 1
    }
  }

  /// Waits for a worker to finish something, at most 100 ms (so progress can be redrawn).
  private func waitLocked() {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var deadline = now
    deadline.tv_nsec += 100_000_000
    if deadline.tv_nsec >= 1_000_000_000 {
      deadline.tv_sec += 1
      deadline.tv_nsec -= 1_000_000_000
    }
    pthread_cond_timedwait(&slotDone, &mutex, &deadline)
  }

  /// How much one worker takes at once: whole runs of small files, so a 4 KiB file doesn't
  /// cost two lock round trips and a wake-up, but never more than its share of what is queued
  /// (or one big file), so the workers stay balanced to the end.
  static let batchBytes: Int64 = 1 << 20
  static let batchItems = 64

  private func work() {
    let hasher = ContentHasher()
    var batch: [(sequence: Int, item: ScanItem)] = []
    batch.reserveCapacity(Self.batchItems)
    pthread_mutex_lock(&mutex)
    while true {
      while jobsHead == jobs.count && !finishing {
        pthread_cond_wait(&workAvailable, &mutex)
      }
      if jobsHead == jobs.count { break }
      let share = max(1, min(Self.batchItems, (jobs.count - jobsHead) / (2 * workerCount)))
      var bytes: Int64 = 0
      while batch.count < share && jobsHead < jobs.count && bytes < Self.batchBytes {
        let sequence = jobs[jobsHead]
        jobsHead += 1
        guard let item = slots[sequence % slots.count] else { continue }
        bytes += item.status?.size ?? 0
        batch.append((sequence, item))
      }
      if jobsHead == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        jobsHead = 0
      }
      pthread_mutex_unlock(&mutex)
      for index in batch.indices {
        batch[index].item.outcome = hash(batch[index].item, with: hasher)
      }
      pthread_mutex_lock(&mutex)
      for (sequence, item) in batch {
        let index = sequence % slots.count
        slots[index] = item
        done[index] = true
        if sequence == wakeAt { pthread_cond_signal(&slotDone) }
      }
      batch.removeAll(keepingCapacity: true)
    }
    running -= 1
    pthread_cond_broadcast(&slotDone)
    pthread_mutex_unlock(&mutex)
  }

  private func hash(_ item: ScanItem, with hasher: ContentHasher) -> ScanItem.Outcome {
    // The racy-file test in the cache compares timestamps with when reading began.
    let started = Self.nowNanoseconds()
    let result = withNulTerminated(item.path) { path in
      hasher.hash(
        path: path, followSymlinks: item.explicit, expected: item.status,
        expectedNotBefore: startedAt
      ) {
        [self] count in
        guard countsBytes else { return }
        pthread_mutex_lock(&mutex)
        bytesRead += Int64(count)
        pthread_mutex_unlock(&mutex)
      }
    }
    switch result {
    case .success(let outcome):
      return .hashed(outcome.digest, outcome.status, hashedAt: started)
    case .failure(let error):
      return .failed(error)
    }
  }

  static func nowNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }
}

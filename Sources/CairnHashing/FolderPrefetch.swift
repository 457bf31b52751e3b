import Foundation

/// Reads the folders the walk will enter next on a thread of its own, so that listing them
/// (the kernel's directory reads and a `stat` per media file) overlaps the walk's writing of
/// the folder before. The walk itself decides everything as before: which folders it enters
/// and in what order, what it skips, what fails; it only finds a folder's listing already
/// made (`take`). A warm rescan is mostly these two halves, one per core.
///
/// The walk says which subfolders it will enter (`expect`), in its order, right after it
/// lists their parent; they are read before anything expected earlier, so the thread reads
/// in the walk's depth-first order. A folder expected and then not entered (a link by the
/// time it is reached, a loop) is `forget`-ten. At most `ahead` listings wait to be taken;
/// a folder asked for that the thread has not started is read by the walk itself, so the
/// walk never waits for anything but a read already under way.
final class FolderPrefetch: @unchecked Sendable {
  private let includeAll: Bool
  private let ahead: Int
  private let condition = NSCondition()
  /// Folders to read, the next one last.
  private var waiting: [[UInt8]] = []
  private var reading: [UInt8]?
  /// The folder being read was forgotten meanwhile: drop its listing.
  private var dropsReading = false
  private var listings: [[UInt8]: Result<FolderListing, SystemError>] = [:]
  private var stopped = false

  init(includeAll: Bool, ahead: Int = 16) {
    self.includeAll = includeAll
    self.ahead = ahead
    let thread = Thread { [self] in readAhead() }
    thread.name = "cairn-hash folders"
    thread.start()
  }

  /// The walk will enter `paths` (walk path bytes, no NUL), in this order, before anything
  /// it expected earlier.
  func expect(_ paths: [[UInt8]]) {
    guard !paths.isEmpty else { return }
    condition.lock()
    waiting.append(contentsOf: paths.reversed())
    condition.broadcast()
    condition.unlock()
  }

  /// The listing of `path`: read ahead, being read (then waited for), or read now.
  func take(_ path: [UInt8]) -> Result<FolderListing, SystemError> {
    condition.lock()
    while true {
      if let listing = listings.removeValue(forKey: path) {
        condition.broadcast()
        condition.unlock()
        return listing
      }
      guard reading == path else { break }
      condition.wait()
    }
    if let index = waiting.lastIndex(of: path) { waiting.remove(at: index) }
    condition.unlock()
    return FolderListing.read(path, includeAll: includeAll)
  }

  /// The walk will not enter `path` after all.
  func forget(_ path: [UInt8]) {
    condition.lock()
    if listings.removeValue(forKey: path) != nil {
      condition.broadcast()
    } else if reading == path {
      dropsReading = true
    } else if let index = waiting.lastIndex(of: path) {
      waiting.remove(at: index)
    }
    condition.unlock()
  }

  /// Ends the thread after the read under way; what it read and nobody took is dropped.
  func stop() {
    condition.lock()
    stopped = true
    waiting = []
    listings = [:]
    condition.broadcast()
    condition.unlock()
  }

  private func readAhead() {
    condition.lock()
    while true {
      while !stopped && (waiting.isEmpty || listings.count >= ahead) { condition.wait() }
      if stopped { break }
      let path = waiting.removeLast()
      reading = path
      dropsReading = false
      condition.unlock()
      let listing = FolderListing.read(path, includeAll: includeAll)
      condition.lock()
      reading = nil
      if !dropsReading && !stopped { listings[path] = listing }
      condition.broadcast()
    }
    condition.unlock()
  }
}

import Foundation

/// Deletions the judge saw and has not yet confirmed, held per root until the root's
/// deletions stop arriving.
///
/// A tree removal unlinks file after file for as long as it takes (`rm -rf` of 20,000 files
/// runs for many seconds, a sync tool's folder deletion longer), and only its end says what it
/// was: the folder's own removal, the root's, or a root left empty. So a root's deletions form
/// a burst while each comes within `settle` seconds of the one before, and nothing of a burst
/// is released before the root has been quiet for `settle` seconds. A single deliberate
/// deletion is a burst of one, released `settle` seconds later.
struct DeletionHold: Sendable {
  struct Held: Sendable {
    var deletion: WatchedDeletion
    var folder: FolderID
  }

  struct Burst: Sendable {
    var last: Date
    var count: Int
    /// The media files the root held when the burst began.
    var filesBefore: Int
  }

  var settle: TimeInterval
  private(set) var held: [Held] = []
  private(set) var bursts: [Int: Burst] = [:]

  init(settle: TimeInterval) { self.settle = settle }

  var count: Int { held.count }

  /// True while `root` has a burst that has not ended.
  func bursting(_ root: Int) -> Bool { bursts[root] != nil }

  /// Holds `deletions` of one root, which arrived at `arrived`; `filesBefore` counts the
  /// root's media files before them (used only when a burst begins).
  mutating func add(_ deletions: [Held], root: Int, arrived: Date, filesBefore: Int) {
    guard !deletions.isEmpty else { return }
    held += deletions
    if var burst = bursts[root] {
      burst.last = max(burst.last, arrived)
      burst.count += deletions.count
      bursts[root] = burst
    } else {
      bursts[root] = Burst(last: arrived, count: deletions.count, filesBefore: filesBefore)
    }
  }

  /// Drops what is held in `folders` (removed as a whole); returns how many.
  mutating func drop(folders: Set<FolderID>) -> Int {
    let before = held.count
    held.removeAll { folders.contains($0.folder) }
    return before - held.count
  }

  /// Drops what is held in `roots`, and their bursts (a gap); returns how many.
  mutating func drop(roots: Set<Int>) -> Int {
    let before = held.count
    held.removeAll { roots.contains($0.deletion.root) }
    for root in roots { bursts[root] = nil }
    return before - held.count
  }

  /// The fewest deletions that can empty a root: fewer are a person's few deletions in a
  /// small library, confirmed as such.
  static let emptyingMinimum = 10

  /// A burst that removed at least half of its root's media files, and at least
  /// `emptyingMinimum`, empties the root: a tree removal, a sync or mirror of an empty source,
  /// not a person's choice.
  static func empties(_ burst: Burst) -> Bool {
    burst.count >= emptyingMinimum && burst.count * 2 >= burst.filesBefore
  }

  /// Ends the bursts of roots quiet for `settle` seconds: the deletions of a burst that
  /// emptied its root are dropped (returned as `emptied`, root and count), the others are
  /// released, oldest first.
  mutating func release(now: Date) -> (released: [WatchedDeletion], emptied: [(Int, Int)]) {
    let ended = bursts.filter { now.timeIntervalSince($0.value.last) >= settle }
    guard !ended.isEmpty else { return ([], []) }
    var released: [WatchedDeletion] = []
    var emptied: [(Int, Int)] = []
    var kept: [Held] = []
    var dropped: [Int: Int] = [:]
    for item in held {
      let root = item.deletion.root
      guard let burst = ended[root] else {
        kept.append(item)
        continue
      }
      if Self.empties(burst) {
        dropped[root, default: 0] += 1
      } else {
        released.append(item.deletion)
      }
    }
    held = kept
    for (root, burst) in ended {
      bursts[root] = nil
      if Self.empties(burst) { emptied.append((root, dropped[root] ?? 0)) }
    }
    return (released.sorted { $0.at < $1.at }, emptied.sorted { $0.0 < $1.0 })
  }
}

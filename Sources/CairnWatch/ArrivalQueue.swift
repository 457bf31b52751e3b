import Foundation

/// A media file that appeared under a root while the watcher watched: closed after writing,
/// renamed into place (a sync tool's temporary name), or found in a folder that appeared.
package struct Arrival: Sendable, Equatable {
  package var path: String
  package var root: Int
  /// What `lstat` said when the arrival was seen.
  package var stamp: FileStamp
  package var seenAt: Date
  /// Not hashed before this: a file still being written is closed and written again.
  package var due: Date
  /// Its size and modification time then (kept when it cannot be hashed).
  package var size: Int64? = nil
  package var modifiedNanoseconds: Int64? = nil
}

/// The arrivals waiting to be hashed, by path, and those being hashed. Pure: the watcher
/// hands it what it saw and when, and takes out what is due.
///
/// Bounded: past `limit` arrivals waiting, being hashed or hashed and not yet written, an
/// import is more than the watcher keeps in memory, so it refuses the next one; the watcher
/// then opens a gap for the root and drops what waits there (the next scan hashes them), never
/// a queue that grows for ever.
package struct ArrivalQueue: Sendable {
  /// How long an arrival must be left alone (no further close or rename) before it is hashed.
  package var quiet: TimeInterval
  package var limit: Int
  package private(set) var waiting: [String: Arrival] = [:]
  package private(set) var hashing: [String: Arrival] = [:]

  package init(quiet: TimeInterval, limit: Int) {
    self.quiet = quiet
    self.limit = limit
  }

  package var count: Int { waiting.count + hashing.count }

  /// Notes an arrival (again, for a path already waiting: its wait starts over). False when
  /// the queue is full with `unwritten` more: the caller opens a gap.
  package mutating func expect(
    _ path: String, root: Int, stamp: FileStamp, at now: Date, unwritten: Int,
    size: Int64? = nil, modified: Int64? = nil
  ) -> Bool {
    if var known = waiting[path] {
      known.stamp = stamp
      known.size = size
      known.modifiedNanoseconds = modified
      known.due = now.addingTimeInterval(quiet)
      waiting[path] = known
      return true
    }
    guard count + unwritten < limit else { return false }
    waiting[path] = Arrival(
      path: path, root: root, stamp: stamp, seenAt: now, due: now.addingTimeInterval(quiet),
      size: size, modifiedNanoseconds: modified)
    return true
  }

  /// The arrivals whose wait is over, oldest first, now being hashed. (A path hashed now and
  /// written again meanwhile waits: it is taken when the hash in flight is done.)
  package mutating func due(_ now: Date) -> [Arrival] {
    var ready: [Arrival] = []
    for (path, arrival) in waiting where arrival.due <= now && hashing[path] == nil {
      ready.append(arrival)
    }
    for arrival in ready {
      waiting[arrival.path] = nil
      hashing[arrival.path] = arrival
    }
    return ready.sorted { $0.seenAt < $1.seenAt }
  }

  /// The hash of `path` is done (or given up).
  package mutating func finished(_ path: String) { hashing[path] = nil }

  /// Drops what waits in `root` (a gap: the scan hashes it); returns how many.
  package mutating func drop(root: Int) -> Int {
    let dropped = waiting.filter { $0.value.root == root }
    for path in dropped.keys { waiting[path] = nil }
    return dropped.count
  }

  /// True while the file (device and inode) waits or is being hashed: its checksum may come.
  package func pending(device: UInt64, inode: UInt64) -> Bool {
    func same(_ arrival: Arrival) -> Bool {
      arrival.stamp.device == device && arrival.stamp.inode == inode
    }
    return hashing.values.contains(where: same) || waiting.values.contains(where: same)
  }
}

/// The checksums the watcher computed for files that arrived, by device and inode, with the
/// change time of the version hashed: a deletion of that version (or of the version the
/// watcher knew before it, renamed since) carries the checksum without asking the hash cache.
struct ArrivalMemory: Sendable {
  struct Key: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
  }

  struct Known: Sendable {
    var changeNanoseconds: Int64
    var checksum: String
  }

  private(set) var known: [Key: Known] = [:]

  mutating func remember(device: UInt64, inode: UInt64, change: Int64, checksum: String) {
    known[Key(device: device, inode: inode)] = Known(changeNanoseconds: change, checksum: checksum)
  }

  /// The checksum of the file as the watcher knew it (`stamp`), when the version hashed is
  /// that one or a later one (a rename moves the change time, not the bytes; a write after the
  /// hash is another arrival, hashed again).
  func checksum(_ stamp: FileStamp) -> String? {
    guard let entry = known[Key(device: stamp.device, inode: stamp.inode)],
      stamp.changeNanoseconds <= entry.changeNanoseconds
    else { return nil }
    return entry.checksum
  }

  mutating func forget(_ stamp: FileStamp) {
    known[Key(device: stamp.device, inode: stamp.inode)] = nil
  }
}

import CairnCore
import CairnHashing
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A deletion the watcher saw, with the checksum the hash cache knows for the file.
package struct ConfirmedWatchDeletion: Sendable, Equatable {
  package var checksum: String
  package var at: Date
  package var path: String
  package var movedOut: Bool
}

/// A hole in the watcher's record of one root, opened at `at`.
package struct WatchGap: Sendable, Equatable {
  package var reason: GapReason
  package var root: String
  package var at: Date
}

/// The end of a root's gaps: the walk that rebuilt its watches and files finished at `at`.
package struct WatchCatchUp: Sendable, Equatable {
  package var root: String
  package var at: Date
  /// The gap events the one walk answered (an overflow storm is many, caught up once).
  package var events: Int
  /// False when folders were left unwatched (the watch limit): that gap stays open.
  package var complete: Bool
}

/// Where the watcher's findings go: the partition's state.
package protocol WatchRecorder: AnyObject {
  /// Records what was seen; false when the state is busy (the watcher tries again later).
  func record(_ deletions: [ConfirmedWatchDeletion], gaps: [WatchGap], caughtUp: [WatchCatchUp])
    -> Bool
  /// What the watcher is doing, for `cairn-observe watch status` (at most once a second).
  func report(_ activity: WatchActivity)
}

/// The event loop: walks the roots (one watch per folder, each media file's inode and change
/// time), feeds the source's events to the judge, and hands settled deletions, with their
/// checksums, and gaps to the recorder.
///
/// Catching up after a gap is walking the root again: the watches and the file table are
/// rebuilt from what is there now, and nothing that vanished in the gap is confirmed. What
/// the files' bytes are now is the next scan's business (`cairn-nightly`), as it always was.
/// A root is caught up once however many gap events arrive (an overflow storm is thousands):
/// they are gathered until none has come for `catchUpQuiet` seconds (or for `catchUpLatest`
/// since the first), and the walk re-adds the watches it already has, which the kernel
/// answers without an event, so the walk itself never overflows the queue again.
package final class Watcher {
  package struct Options: Sendable {
    package var settle: TimeInterval = 2
    package var moveWindow: TimeInterval = 0.5
    /// How often a missing root is looked for, and a busy state written again.
    package var retry: TimeInterval = 0.25
    /// How long a root's gap events must pause before it is walked again.
    package var catchUpQuiet: TimeInterval = 0.5
    /// How long after its first gap event a root is walked again, pause or not.
    package var catchUpLatest: TimeInterval = 10
    package init() {}
  }

  /// A root whose record has a hole, waiting for its catch-up walk.
  struct PendingCatchUp {
    var first: Date
    var last: Date
    var events: Int
  }

  private let roots: [String]
  private let source: EventSource
  private let cache: HashCacheLookup
  private let recorder: WatchRecorder
  private let options: Options
  private var judge: EventJudge
  private var missingRoots = Set<Int>()
  private var mountsUnder: [Int: Set<String>] = [:]
  private var pending: [Int: PendingCatchUp] = [:]
  private var outbox:
    (deletions: [ConfirmedWatchDeletion], gaps: [WatchGap], caughtUp: [WatchCatchUp]) = (
      [], [], []
    )
  private var lastAttempt = Date.distantPast
  private var limitReported = false
  /// True while a walk could not watch every folder (the watch limit).
  private var walkShortfall = false
  /// Folders counted by the last walk, watched or not.
  package private(set) var foldersNeeded = 0
  package private(set) var activity: WatchActivity
  private var lastReport = Date.distantPast
  private var reported: WatchActivity?

  package init(
    roots: [String], source: EventSource, hashCache: String, recorder: WatchRecorder,
    options: Options = Options()
  ) {
    self.roots = roots
    self.source = source
    self.cache = HashCacheLookup(path: hashCache)
    self.recorder = recorder
    self.options = options
    judge = EventJudge(
      tree: FolderTree(roots: roots), moveWindow: options.moveWindow, settle: options.settle)
    activity = WatchActivity(
      pid: Int(getpid()), startedAt: Date(), roots: roots, settleSeconds: options.settle)
  }

  /// Watches until SIGTERM or SIGINT (`StopSignal`), then writes what settled and returns.
  package func run() {
    let now = Date()
    foldersNeeded = 0
    for index in roots.indices {
      // Whatever happened while no watcher ran is unknown: the start is a gap, caught up by
      // the first walk.
      outbox.gaps.append(WatchGap(reason: .started, root: roots[index], at: now))
      pending[index] = PendingCatchUp(first: now, last: now, events: 1)
      catchUp(index, announce: false)
    }
    // Recorded before it says it is watching: whatever reads the log then finds the start.
    flush(force: true)
    report()
    while !StopSignal.requested {
      let events = source.next(milliseconds: 100)
      if !events.isEmpty { activity.lastEventAt = Date() }
      for event in events { handle(event) }
      tick(Date())
    }
    let dropped = judge.waiting
    if dropped > 0 {
      Diagnostics.info("stopping: \(dropped) event(s) not yet settled are not recorded")
    }
    flush(force: true)
    activity.stopping = true
    recorder.report(activity)
  }

  private func report() {
    let limit = WatchLimits.current()
    let watched = judge.tree.folderCount
    var line =
      "watching \(roots.count) root(s): \(watched) folder(s), \(judge.tree.fileCount) media file(s)"
    if let limit { line += "; \(foldersNeeded) inotify watches needed, limit \(limit)" }
    Diagnostics.info(line)
    if let limit, foldersNeeded > limit * 9 / 10 {
      Diagnostics.warning(
        "this library needs \(foldersNeeded) watches, close to or over the limit of \(limit); "
          + WatchLimits.advice(needed: foldersNeeded))
    }
  }

  // MARK: - Events

  private func handle(_ event: SourceEvent) {
    let now = Date()
    if case .mountsChanged = event {
      let touched = roots.indices.filter { mounts(under: $0) != mountsUnder[$0] }
      if !touched.isEmpty { apply(judge.gap(.mountsChanged, roots: touched)) }
      return
    }
    var stamp: FileStamp?
    if case .entry(let change, let folder, let name, false, _) = event,
      change == .created || change == .written || change == .movedTo,
      let path = judge.tree.path(of: folder, name: name)
    {
      stamp = Self.stamp(path)
    }
    for decision in judge.judge(event, at: now, stamp: stamp) { apply(decision) }
  }

  private func apply(_ decision: Decision) {
    switch decision {
    case .renamed(let from, let to):
      Diagnostics.verbose("renamed within the roots (not a deletion): \(from) -> \(to)")
    case .edited(let path):
      Diagnostics.verbose("replaced by a rename (an edit, not a deletion): \(path)")
    case .androidTrash(let path):
      Diagnostics.info("moved to Android's trash (left to the scan, which asks you): \(path)")
    case .watchFolder(let parent, let name):
      guard let path = judge.tree.path(of: parent, name: name) else { return }
      walkFolder(path, name: name, parent: parent, root: judge.tree.root(of: parent) ?? 0)
    case .unwatch(let folders):
      for folder in folders { source.unwatch(folder) }
    case .gap(let reason, let affected):
      for index in affected { openGap(reason, index, at: Date()) }
    }
  }

  /// Starts a root's catch-up, or adds the event to the one already waiting: one gap row and
  /// one walk however many events (an overflow storm sends thousands).
  private func openGap(_ reason: GapReason, _ index: Int, at now: Date) {
    if var waiting = pending[index] {
      waiting.events += 1
      waiting.last = now
      pending[index] = waiting
      if waiting.events == 2 {
        Diagnostics.verbose(
          "more gap events (\(reason.rawValue)) in \(roots[index]) while its catch-up waits: "
            + "counted into that one walk")
      }
      return
    }
    Diagnostics.info(
      "gap (\(reason.rawValue)) in \(roots[index]): nothing that goes unseen is confirmed; "
        + "catching up when the events pause, the next scan judges what vanished")
    pending[index] = PendingCatchUp(first: now, last: now, events: 1)
    outbox.gaps.append(WatchGap(reason: reason, root: roots[index], at: now))
  }

  /// The roots whose gap events have paused (or waited long enough), and missing roots to
  /// look for again.
  private func dueCatchUps(_ now: Date) -> [Int] {
    pending.filter { index, waiting in
      if missingRoots.contains(index) {
        return now.timeIntervalSince(waiting.last) >= options.retry
      }
      return now.timeIntervalSince(waiting.last) >= options.catchUpQuiet
        || now.timeIntervalSince(waiting.first) >= options.catchUpLatest
    }.keys.sorted()
  }

  private func tick(_ now: Date) {
    for decision in judge.expireMoves(now: now) { apply(decision) }
    var confirmed: [ConfirmedWatchDeletion] = []
    for deletion in judge.settled(now: now) {
      guard pending[deletion.root] == nil else {
        Diagnostics.verbose("not confirmed, its root has a gap: \(deletion.path)")
        continue
      }
      guard rootIntact(deletion.root) else {
        apply(judge.gap(.rootReplaced, roots: [deletion.root]))
        continue
      }
      let how = deletion.movedOut ? "moved out of the roots" : "deleted"
      guard let stamp = deletion.stamp else {
        Diagnostics.info(
          "\(how), but never seen by the watcher (no checksum known): \(deletion.path)")
        continue
      }
      guard
        let checksum = cache.checksum(
          device: stamp.device, inode: stamp.inode, changeNanoseconds: stamp.changeNanoseconds)
      else {
        Diagnostics.info(
          "\(how), but the hash cache does not know this version (not recorded): \(deletion.path)")
        continue
      }
      Diagnostics.info("\(how) at \(deletion.at.iso8601): \(deletion.path)")
      confirmed.append(
        ConfirmedWatchDeletion(
          checksum: checksum, at: deletion.at, path: deletion.path, movedOut: deletion.movedOut))
    }
    for notice in judge.takeWithheld() { withheld(notice) }
    outbox.deletions += confirmed
    activity.confirmed += confirmed.count
    for index in dueCatchUps(now) { catchUp(index, announce: true) }
    flush(force: !confirmed.isEmpty)
    reportActivity(now)
  }

  private func withheld(_ notice: Withheld) {
    switch notice {
    case .folderRemoved(let path, let count):
      Diagnostics.info(
        "folder removed with its \(count) deleted file(s): a tree removal, nothing confirmed "
          + "(the scan judges it): \(path)")
    case .rootEmptied(let root, let count):
      Diagnostics.info(
        "\(count) deletion(s) emptied \(roots[root]) (half or more of its photos): nothing "
          + "confirmed (the scan judges it)")
    }
  }

  /// Hands the recorder what the watcher is doing when it changed, at most once a second.
  private func reportActivity(_ now: Date) {
    activity.catchingUp = pending.keys.sorted().map { roots[$0] }
    activity.folders = judge.tree.folderCount
    activity.waiting = judge.waiting
    guard activity != reported, now.timeIntervalSince(lastReport) >= 1 else { return }
    lastReport = now
    reported = activity
    recorder.report(activity)
  }

  /// Writes the outbox when it holds something and the last attempt was long enough ago (or
  /// `force`); a busy state keeps it for the next try.
  private func flush(force: Bool) {
    guard !outbox.deletions.isEmpty || !outbox.gaps.isEmpty || !outbox.caughtUp.isEmpty else {
      return
    }
    let now = Date()
    guard force || now.timeIntervalSince(lastAttempt) >= options.retry else { return }
    lastAttempt = now
    if recorder.record(outbox.deletions, gaps: outbox.gaps, caughtUp: outbox.caughtUp) {
      outbox = ([], [], [])
    }
  }

  // MARK: - Walking

  /// Walks a root again and ends its gap. The watches the walk finds again are re-added, which
  /// the kernel answers with the same descriptor and no event; only folders that are gone are
  /// unwatched. (Removing every watch first would queue an `IN_IGNORED` per folder: past the
  /// queue's length that is an overflow, a new gap, another walk, for ever.)
  private func catchUp(_ index: Int, announce: Bool) {
    guard let waiting = pending[index] else { return }
    let before = judge.tree.folders(ofRoot: index)
    judge.updateTree { $0.removeRoot(index) }
    walkShortfall = false
    let found = walk(index)
    for folder in before.subtracting(judge.tree.folders(ofRoot: index)) {
      source.unwatch(folder)
    }
    guard found else {
      pending[index]?.last = Date()  // looked for again after `retry`
      return
    }
    pending[index] = nil
    judge.forget(roots: [index])
    activity.catchUpWalks += 1
    let now = Date()
    outbox.caughtUp.append(
      WatchCatchUp(root: roots[index], at: now, events: waiting.events, complete: !walkShortfall))
    if announce {
      Diagnostics.info(
        "watching again: \(roots[index]) (caught up once after \(waiting.events) gap "
          + "event(s); \(judge.tree.folders(ofRoot: index).count) folder(s) walked)")
    }
  }

  /// Watches a root and everything under it; false when the root is not there.
  private func walk(_ index: Int) -> Bool {
    lastAttempt = Date()
    let root = roots[index]
    var info = stat()
    guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      if missingRoots.insert(index).inserted {
        Diagnostics.warning(
          "root is missing; nothing under it is confirmed until it is back", at: root)
      }
      return false
    }
    missingRoots.remove(index)
    let id = FolderID(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
    judge.updateTree { $0.addRoot(index, id: id) }
    mountsUnder[index] = mounts(under: index)
    guard watch(root, id: id, root: index) else { return true }
    walkContents(root, id: id, root: index)
    return true
  }

  private func walkFolder(_ path: String, name: String, parent: FolderID, root: Int) {
    let info = lstat_(path)
    guard info.st_mode & S_IFMT == S_IFDIR else { return }
    let id = FolderID(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
    let moved = judge.walked(into: parent, name: name, folderID: id)
    judge.updateTree { $0.addFolder(id, parent: parent, name: name) }
    for decision in moved { apply(decision) }
    guard watch(path, id: id, root: root) else { return }
    walkContents(path, id: id, root: root)
  }

  private func watch(_ path: String, id: FolderID, root: Int) -> Bool {
    foldersNeeded += 1
    do throws(WatchFailure) {
      try source.watch(path, id: id)
      return true
    } catch {
      guard case .other(let message) = error else {
        walkShortfall = true
        reportLimit(root)
        return true  // keep walking: the count says how many are needed
      }
      Diagnostics.warning("cannot watch: \(message)", at: path)
      return false
    }
  }

  private func reportLimit(_ root: Int) {
    guard !limitReported else { return }
    limitReported = true
    let limit = WatchLimits.current().map(String.init) ?? "?"
    Diagnostics.warning(
      "the inotify watch limit (\(limit)) is reached: folders beyond it are not watched; "
        + WatchLimits.advice(needed: judge.tree.folderCount * 2))
    outbox.gaps.append(WatchGap(reason: .watchLimit, root: roots[root], at: Date()))
  }

  /// Adds the folder's media files to the table and walks its subfolders (after the watch was
  /// added, so nothing created meanwhile is missed: it is either listed here or reported).
  private func walkContents(_ path: String, id: FolderID, root: Int) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
    for name in names {
      let full = path + "/" + name
      if EventJudge.isLibraryFile(name) {
        if let stamp = Self.stamp(full) {
          judge.updateTree {
            $0.setFile(
              name, in: id,
              FolderTree.File(inode: stamp.inode, changeNanoseconds: stamp.changeNanoseconds))
          }
          for decision in judge.walked(into: id, name: name, file: stamp) { apply(decision) }
        }
        continue
      }
      guard EventJudge.isLibraryFolder(name) else { continue }
      let info = lstat_(full)
      guard info.st_mode & S_IFMT == S_IFDIR else { continue }
      walkFolder(full, name: name, parent: id, root: root)
    }
  }

  private func rootIntact(_ index: Int) -> Bool {
    var info = stat()
    guard stat(roots[index], &info) == 0, let id = judge.tree.rootFolder(index) else {
      return false
    }
    return id
      == FolderID(
        device: UInt64(truncatingIfNeeded: info.st_dev),
        inode: UInt64(truncatingIfNeeded: info.st_ino))
  }

  private func mounts(under index: Int) -> Set<String> {
    guard let table = MountTable.current(), let canonical = MountTable.canonical(roots[index])
    else { return [] }
    let prefix = canonical == "/" ? "/" : canonical + "/"
    return table.filter { $0.hasPrefix(prefix) || $0 == canonical }
  }

  /// A regular file's inode and change time; nil when it is gone or not a regular file.
  static func stamp(_ path: String) -> FileStamp? {
    let info = lstat_(path)
    guard info.st_mode & S_IFMT == S_IFREG else { return nil }
    #if canImport(Darwin)
      let change =
        Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
    #else
      let change = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    #endif
    return FileStamp(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino), changeNanoseconds: change)
  }
}

/// `lstat`, with a zeroed result (mode 0: neither file nor folder) when it fails.
private func lstat_(_ path: String) -> stat {
  var info = stat()
  if lstat(path, &info) != 0 { info = stat() }
  return info
}

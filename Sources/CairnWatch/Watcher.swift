import CairnHashing
import CairnJSON
import CairnSettings
import CairnSupport
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

/// A media file the watcher saw arrive and hashed: recorded as observed, as a scan records it.
package struct ArrivedFile: Sendable, Equatable {
  package var root: String
  package var path: String
  package var checksum: String
  package var device: UInt64
  package var inode: UInt64
}

/// A media file the watcher saw arrive and could not hash: what it saw of it, and why.
package struct UnhashedFile: Sendable, Equatable {
  package var root: String
  package var path: String
  package var size: Int64?
  package var modifiedNanoseconds: Int64?
  package var changeNanoseconds: Int64?
  package var seenAt: Date
  package var reason: String
}

/// What the watcher hands the recorder, in the order it is written: arrivals first, so a
/// deletion of a photo that arrived is of a photo the state knows.
package struct WatchFindings: Sendable, Equatable {
  package var arrivals: [ArrivedFile] = []
  package var unhashed: [UnhashedFile] = []
  package var deletions: [ConfirmedWatchDeletion] = []
  package var gaps: [WatchGap] = []
  package var caughtUp: [WatchCatchUp] = []

  package var isEmpty: Bool {
    arrivals.isEmpty && unhashed.isEmpty && deletions.isEmpty && gaps.isEmpty
      && caughtUp.isEmpty
  }

  /// Only arrivals, which may wait to be written together.
  var onlyArrivals: Bool { deletions.isEmpty && gaps.isEmpty && caughtUp.isEmpty }
}

/// Where the watcher's findings go: the partition's state.
package protocol WatchRecorder: AnyObject {
  /// Records what was seen; false when the state is busy (the watcher tries again later).
  func record(_ findings: WatchFindings) -> Bool
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
    /// How long a file that arrived must be left alone before it is hashed.
    package var arrivalQuiet: TimeInterval = 1
    /// How many arrivals are kept waiting, hashing or unwritten before a gap is opened.
    package var arrivalLimit = 20_000
    /// How often arrivals alone are written (together, one transaction for many).
    package var arrivalFlush: TimeInterval = 1
    /// Threads hashing arrivals (as many as the scan's).
    package var hashWorkers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Parts of the roots out of scope (`CAIRN_IGNORE_PATHS`): what arrives there is not
    /// recorded, as a scan never lists it.
    package var ignoredPaths = IgnoredPaths.none
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
  private let hashCachePath: String
  /// The hash cache, written (not loaded) with what arrivals hashed, opened at the first.
  private var cacheWriter: HashCache?
  private var arrivals: ArrivalQueue
  private var memory = ArrivalMemory()
  private var hashers: ArrivalHashers?
  /// Deletions settled while the file's hash was still coming.
  private var awaitingHash: [WatchedDeletion] = []
  /// Roots whose arrivals overflowed the queue: none is taken until their catch-up.
  private var flooded = Set<Int>()
  /// Roots on a network or FUSE file system (its name), left to the scan.
  private var blind: [Int: String] = [:]
  private var lastArrivalFlush = Date.distantPast
  private let recorder: WatchRecorder
  private let options: Options
  private var judge: EventJudge
  private var missingRoots = Set<Int>()
  private var mountsUnder: [Int: Set<String>] = [:]
  private var pending: [Int: PendingCatchUp] = [:]
  private var outbox = WatchFindings()
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
    hashCachePath = hashCache
    arrivals = ArrivalQueue(quiet: options.arrivalQuiet, limit: options.arrivalLimit)
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
    hashers = ArrivalHashers(workers: options.hashWorkers)
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
    // What is being hashed is finished and written; what still waits is the next scan's.
    hashers?.stop()
    takeHashed(Date())
    if arrivals.count > 0 {
      Diagnostics.info(
        "stopping: \(arrivals.count) arrival(s) not yet hashed are not recorded (the next scan "
          + "hashes them)")
    }
    cacheWriter?.finishWriting()
    flush(force: true)
    activity.stopping = true
    recorder.report(activity)
  }

  private func report() {
    let limit = WatchLimits.current()
    let watched = judge.tree.folderCount
    var line =
      "watching \(roots.count - blind.count) root(s): \(watched) folder(s), "
      + "\(judge.tree.fileCount) media file(s)"
    if let limit { line += "; \(foldersNeeded) inotify watches needed, limit \(limit)" }
    if !blind.isEmpty {
      line += "; scan-only (not witnessed): " + scanOnly.joined(separator: ", ")
    }
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
      // A root left to the scan is looked at again when its mounts change.
      for index in touched where blind[index] != nil { blind[index] = nil }
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
    if case .entry(let change, let folder, let name, false, _) = event,
      change == .written || change == .movedTo, let stamp, EventJudge.isLibraryFile(name),
      let path = judge.tree.path(of: folder, name: name), let root = judge.tree.root(of: folder)
    {
      arrive(path, root: root, stamp: stamp, at: now)
    }
  }

  // MARK: - Arrivals

  /// A media file closed after writing or renamed into place under a root: hashed once it has
  /// been left alone for `arrivalQuiet`, then recorded as observed (`WatchFindings`).
  private func arrive(_ path: String, root: Int, stamp: FileStamp, at now: Date) {
    guard !flooded.contains(root), blind[root] == nil,
      !options.ignoredPaths.covers(path: path, root: roots[root])
    else { return }
    // Its size and modification time, kept should it be gone before it is read.
    let seen = lstat_(path)
    guard seen.st_mode & S_IFMT == S_IFREG else { return }
    let status = FileStatus(seen)
    let accepted = arrivals.expect(
      path, root: root, stamp: stamp, at: now, unwritten: outbox.arrivals.count,
      size: status.size, modified: status.mtimeNanoseconds)
    if !accepted {
      flood(root, at: now)
    }
  }

  /// More arrivals than the watcher keeps: what waits in the root is dropped, and a gap tells
  /// the next scan to judge the root (it hashes what arrived); none is taken until the
  /// catch-up walk.
  private func flood(_ root: Int, at now: Date) {
    flooded.insert(root)
    let dropped = arrivals.drop(root: root)
    activity.arrivalsDropped += dropped + 1
    Diagnostics.info(
      "more than \(options.arrivalLimit) arrivals waiting: \(dropped + 1) in \(roots[root]) "
        + "are left to the next scan")
    openGap(.arrivals, root, at: now)
  }

  /// Hands the arrivals whose wait is over to the hashers, and takes what they hashed.
  private func hashArrivals(_ now: Date) {
    hashers?.submit(arrivals.due(now))
    takeHashed(now)
  }

  private func takeHashed(_ now: Date) {
    guard let results = hashers?.take(), !results.isEmpty else { return }
    for result in results {
      switch result {
      case .hashed(let arrival, let status, let digest):
        arrivals.finished(arrival.path)
        let checksum = digest.base64
        memory.remember(
          device: status.device, inode: status.inode, seen: arrival.stamp.changeNanoseconds,
          hashed: status.ctimeNanoseconds, checksum: checksum)
        storeInCache(status, digest)
        outbox.arrivals.append(
          ArrivedFile(
            root: roots[arrival.root], path: arrival.path, checksum: checksum,
            device: status.device, inode: status.inode))
        Diagnostics.verbose("arrived: \(arrival.path)")
      case .failed(let arrival, let status, let error):
        arrivals.finished(arrival.path)
        // Renamed on before it was read: the arrival under its new name is hashed instead.
        let renamed = error.code == "ENOENT" && arrivals.renamedOn(arrival)
        guard !renamed, arrivals.waiting[arrival.path] == nil else { continue }
        activity.arrivalsUnhashed += 1
        outbox.unhashed.append(
          UnhashedFile(
            root: roots[arrival.root], path: arrival.path, size: status?.size ?? arrival.size,
            modifiedNanoseconds: status?.mtimeNanoseconds ?? arrival.modifiedNanoseconds,
            changeNanoseconds: status?.ctimeNanoseconds ?? arrival.stamp.changeNanoseconds,
            seenAt: arrival.seenAt, reason: error.code))
        Diagnostics.info(
          "arrived, but could not be hashed (\(error.code): \(error.message)); what was seen of "
            + "it is kept: \(arrival.path)")
      case .replaced(let arrival):
        arrivals.finished(arrival.path)
      }
    }
    cacheWriter?.flush()
  }

  /// Remembers an arrival's checksum in the hash cache, so the next scan need not read it.
  private func storeInCache(_ status: FileStatus, _ digest: ContentDigest) {
    if cacheWriter == nil { cacheWriter = HashCache(path: hashCachePath, loading: false) }
    cacheWriter?.store(status, digest, hashedAt: ArrivalHashers.now())
  }

  /// The roots left to the scan, as the log and the status name them.
  private var scanOnly: [String] {
    blind.keys.sorted().map { "\(roots[$0]) (\(blind[$0] ?? "?"))" }
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
      // A folder that appeared (made, or moved in from outside the roots): its files arrive.
      walkFolder(
        path, name: name, parent: parent, root: judge.tree.root(of: parent) ?? 0, arriving: true)
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
      // Left to the scan until its mounts change (a network share unmounted, a disk mounted).
      if blind[index] != nil { return false }
      if missingRoots.contains(index) {
        return now.timeIntervalSince(waiting.last) >= options.retry
      }
      return now.timeIntervalSince(waiting.last) >= options.catchUpQuiet
        || now.timeIntervalSince(waiting.first) >= options.catchUpLatest
    }.keys.sorted()
  }

  private func tick(_ now: Date) {
    for decision in judge.expireMoves(now: now) { apply(decision) }
    hashArrivals(now)
    var confirmed: [ConfirmedWatchDeletion] = []
    let waited = awaitingHash
    awaitingHash = []
    for deletion in waited + judge.settled(now: now) {
      if let checked = confirm(deletion) { confirmed.append(checked) }
    }
    for notice in judge.takeWithheld() { withheld(notice) }
    outbox.deletions += confirmed
    activity.confirmed += confirmed.count
    for index in dueCatchUps(now) { catchUp(index, announce: true) }
    flush(force: !confirmed.isEmpty)
    reportActivity(now)
  }

  /// A settled deletion with the checksum the watcher or the hash cache knows for the file;
  /// nil when it is not confirmed (said why), or waits for its file's hash (`awaitingHash`).
  private func confirm(_ deletion: WatchedDeletion) -> ConfirmedWatchDeletion? {
    guard pending[deletion.root] == nil else {
      Diagnostics.verbose("not confirmed, its root has a gap: \(deletion.path)")
      return nil
    }
    guard rootIntact(deletion.root) else {
      apply(judge.gap(.rootReplaced, roots: [deletion.root]))
      return nil
    }
    let how = deletion.movedOut ? "moved out of the roots" : "deleted"
    guard let stamp = deletion.stamp else {
      Diagnostics.info(
        "\(how), but never seen by the watcher (no checksum known): \(deletion.path)")
      return nil
    }
    let known =
      memory.checksum(stamp)
      ?? cache.checksum(
        device: stamp.device, inode: stamp.inode, changeNanoseconds: stamp.changeNanoseconds)
    guard let checksum = known else {
      // It arrived and its hash is still coming (a large video, an import): wait for it.
      if arrivals.pending(device: stamp.device, inode: stamp.inode) {
        awaitingHash.append(deletion)
        return nil
      }
      Diagnostics.info(
        "\(how), but the hash cache does not know this version (not recorded): \(deletion.path)")
      return nil
    }
    memory.forget(stamp)
    Diagnostics.info("\(how) at \(deletion.at.iso8601): \(deletion.path)")
    return ConfirmedWatchDeletion(
      checksum: checksum, at: deletion.at, path: deletion.path, movedOut: deletion.movedOut)
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
    activity.catchingUp = pending.keys.sorted().filter { blind[$0] == nil }.map { roots[$0] }
    activity.folders = judge.tree.folderCount
    activity.waiting = judge.waiting
    activity.arrivalsWaiting = arrivals.count
    activity.scanOnly = scanOnly
    guard activity != reported, now.timeIntervalSince(lastReport) >= 1 else { return }
    lastReport = now
    reported = activity
    recorder.report(activity)
  }

  /// Writes the outbox when it holds something and the last attempt was long enough ago (or
  /// `force`); a busy state keeps it for the next try.
  /// Arrivals alone are gathered for `arrivalFlush` (one transaction for many).
  private func flush(force: Bool) {
    guard !outbox.isEmpty else { return }
    let now = Date()
    guard force || now.timeIntervalSince(lastAttempt) >= options.retry else { return }
    if !force && outbox.onlyArrivals
      && now.timeIntervalSince(lastArrivalFlush) < options.arrivalFlush
    {
      return
    }
    lastAttempt = now
    lastArrivalFlush = now
    if recorder.record(outbox) {
      activity.arrivalsRecorded += outbox.arrivals.count
      outbox = WatchFindings()
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
    flooded.remove(index)
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
    mountsUnder[index] = mounts(under: index)
    if let kind = BlindFileSystems.fileSystem(at: root) {
      // Its gap stays open: nothing there is witnessed, so nothing there is confirmed.
      blind[index] = kind
      Diagnostics.warning(
        "on a network or FUSE file system (\(kind)): the kernel reports only what this machine "
          + "does there, never what another machine does; left to the scan (scan-only), no "
          + "deletion there is confirmed by the watcher", at: root)
      return false
    }
    let id = FolderID(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
    judge.updateTree { $0.addRoot(index, id: id) }
    guard watch(root, id: id, root: index) else { return true }
    walkContents(root, id: id, root: index, arriving: false)
    return true
  }

  /// Watches a folder and walks it; `arriving` when it appeared while watching, so its media
  /// files are arrivals (what a catch-up walk finds is the next scan's to record).
  private func walkFolder(
    _ path: String, name: String, parent: FolderID, root: Int, arriving: Bool
  ) {
    let info = lstat_(path)
    guard info.st_mode & S_IFMT == S_IFDIR else { return }
    let id = FolderID(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
    let moved = judge.walked(into: parent, name: name, folderID: id)
    judge.updateTree { $0.addFolder(id, parent: parent, name: name) }
    for decision in moved { apply(decision) }
    guard watch(path, id: id, root: root) else { return }
    walkContents(path, id: id, root: root, arriving: arriving)
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
  private func walkContents(_ path: String, id: FolderID, root: Int, arriving: Bool) {
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
          if arriving { arrive(full, root: root, stamp: stamp, at: Date()) }
        }
        continue
      }
      guard EventJudge.isLibraryFolder(name) else { continue }
      let info = lstat_(full)
      guard info.st_mode & S_IFMT == S_IFDIR else { continue }
      walkFolder(full, name: name, parent: id, root: root, arriving: arriving)
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

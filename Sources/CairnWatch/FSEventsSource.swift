#if canImport(CoreServices) && os(macOS)
  import CoreServices
  import Darwin
  import Dispatch
  import Foundation

  /// FSEvents: one stream over the roots' whole trees, with per-file events
  /// (`kFSEventStreamCreateFlagFileEvents`). Written for macOS and compiled only there; it has
  /// not been run by the test suite, which runs on Linux.
  ///
  /// FSEvents reports paths, not folders: each event's parent folder is looked up (`lstat`)
  /// to give the judge the identity it keys folders by. A rename is two events with the
  /// `ItemRenamed` flag and consecutive event ids; the half whose path no longer exists is the
  /// old name. Dropped events and `MustScanSubDirs` are an overflow; `RootChanged` is a root
  /// moved or deleted; `Unmount` is an unmount.
  package final class FSEventsSource: EventSource {
    private var roots: [String: FolderID] = [:]
    private var stream: FSEventStreamRef?
    private let queue = DispatchQueue(label: "cairn-watch-fsevents")
    private let ready = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var pending: [SourceEvent] = []
    private var lastRename: (id: FSEventStreamEventId, cookie: UInt32)?

    package init() {}

    deinit { stop() }

    package func watch(_ path: String, id: FolderID) throws(WatchFailure) {
      // One stream covers a root's tree: only a path outside every root restarts it.
      guard !roots.keys.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { return }
      roots[path] = id
      restart()
    }

    package func unwatch(_ id: FolderID) {
      guard let path = roots.first(where: { $0.value == id })?.key else { return }
      roots[path] = nil
      restart()
    }

    package func next(milliseconds: Int32) -> [SourceEvent] {
      _ = ready.wait(timeout: .now() + .milliseconds(Int(milliseconds)))
      lock.lock()
      defer { lock.unlock() }
      let events = pending
      pending = []
      return events
    }

    private func stop() {
      guard let stream else { return }
      FSEventStreamStop(stream)
      FSEventStreamInvalidate(stream)
      FSEventStreamRelease(stream)
      self.stream = nil
    }

    private func restart() {
      stop()
      guard !roots.isEmpty else { return }
      var context = FSEventStreamContext(
        version: 0, info: Unmanaged.passUnretained(self).toOpaque(), retain: nil, release: nil,
        copyDescription: nil)
      let callback: FSEventStreamCallback = { _, info, count, paths, flags, ids in
        guard let info else { return }
        let source = Unmanaged<FSEventsSource>.fromOpaque(info).takeUnretainedValue()
        let names = Unmanaged<CFArray>.fromOpaque(paths).takeUnretainedValue() as? [String] ?? []
        source.receive(
          names, Array(UnsafeBufferPointer(start: flags, count: count)),
          Array(UnsafeBufferPointer(start: ids, count: count)))
      }
      let flags = FSEventStreamCreateFlags(
        kFSEventStreamCreateFlagFileEvents | kFSEventStreamCreateFlagWatchRoot
          | kFSEventStreamCreateFlagUseCFTypes | kFSEventStreamCreateFlagNoDefer)
      guard
        let created = FSEventStreamCreate(
          kCFAllocatorDefault, callback, &context, Array(roots.keys) as CFArray,
          FSEventStreamEventId(kFSEventStreamEventIdSinceNow), 0.1, flags)
      else { return }
      stream = created
      FSEventStreamSetDispatchQueue(created, queue)
      FSEventStreamStart(created)
    }

    private func receive(
      _ paths: [String], _ flags: [FSEventStreamEventFlags], _ ids: [FSEventStreamEventId]
    ) {
      var events: [SourceEvent] = []
      for (index, path) in paths.enumerated() where index < flags.count {
        events += translate(path, Int(flags[index]), ids[index])
      }
      guard !events.isEmpty else { return }
      lock.lock()
      pending += events
      lock.unlock()
      ready.signal()
    }

    private func translate(_ path: String, _ flags: Int, _ id: FSEventStreamEventId)
      -> [SourceEvent]
    {
      let dropped =
        kFSEventStreamEventFlagUserDropped | kFSEventStreamEventFlagKernelDropped
        | kFSEventStreamEventFlagMustScanSubDirs
      if flags & dropped != 0 { return [.overflow] }
      if flags & kFSEventStreamEventFlagRootChanged != 0 {
        guard let root = roots[path] else { return [] }
        return [exists(path) ? .folderMoved(root) : .folderDeleted(root)]
      }
      if flags & kFSEventStreamEventFlagUnmount != 0 {
        let root = roots.first { path.hasPrefix($0.key + "/") || $0.key.hasPrefix(path) }
        return root.map { [.unmounted($0.value)] } ?? []
      }
      let parentPath = (path as NSString).deletingLastPathComponent
      let name = (path as NSString).lastPathComponent
      guard let parent = Self.identity(parentPath) else { return [] }
      let isDirectory = flags & kFSEventStreamEventFlagItemIsDir != 0
      let present = exists(path)
      var change: EntryChange?
      var cookie: UInt32 = 0
      if flags & kFSEventStreamEventFlagItemRenamed != 0 {
        // The two halves carry consecutive ids; the first one seen opens the pair.
        if let last = lastRename, id == last.id + 1 {
          cookie = last.cookie
          lastRename = nil
        } else {
          cookie = UInt32(truncatingIfNeeded: id)
          lastRename = (id, cookie)
        }
        change = present ? .movedTo : .movedFrom
      } else if flags & kFSEventStreamEventFlagItemRemoved != 0, !present {
        change = .removed
      } else if flags & kFSEventStreamEventFlagItemCreated != 0, present {
        change = .created
      } else if flags & kFSEventStreamEventFlagItemModified != 0, present {
        change = .written
      }
      guard let change else { return [] }
      return [
        .entry(change, folder: parent, name: name, isDirectory: isDirectory, cookie: cookie)
      ]
    }

    private func exists(_ path: String) -> Bool {
      var info = stat()
      return lstat(path, &info) == 0
    }

    static func identity(_ path: String) -> FolderID? {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      return FolderID(
        device: UInt64(truncatingIfNeeded: info.st_dev),
        inode: UInt64(truncatingIfNeeded: info.st_ino))
    }
  }
#endif

#if os(Linux)
  import Glibc

  /// inotify: one watch per folder, on the events that change which files a folder holds.
  ///
  /// Besides the inotify descriptor it waits on the mount table (`/proc/self/mountinfo`, which
  /// signals a change with `POLLPRI`): unmounting a bind mount of a file system that stays
  /// mounted elsewhere produces no inotify event at all, so only the table tells.
  package final class InotifySource: EventSource {
    // <sys/inotify.h>, spelled out: Swift imports some of them as enums, some not at all.
    static let created: UInt32 = 0x100
    static let removed: UInt32 = 0x200
    static let movedFrom: UInt32 = 0x40
    static let movedTo: UInt32 = 0x80
    static let closeWrite: UInt32 = 0x8
    static let deleteSelf: UInt32 = 0x400
    static let moveSelf: UInt32 = 0x800
    static let unmount: UInt32 = 0x2000
    static let overflowed: UInt32 = 0x4000
    static let ignored: UInt32 = 0x8000
    static let isDirectory: UInt32 = 0x4000_0000
    static let onlyDirectory: UInt32 = 0x0100_0000
    static let mask =
      created | removed | movedFrom | movedTo | closeWrite | deleteSelf | moveSelf | unmount
      | onlyDirectory

    private let fd: Int32
    private let mounts: Int32
    private let wake: Int32
    private var folders: [Int32: FolderID] = [:]
    private var descriptors: [FolderID: Int32] = [:]
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)

    /// `wake` is a descriptor that becomes readable when the watcher should stop (-1: none).
    package init(wake: Int32 = -1) throws(WatchFailure) {
      fd = inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC))
      guard fd >= 0 else { throw .other(String(cString: strerror(errno))) }
      mounts = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
      self.wake = wake
    }

    deinit {
      close(fd)
      if mounts >= 0 { close(mounts) }
    }

    package func watch(_ path: String, id: FolderID) throws(WatchFailure) {
      let wd = inotify_add_watch(fd, path, Self.mask)
      guard wd >= 0 else {
        throw errno == ENOSPC ? .limit : .other(String(cString: strerror(errno)))
      }
      // The same inode reached by two paths (a bind mount of a folder inside the root) shares
      // one watch: the later path wins, which the judge never needs to tell apart.
      folders[wd] = id
      descriptors[id] = wd
    }

    package func unwatch(_ id: FolderID) {
      guard let wd = descriptors.removeValue(forKey: id) else { return }
      folders[wd] = nil
      inotify_rm_watch(fd, wd)
    }

    package func next(milliseconds: Int32) -> [SourceEvent] {
      var polls = [
        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: mounts, events: Int16(POLLPRI), revents: 0),
        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&polls, nfds_t(polls.count), milliseconds)
      guard ready > 0 else { return [] }
      var events: [SourceEvent] = []
      if polls[1].revents & Int16(POLLPRI | POLLERR) != 0 {
        // Reading the table again re-arms the notification.
        var scratch = [UInt8](repeating: 0, count: 4096)
        lseek(mounts, 0, SEEK_SET)
        while read(mounts, &scratch, scratch.count) > 0 {}
        events.append(.mountsChanged)
      }
      if polls[0].revents & Int16(POLLIN) != 0 { events += readEvents() }
      return events
    }

    private func readEvents() -> [SourceEvent] {
      var events: [SourceEvent] = []
      while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        buffer.withUnsafeBytes { bytes in
          var offset = 0
          while offset + 16 <= count {
            let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameBytes = bytes[(offset + 16)..<(offset + 16 + length)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            offset += 16 + length
            if let event = translate(wd: wd, mask: mask, cookie: cookie, name: name) {
              events.append(event)
            }
          }
        }
      }
      return events
    }

    private func translate(wd: Int32, mask: UInt32, cookie: UInt32, name: String)
      -> SourceEvent?
    {
      if mask & Self.overflowed != 0 { return .overflow }
      guard let folder = folders[wd] else { return nil }
      if mask & Self.ignored != 0 {
        // The kernel dropped the watch (deleted, unmounted, or removed by us).
        folders[wd] = nil
        if descriptors[folder] == wd { descriptors[folder] = nil }
        return nil
      }
      if mask & Self.unmount != 0 { return .unmounted(folder) }
      if mask & Self.deleteSelf != 0 { return .folderDeleted(folder) }
      if mask & Self.moveSelf != 0 { return .folderMoved(folder) }
      let isDirectory = mask & Self.isDirectory != 0
      let change: EntryChange
      if mask & Self.created != 0 {
        change = .created
      } else if mask & Self.removed != 0 {
        change = .removed
      } else if mask & Self.movedFrom != 0 {
        change = .movedFrom
      } else if mask & Self.movedTo != 0 {
        change = .movedTo
      } else if mask & Self.closeWrite != 0 {
        change = .written
      } else {
        return nil
      }
      return .entry(change, folder: folder, name: name, isDirectory: isDirectory, cookie: cookie)
    }
  }
#endif

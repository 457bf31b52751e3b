import ArgumentParser
import CairnHashing
import CairnJSON
import CairnReconcile
import CairnRecords
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import CairnWatch
import Foundation

/// `cairn-observe watch`: following the library is its main job; `status` asks about it.
struct Watch: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Follow the library and record each deletion as it happens",
    discussion: """
      Runs in the foreground (for systemd: cairn-watch.service) until SIGTERM or SIGINT. Each \
      media file unlinked, or moved out of every root, is recorded as a confirmed deletion \
      (source 'watcher') dated when it happened, with the checksum the hash cache knows for \
      it; it then waits out the quarantine like any other. A move within the roots is a \
      rename, a rename onto a photo an edit. An unmount, a root removed or replaced, a \
      queue overflow, the watch limit and the watcher's own start are gaps: logged, recorded, \
      never confirmed; the watcher walks the root again once its gap events pause, and \
      the next scan judges what vanished. A root's deletions are held while they keep \
      coming; a folder removed with its files, or a burst that empties a root, confirms \
      nothing.

      The roots default to CAIRN_LIBRARY (colon-separated). One inotify watch per folder: \
      the start says how many are needed against fs.inotify.max_user_watches. \
      'cairn-observe watch status' says whether a watcher runs, what it watches and its \
      recent gaps.
      """,
    subcommands: [WatchFollow.self, WatchStatusCommand.self],
    defaultSubcommand: WatchFollow.self)
}

/// The watcher itself, run when `watch` names no other subcommand.
struct WatchFollow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "follow",
    abstract: "Follow the library and record each deletion as it happens",
    usage: """
      cairn-observe watch [<options>] [<roots> ...]
      cairn-observe watch status [<options>]
      """,
    shouldDisplay: false)

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  @Argument(
    help: "Library folders to watch (default: CAIRN_LIBRARY).", completion: .directory)
  var roots: [String] = []

  /// The older spelling of `watch status`, kept working and hidden from help.
  @Flag(help: .hidden)
  var status = false

  func validate() throws {
    if status && !roots.isEmpty {
      throw ValidationError("--status takes no folders: it reports the partition's watcher")
    }
  }

  func run() async throws {
    if status { return try await WatchStatusCommand.report(partition, common) }
    try await Tool.run(CairnObserve.self, common, writesRecords: false) {
      let configuration = try Configuration.load()
      let folders = try libraryRoots(configuration)
      let identity = try ListingInput.identity(
        serverFile: partition.serverFile,
        fetchArguments: common.forwarded)
      // Opened once here so a damaged or newer database stops the watcher at the start.
      try PartitionStore.open(identity.partition, paths: configuration.paths, brief: true).close()
      try WatchPresence.claim(configuration.paths, identity.partition)
      let recorder = StateRecorder(partition: identity.partition, paths: configuration.paths)
      let stop = StopSignal.install()
      let source = try makeSource(wake: stop)
      var options = Watcher.Options()
      let settle = try SettingsTable.watchSettle.value(in: configuration)
      options.settle = Double(settle) / 1000
      options.ignoredPaths = try ReconciliationSettings.ignoredPaths(configuration)
      let watcher = Watcher(
        roots: folders, source: source, hashCache: configuration.paths.hashCache,
        recorder: recorder, options: options)
      watcher.run()
      Diagnostics.info(
        "stopped; \(recorder.recorded) deletion(s) and \(recorder.arrivals) arrival(s) recorded in "
          + "this run")
      return .success
    }
  }

  private func libraryRoots(_ configuration: Configuration) throws(CairnError) -> [String] {
    // Folders given here are read as CAIRN_LIBRARY's are: a unit file's `~/Photos` reached no
    // shell.
    let folders =
      try roots.isEmpty
      ? SettingsTable.library.value(in: configuration)
      : roots.filter { !$0.isEmpty }.map { root throws(CairnError) in
        guard let folder = FolderList.folder(root, base: .process) else {
          throw CairnError(.usage, "\(root): there is no such user's home folder")
        }
        return folder
      }
    guard !folders.isEmpty else {
      throw CairnError(.usage, "no library folder: give one, or set CAIRN_LIBRARY")
    }
    return folders
  }

  private func makeSource(wake: Int32) throws(CairnError) -> EventSource {
    #if os(Linux)
      do {
        return try InotifySource(wake: wake)
      } catch {
        throw CairnError(.stateFailure, "cannot start inotify: \(error)")
      }
    #elseif canImport(CoreServices)
      return FSEventsSource()
    #else
      throw CairnError(.usage, "watching is not supported on this system")
    #endif
  }
}

/// Writes the watcher's findings into the partition, holding its lock only while it writes.
final class StateRecorder: WatchRecorder {
  let partition: ServerPartition
  let paths: CairnPaths
  private(set) var recorded = 0
  private(set) var arrivals = 0
  private var busySince: Date?

  init(partition: ServerPartition, paths: CairnPaths) {
    self.partition = partition
    self.paths = paths
  }

  func report(_ activity: WatchActivity) {
    WatchPresence.write(activity, paths, partition)
  }

  func record(_ findings: WatchFindings) -> Bool {
    let deletions = findings.deletions
    do {
      let store = try PartitionStore.open(partition, paths: paths, brief: true)
      defer { store.close() }
      // Arrivals first: a deletion of a photo that arrived is of one the state knows.
      if !findings.arrivals.isEmpty || !findings.unhashed.isEmpty {
        // Named by volume as a scan names them, or the next scan would take them for others.
        let volumes = VolumeNames()
        try store.recordArrivals(
          findings.arrivals.map {
            ScannedFile(
              root: $0.root, path: $0.path, checksum: $0.checksum,
              identity: FileIdentity(
                device: $0.device, inode: $0.inode, volume: volumes.name(of: $0.device),
                path: $0.path))
          }, unhashed: findings.unhashed.map(Self.unhashed), at: Date())
        arrivals += findings.arrivals.count
      }
      let added = try store.recordWatcher(
        deletions.map { WatchedDeletionSignal(checksum: $0.checksum, at: $0.at, path: $0.path) },
        gaps: findings.gaps.map {
          WatchGapRecord(at: $0.at, reason: $0.reason.rawValue, root: $0.root)
        },
        caughtUp: findings.caughtUp.map {
          WatchCatchUpRecord(root: $0.root, at: $0.at, events: $0.events, complete: $0.complete)
        })
      recorded += added
      if !deletions.isEmpty {
        Diagnostics.verbose(
          "recorded \(added) new deletion signal(s) of \(deletions.count) seen"
            + (added < deletions.count ? " (the rest were never observed, or already)" : ""))
      }
      if let since = busySince {
        Diagnostics.info("the state is free again (busy since \(since.iso8601)); written")
        busySince = nil
      }
      return true
    } catch {
      if error.status == .busy {
        if busySince == nil {
          busySince = Date()
          Diagnostics.info("the state is in use by a cairn run; writing when it has finished")
        }
      } else {
        Diagnostics.error(error.message, at: error.location)
      }
      return false
    }
  }
}

extension StateRecorder {
  /// What the watcher saw of a file it could not hash, as the state keeps it.
  static func unhashed(_ file: UnhashedFile) -> UnhashedArrival {
    func date(_ nanoseconds: Int64?) -> Date? {
      nanoseconds.map { Date(timeIntervalSince1970: Double($0) / 1_000_000_000) }
    }
    return UnhashedArrival(
      root: file.root, path: file.path, name: (file.path as NSString).lastPathComponent,
      size: file.size, modifiedAt: date(file.modifiedNanoseconds),
      changedAt: date(file.changeNanoseconds), seenAt: file.seenAt, reason: file.reason)
  }
}

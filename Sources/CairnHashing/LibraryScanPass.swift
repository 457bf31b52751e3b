import CairnRecords
import CairnStream
import CairnSupport
import Foundation

extension LibraryScan {
  /// One scan's moving parts: the walk feeds the hashing pipeline, whose items come back in
  /// walk order to be written, and the tallies that become the end record's root statuses.
  final class Pass {
    private let roots: [ScanRoot]
    private let options: ScanOptions
    private let tool: String
    private let cache: HashCache
    private let writer: RecordWriter
    private let progress: ScanProgress
    private let pipeline: OrderedHashPipeline
    private let mounts: MountWatch?
    private let volumes = VolumeNames()
    private var encoder = FileRecordEncoder()
    private let escapedRoots: [[UInt8]]
    private(set) var summary = ScanSummary(roots: [])
    private var rootFiles: [Int]
    private var rootErrors: [Int]
    /// Each root's volumes away or replaced since its last scan.
    private var rootAbsences: [[VolumeAbsence]]
    private var lastIdle = ContinuousClock.now

    init(scan: LibraryScan, cache: HashCache, writer: RecordWriter) {
      roots = scan.roots
      options = scan.options
      tool = scan.tool
      self.cache = cache
      self.writer = writer
      progress = ScanProgress(enabled: scan.options.showProgress)
      pipeline = OrderedHashPipeline(
        workers: max(1, scan.options.workers), window: max(16, scan.options.window),
        countsBytes: scan.options.showProgress)
      let paths = scan.roots.map(\.path)
      mounts = scan.options.mountMemoryPath.map { MountWatch(memoryPath: $0, roots: paths) }
      escapedRoots = scan.roots.map { FileRecordEncoder.escaped($0.path) }
      rootFiles = Array(repeating: 0, count: scan.roots.count)
      rootErrors = Array(repeating: 0, count: scan.roots.count)
      rootAbsences = Array(repeating: [], count: scan.roots.count)
    }

    /// Walks every root in order and waits for the pipeline to write what the walk found.
    /// Returns each root's outcome.
    func walkRoots() -> [LibraryWalker.RootOutcome] {
      var walker = LibraryWalker(includeAll: options.includeAll)
      walker.ignoredPaths = options.ignoredPaths
      // A core to spare (not `--jobs 1`): folders are listed ahead while the last is written.
      walker.readsAhead = options.workers > 1
      walker.mountPointsUnder = mounts.map { mounts in { mounts.mountPoints(under: $0) } }
      walker.foldersToSkipUnder = mounts.map { mounts in { _ in mounts.replacedMountPoints() } }
      if roots.count > 1 { walker.otherRoots = Set(roots.map { Array($0.path.utf8) }) }
      var outcomes: [LibraryWalker.RootOutcome] = []
      for (index, root) in roots.enumerated() {
        if let failure = root.failure {
          submit(
            ScanItem(
              rootIndex: index, path: Array(root.path.utf8), status: nil, explicit: true,
              outcome: .failed(failure)))
          outcomes.append(.unreadable(failure))
          continue
        }
        let outcome = walker.walk(root: root.path) { found in self.visit(found, root: index) }
        outcomes.append(outcome)
        if case .walked(folder: true) = outcome, let mounts {
          rootAbsences[index] = mounts.absences(
            root: root.path, files: walker.filesInRoot, filesUnder: walker.filesUnderMount)
          // Even with -q (a nightly timer's setting): a volume out of scope night after night
          // must not go unnoticed, as deletions on it are not propagated meanwhile.
          for absence in rootAbsences[index] {
            Diagnostics.emit("warning: " + absence.scanWarning, at: absence.path, color: "33")
          }
        }
      }
      do {
        try mounts?.save()
      } catch {
        Diagnostics.warning("cannot remember this scan's volumes: \(error.message)")
      }
      progress.walkFinished = true
      pipeline.finish(emit: emit, idle: idle)
      progress.clear()
      summary.skippedLinks = walker.skippedLinks
      return outcomes
    }

    /// The summary with each root's status, from what its walk found.
    func finish(_ outcomes: [LibraryWalker.RootOutcome]) -> ScanSummary {
      var summary = self.summary
      for (index, root) in roots.enumerated() {
        summary.roots.append(rootStatus(index, root, outcomes[index]))
      }
      return summary
    }

    /// One thing the walk found: a file known to the cache is written at once when nothing is
    /// ahead of it; anything else goes through the pipeline.
    private func visit(_ found: WalkItem, root index: Int) {
      let item: ScanItem
      switch found {
      case .file(let path, let status, let explicit):
        if let digest = cache.lookup(status) {
          if pipeline.isDrained {
            // The warm path: nothing ahead of it, so write it now, without the path being
            // copied into the pipeline.
            summary.cached += 1
            written(index, path, status, digest)
            progress.tick(hashed: pipeline.bytesReadSoFar)
            return
          }
          item = ScanItem(
            rootIndex: index, path: path, status: status, explicit: explicit,
            outcome: .cached(digest))
        } else {
          progress.queuedBytes += status.size
          item = ScanItem(
            rootIndex: index, path: path, status: status, explicit: explicit,
            outcome: .needsHash)
        }
      case .failure(let path, let error):
        item = ScanItem(
          rootIndex: index, path: Array(path.utf8), status: nil, explicit: false,
          outcome: .failed(error))
      }
      submit(item)
      progress.tick(hashed: pipeline.bytesReadSoFar)
    }

    private func submit(_ item: ScanItem) {
      pipeline.submit(item, emit: emit, idle: idle)
    }

    /// An item back from the pipeline, in walk order.
    private func emit(_ item: ScanItem) {
      switch item.outcome {
      case .cached(let digest):
        guard let status = item.status else { return }
        summary.cached += 1
        written(item.rootIndex, item.path, status, digest)
      case .hashed(let digest, let status, let hashedAt):
        cache.store(status, digest, hashedAt: hashedAt)
        summary.hashed += 1
        written(item.rootIndex, item.path, status, digest)
      case .failed(let error):
        let path = String(
          decoding: item.path.last == 0 ? item.path.dropLast() : item.path[...], as: UTF8.self)
        progress.clear()
        Diagnostics.error(error.message, at: path)
        writer.write(
          ErrorRecord(
            tool: tool, message: error.message, path: path, root: roots[item.rootIndex].path,
            code: error.code))
        rootErrors[item.rootIndex] += 1
        summary.errors += 1
      case .needsHash:
        break
      }
      progress.files = summary.files
      progress.bytes = summary.bytes
    }

    /// While the walk waits for the workers: pass on what is written (downstream stages see
    /// records as they come), at most ten times a second so small files don't cost a write
    /// each.
    private func idle() {
      let now = ContinuousClock.now
      guard now - lastIdle >= .milliseconds(100) else { return }
      lastIdle = now
      writer.flush()
      progress.tick(hashed: pipeline.bytesReadSoFar)
    }

    /// Writes a file's record and counts it.
    private func written(
      _ rootIndex: Int, _ path: [UInt8], _ status: FileStatus, _ digest: ContentDigest
    ) {
      let line = path.withUnsafeBufferPointer { path in
        encoder.encode(
          path: path, escapedRoot: escapedRoots[rootIndex], status: status, checksum: digest,
          escapedVolume: volumes.escapedName(of: status.device))
      }
      writer.writeLine(line, type: FileRecord.recordType)
      rootFiles[rootIndex] += 1
      summary.files += 1
      summary.bytes += status.size
      progress.files = summary.files
      progress.bytes = summary.bytes
    }

    /// The root's own files and those of the roots nested in it, which their own walks listed:
    /// all are under it, and an outer root holding only an inner one is not empty.
    private func filesUnder(_ index: Int) -> Int {
      let prefix = roots[index].path == "/" ? "/" : roots[index].path + "/"
      var files = rootFiles[index]
      for (other, root) in roots.enumerated() where other != index && root.path.hasPrefix(prefix) {
        files += rootFiles[other]
      }
      return files
    }

    private func rootStatus(
      _ index: Int, _ root: ScanRoot, _ outcome: LibraryWalker.RootOutcome
    ) -> RootStatus {
      var status = RootStatus(
        path: root.path, complete: true, files: filesUnder(index),
        outOfScope: rootAbsences[index].map {
          RootStatus.OutOfScope(path: $0.path, problem: $0.kind.rawValue, files: $0.files)
        })
      switch outcome {
      case .missing:
        status.complete = false
        status.problem = "missing"
      case .unreadable:
        status.complete = false
        status.problem = "unreadable"
      case .walked(let folder):
        if folder { status.ignored = options.ignoredPaths.patterns }
        if rootErrors[index] > 0 {
          status.complete = false
          status.problem = "unreadable"
        } else if status.files == 0 {
          status.problem = "empty"
          // A listed file that isn't media is simply not part of the library; an empty folder
          // may be an unmounted volume, which the user should hear about.
          if folder { Diagnostics.warning("no media files found", at: root.path) }
        }
      }
      return status
    }
  }
}

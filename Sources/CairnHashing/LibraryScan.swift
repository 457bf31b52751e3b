import CairnCore
import Foundation

/// A library root to scan: an absolute path, or an input that could not even be named (a
/// listed path that is not valid UTF-8).
public struct ScanRoot: Sendable, Equatable {
  public var path: String
  /// Set when the root is known to be unusable before the walk.
  public var failure: SystemError?

  public init(path: String, failure: SystemError? = nil) {
    self.path = path
    self.failure = failure
  }
}

/// How a scan runs.
public struct ScanOptions: Sendable {
  /// Hash every regular file, not only media.
  public var includeAll = false
  /// The hash cache database; nil for none (`--no-cache`).
  public var cachePath: String?
  /// Worker threads reading and hashing files.
  public var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
  /// Files between the walk and the output at most (bounds memory).
  public var window = 4096
  /// Draw progress on stderr.
  public var showProgress = false
  /// Where the mount points of each root's last scan are remembered; nil for no mount guard.
  public var mountMemoryPath: String?
  /// Accept the mounts seen now as the new memory instead of reporting losses.
  public var forgetMounts = false

  public init() {}
}

/// What a scan found, for the `end` record and the exit status.
public struct ScanSummary: Sendable {
  public var roots: [RootStatus]
  public var files = 0
  public var bytes: Int64 = 0
  public var cached = 0
  public var hashed = 0
  public var errors = 0
  public var skippedLinks = 0

  /// Every root listed and every file read.
  public var complete: Bool { errors == 0 && roots.allSatisfy(\.complete) }

  public var counts: [String: Int] {
    [
      "files": files, "bytes": Int(bytes), "cached": cached, "hashed": hashed, "errors": errors,
      "skippedLinks": skippedLinks,
    ]
  }
}

/// Walks library roots, identifies every media file by its SHA-1 (from the cache when the file
/// is unchanged), and writes `file` and `error` records in walk order.
public final class LibraryScan {
  public let roots: [ScanRoot]
  public let options: ScanOptions
  static let tool = "cairn-hash"

  private var encoder = FileRecordEncoder()
  private let escapedRoots: [[UInt8]]

  public init(roots: [ScanRoot], options: ScanOptions) {
    self.roots = roots
    self.options = options
    escapedRoots = roots.map { FileRecordEncoder.escaped($0.path) }
  }

  /// Runs the scan, writing records (not the header or end) to `writer`.
  public func run(writer: RecordWriter, clock: inout PhaseClock) -> ScanSummary {
    let cache = options.cachePath.map { HashCache(path: $0) } ?? HashCache()
    clock.lap("cache", "\(cache.loadedCount) checksums loaded")
    var summary = ScanSummary(roots: [])
    var rootFiles = Array(repeating: 0, count: roots.count)
    var rootErrors = Array(repeating: 0, count: roots.count)
    var rootMountLost = Array(repeating: false, count: roots.count)
    let mounts = options.mountMemoryPath.map {
      MountWatch(memoryPath: $0, forget: options.forgetMounts)
    }
    let progress = ScanProgress(enabled: options.showProgress)
    let pipeline = OrderedHashPipeline(
      workers: max(1, options.workers), window: max(16, options.window),
      countsBytes: options.showProgress)

    let emit: (ScanItem) -> Void = { item in
      switch item.outcome {
      case .cached(let digest):
        guard let status = item.status else { return }
        summary.cached += 1
        self.writeFile(item.rootIndex, item.path, status, digest, writer)
        rootFiles[item.rootIndex] += 1
        summary.files += 1
        summary.bytes += status.size
      case .hashed(let digest, let status, let hashedAt):
        cache.store(status, digest, hashedAt: hashedAt)
        summary.hashed += 1
        self.writeFile(item.rootIndex, item.path, status, digest, writer)
        rootFiles[item.rootIndex] += 1
        summary.files += 1
        summary.bytes += status.size
      case .failed(let error):
        let path = String(
          decoding: item.path.last == 0 ? item.path.dropLast() : item.path[...], as: UTF8.self)
        progress.clear()
        Diagnostics.error(error.message, at: path)
        writer.write(
          ErrorRecord(
            tool: Self.tool, message: error.message, path: path,
            root: self.roots[item.rootIndex].path, code: error.code))
        rootErrors[item.rootIndex] += 1
        summary.errors += 1
      case .needsHash:
        break
      }
      progress.files = summary.files
      progress.bytes = summary.bytes
    }
    // While the walk waits for the workers: pass on what is written (downstream stages see
    // records as they come), at most ten times a second so small files don't cost a write each.
    var lastIdle = ContinuousClock.now
    let idle: () -> Void = {
      let now = ContinuousClock.now
      guard now - lastIdle >= .milliseconds(100) else { return }
      lastIdle = now
      writer.flush()
      progress.tick(hashed: pipeline.bytesReadSoFar)
    }

    var walker = LibraryWalker(includeAll: options.includeAll)
    walker.mountPointsUnder = mounts.map { mounts in { mounts.mountPoints(under: $0) } }
    var outcomes: [LibraryWalker.RootOutcome] = []
    for (index, root) in roots.enumerated() {
      if let failure = root.failure {
        pipeline.submit(
          ScanItem(
            rootIndex: index, path: Array(root.path.utf8), status: nil, explicit: true,
            outcome: .failed(failure)), emit: emit, idle: idle)
        outcomes.append(.unreadable(failure))
        continue
      }
      let outcome = walker.walk(root: root.path) { found in
        let item: ScanItem
        switch found {
        case .file(let path, let status, let explicit):
          if let digest = cache.lookup(status) {
            if pipeline.isDrained {
              // The warm path: nothing ahead of it, so write it now, without the path being
              // copied into the pipeline.
              summary.cached += 1
              self.writeFile(index, path, status, digest, writer)
              rootFiles[index] += 1
              summary.files += 1
              summary.bytes += status.size
              progress.files = summary.files
              progress.bytes = summary.bytes
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
        pipeline.submit(item, emit: emit, idle: idle)
        progress.tick(hashed: pipeline.bytesReadSoFar)
      }
      outcomes.append(outcome)
      guard let mounts, case .walked(folder: true) = outcome else { continue }
      for loss in mounts.losses(root: root.path, filesUnder: walker.filesUnderMount) {
        rootMountLost[index] = true
        pipeline.submit(
          ScanItem(
            rootIndex: index, path: Array(loss.path.utf8), status: nil, explicit: false,
            outcome: .failed(SystemError(code: loss.code, message: loss.message))),
          emit: emit, idle: idle)
      }
    }
    mounts?.save()
    progress.walkFinished = true
    pipeline.finish(emit: emit, idle: idle)
    progress.clear()
    summary.skippedLinks = walker.skippedLinks
    clock.lap(
      "scan",
      "\(summary.files) files, \(summary.hashed) hashed, \(summary.cached) from cache, "
        + "\(summary.errors) errors")
    cache.finishWriting()
    clock.lap("cache update")

    for (index, root) in roots.enumerated() {
      var status = RootStatus(path: root.path, complete: true, files: rootFiles[index])
      switch outcomes[index] {
      case .missing:
        status.complete = false
        status.problem = "missing"
      case .unreadable:
        status.complete = false
        status.problem = "unreadable"
      case .walked(let folder):
        if rootMountLost[index] {
          status.complete = false
          status.problem = "mount lost"
        } else if rootErrors[index] > 0 {
          status.complete = false
          status.problem = "unreadable"
        } else if rootFiles[index] == 0 {
          status.problem = "empty"
          // A listed file that isn't media is simply not part of the library; an empty folder
          // may be an unmounted volume, which the user should hear about.
          if folder { Diagnostics.warning("no media files found", at: root.path) }
        }
      }
      summary.roots.append(status)
    }
    return summary
  }

  private func writeFile(
    _ rootIndex: Int, _ path: [UInt8], _ status: FileStatus, _ digest: ContentDigest,
    _ writer: RecordWriter
  ) {
    let line = path.withUnsafeBufferPointer { path in
      encoder.encode(
        path: path, escapedRoot: escapedRoots[rootIndex], status: status, checksum: digest)
    }
    writer.writeLine(line, type: FileRecord.recordType)
  }
}

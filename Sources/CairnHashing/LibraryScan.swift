import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import Foundation

/// A library root to scan: an absolute path, or an input that could not even be named (a
/// listed path that is not valid UTF-8).
package struct ScanRoot: Sendable, Equatable {
  package var path: String
  /// Set when the root is known to be unusable before the walk.
  package var failure: SystemError?

  package init(path: String, failure: SystemError? = nil) {
    self.path = path
    self.failure = failure
  }
}

/// How a scan runs.
package struct ScanOptions: Sendable {
  /// Hash every regular file, not only media.
  package var includeAll = false
  /// The hash cache database; nil for none (`--no-cache`).
  package var cachePath: String?
  /// Worker threads reading and hashing files.
  package var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
  /// Files between the walk and the output at most (bounds memory).
  package var window = 4096
  /// Draw progress on stderr.
  package var showProgress = false
  /// Where the volumes of each root's last scan are remembered; nil for no mount guard.
  package var mountMemoryPath: String?
  /// Parts of each folder root not to walk (`CAIRN_IGNORE_PATHS`), named in each root's status.
  package var ignoredPaths = IgnoredPaths.none

  package init() {}
}

/// What a scan found, for the `end` record and the exit status.
package struct ScanSummary: Sendable {
  package var roots: [RootStatus]
  package var files = 0
  package var bytes: Int64 = 0
  package var cached = 0
  package var hashed = 0
  package var errors = 0
  package var skippedLinks = 0

  /// Every root listed and every file read.
  package var complete: Bool { errors == 0 && roots.allSatisfy(\.complete) }

  package var counts: [String: Int] {
    [
      "files": files, "bytes": Int(bytes), "cached": cached, "hashed": hashed, "errors": errors,
      "skippedLinks": skippedLinks,
    ]
  }
}

/// Walks library roots, identifies every media file by its SHA-1 (from the cache when the file
/// is unchanged), and writes `file` and `error` records in walk order.
package final class LibraryScan {
  package let roots: [ScanRoot]
  package let options: ScanOptions
  /// The tool its error records name.
  let tool: String

  package init(roots: [ScanRoot], options: ScanOptions, tool: String) {
    self.roots = roots
    self.options = options
    self.tool = tool
  }

  /// Runs the scan, writing records (not the header or end) to `writer`.
  package func run(writer: RecordWriter, clock: inout PhaseClock) -> ScanSummary {
    let cache = options.cachePath.map { HashCache(path: $0) } ?? HashCache()
    clock.lap("cache", "\(cache.loadedCount) checksums loaded")
    let pass = Pass(scan: self, cache: cache, writer: writer)
    let outcomes = pass.walkRoots()
    let summary = pass.summary
    clock.lap(
      "scan",
      "\(summary.files) files, \(summary.hashed) hashed, \(summary.cached) from cache, "
        + "\(summary.errors) errors")
    cache.finishWriting()
    clock.lap("cache update")
    return pass.finish(outcomes)
  }
}

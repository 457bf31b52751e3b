import CairnHashing
import CairnRecords
import CairnSettings
import CairnSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Checksums of trashed files, through the global hash cache so a trash is read only once.
package final class TrashHasher {
  private let cache: HashCache
  private let hasher = ContentHasher()

  package init(paths: CairnPaths) {
    cache = HashCache(path: paths.hashCache)
  }

  /// The base64 SHA-1 of the file at `path`, or nil when it can't be read (a trash entry we
  /// can't read is no evidence; it is skipped with a warning).
  package func checksum(_ path: String) -> String? {
    var info = stat()
    if lstat(path, &info) == 0, let digest = cache.lookup(FileStatus(info)) {
      return digest.base64
    }
    switch path.withCString({ hasher.hash(path: $0, followSymlinks: false) }) {
    case .success(let outcome):
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      cache.store(
        outcome.status, outcome.digest,
        hashedAt: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
      return outcome.digest.base64
    case .failure(let error):
      Diagnostics.warning("cannot read trashed file: \(error)", at: path)
      return nil
    }
  }

  package func finish() { cache.flush() }
}

import CairnStream
import CairnSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Where cairn keeps things, by the XDG base-directory rules, so two environments with
/// different `XDG_*` variables never share state.
package struct CairnPaths: Sendable {
  /// `$XDG_STATE_HOME/cairn`: per-partition state (observed store, journal, session token).
  package let stateHome: String
  /// `$XDG_CACHE_HOME/cairn`: content-derived caches (the hash cache, server-asset cache).
  package let cacheHome: String
  /// `$XDG_CONFIG_HOME/cairn`: the configuration file.
  package let configHome: String
  /// `$XDG_DATA_HOME`: where the freedesktop.org home trash lives (`$XDG_DATA_HOME/Trash`).
  package let dataHome: String
  package let home: String

  package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    func base(_ variable: String, _ fallback: String) -> String {
      // The spec says relative values are invalid and must be ignored.
      if let value = environment[variable], value.hasPrefix("/") { return value }
      return home + "/" + fallback
    }
    self.home = home
    stateHome = base("XDG_STATE_HOME", ".local/state") + "/cairn"
    cacheHome = base("XDG_CACHE_HOME", ".cache") + "/cairn"
    configHome = base("XDG_CONFIG_HOME", ".config") + "/cairn"
    dataHome = base("XDG_DATA_HOME", ".local/share")
  }

  /// The configuration file: `KEY=value` lines, as a `.env` file.
  package var configFile: String { configHome + "/config" }

  /// The global hash cache database.
  package var hashCache: String { cacheHome + "/hashes.sqlite" }

  /// What a lost mount's scan remembers of it, across partitions (`cairn-hash`).
  package var scanMounts: String { stateHome + "/scan-mounts.json" }

  /// The folder that holds one state folder per partition.
  package var partitionsDirectory: String { stateHome + "/servers" }

  /// The state folder of one (server, user) partition.
  package func partitionDirectory(_ partition: ServerPartition) -> String {
    partitionsDirectory + "/" + partition.directoryName
  }

  /// The names of the partitions' state folders there are, sorted, each with its path: for a
  /// reader of every partition without a server (`cairn-restore list`).
  package func partitionDirectories() -> [(name: String, path: String)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: partitionsDirectory)) ?? []
    return names.sorted().map { ($0, partitionsDirectory + "/" + $0) }
  }

  /// The cache folder of one partition (server-asset cache).
  package func partitionCacheDirectory(_ partition: ServerPartition) -> String {
    cacheHome + "/servers/" + partition.directoryName
  }

  /// The name of the last server listing's snapshot, in a partition's cache folder.
  package static let listingSnapshotName = "listing-snapshot"

  /// The last server listing's snapshot in the partition cache folder `folder`.
  package static func listingSnapshot(inPartitionCacheFolder folder: String) -> String {
    folder + "/" + listingSnapshotName
  }

  /// The server-asset cache of one partition.
  package func serverAssetCache(_ partition: ServerPartition) -> String {
    partitionCacheDirectory(partition) + "/server-assets.sqlite"
  }

  /// The session token of one partition.
  package func session(_ partition: ServerPartition) -> String {
    partitionDirectory(partition) + "/session.json"
  }

  /// The watcher's process id file of one partition, locked while it runs.
  package func watchPID(_ partition: ServerPartition) -> String {
    partitionDirectory(partition) + "/watch.pid"
  }

  /// What the watcher of one partition last reported.
  package func watchStatus(_ partition: ServerPartition) -> String {
    partitionDirectory(partition) + "/watch-status.json"
  }

  /// The mark that a partition's server was found newer than the tested versions once.
  package func newerVersionWarned(_ partition: ServerPartition) -> String {
    partitionDirectory(partition) + "/newer-version-warned"
  }

  /// The state database in a partition's state folder.
  package func stateDatabase(_ partition: ServerPartition) -> String {
    Self.stateDatabase(inPartitionFolder: partitionDirectory(partition))
  }

  /// The state database in the partition state folder `folder`.
  package static func stateDatabase(inPartitionFolder folder: String) -> String {
    folder + "/state.sqlite"
  }

  /// The names of the last recorded scan's snapshot and of the patch on it, beside the state
  /// database (`ScanSnapshotStore`).
  package static let scanSnapshotName = "scan-snapshot"
  package static let scanSnapshotPatchName = "scan-snapshot-patch"

  /// The name of the listing's presence lookups carried over from the last run, in a
  /// partition's cache folder beside the listing's snapshot (`PresenceCache`).
  package static let listingPresenceName = "listing-presence"

  /// The listing's presence lookups in the partition cache folder `folder`.
  package static func listingPresence(inPartitionCacheFolder folder: String) -> String {
    folder + "/" + listingPresenceName
  }

  /// Where the listing's presence lookups were kept before they moved to the cache folder:
  /// beside the state database, in the partition state folder `folder`. Removed when seen.
  package static func formerListingPresence(inPartitionFolder folder: String) -> String {
    folder + "/" + listingPresenceName
  }

  /// The journal of runs in the partition state folder `folder`.
  package static func journal(inPartitionFolder folder: String) -> String {
    folder + "/journal.ndjson"
  }

  /// The partition lock in the partition state folder `folder`.
  package static func lock(inPartitionFolder folder: String) -> String { folder + "/lock" }

  /// The file a brief holder of the partition lock (one that lets go soon) announces itself
  /// with, in the partition state folder `folder`.
  package static func lockBrief(inPartitionFolder folder: String) -> String {
    folder + "/lock-brief"
  }

  /// Creates `path` and its parents with mode 0700 (private: it holds state about a library).
  package static func makePrivateDirectory(_ path: String) throws(CairnError) {
    var built = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      built += "/" + component
      if mkdir(built, 0o700) != 0 && errno != EEXIST {
        throw CairnError(
          .stateFailure, "cannot create folder: \(String(cString: strerror(errno)))", at: built)
      }
    }
  }

  /// Writes `bytes` to `path` atomically (temp file, fsync, rename) with mode 0600. With
  /// `durable` false there is no fsync: for a file whose reader verifies it and can do without.
  package static func writePrivateFile(_ path: String, _ bytes: [UInt8], durable: Bool = true)
    throws(CairnError)
  {
    let temporary = path + ".tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw CairnError(.stateFailure, String(cString: strerror(errno)), at: path)
    }
    let failure = bytes.withUnsafeBytes { POSIXIO.writeAll(fd, $0) }
    if failure != 0 {
      close(fd)
      unlink(temporary)
      throw CairnError(.stateFailure, String(cString: strerror(failure)), at: path)
    }
    if durable { fsync(fd) }
    close(fd)
    guard rename(temporary, path) == 0 else {
      let message = String(cString: strerror(errno))
      unlink(temporary)
      throw CairnError(.stateFailure, message, at: path)
    }
  }
}

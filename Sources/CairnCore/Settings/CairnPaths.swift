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

  /// The state folder of one (server, user) partition.
  package func partitionDirectory(_ partition: ServerPartition) -> String {
    stateHome + "/servers/" + partition.directoryName
  }

  /// The cache folder of one partition (server-asset cache).
  package func partitionCacheDirectory(_ partition: ServerPartition) -> String {
    cacheHome + "/servers/" + partition.directoryName
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

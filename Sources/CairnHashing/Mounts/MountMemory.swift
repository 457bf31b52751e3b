import CairnCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// What the last scan of each root saw of its file systems: the root's device and the mount
/// points the walk entered under it, with how many files each held.
///
/// Kept in the state folder (`$XDG_STATE_HOME/cairn/scan-mounts.json`), not beside the hash
/// cache: a cache may be deleted at any time and is skipped by `--no-cache`, and losing this
/// memory would let an unmounted volume read as deletions again.
package struct MountMemory: Sendable, Equatable, Codable {
  package struct Root: Sendable, Equatable, Codable {
    /// `st_dev` of the root folder.
    package var device: UInt64
    /// Mount points under the root, relative to it, and the files the walk found under each.
    package var mounts: [String: Int]

    package init(device: UInt64, mounts: [String: Int]) {
      self.device = device
      self.mounts = mounts
    }
  }

  static let formatVersion = 1
  var version = MountMemory.formatVersion
  /// By root path, as the scan was given it.
  package var roots: [String: Root] = [:]

  package init(roots: [String: Root] = [:]) {
    self.roots = roots
  }

  /// The memory at `path`; empty when there is none. A damaged file is reported and treated as
  /// empty: the scan still runs, without the guard it would have given.
  package static func load(from path: String) -> MountMemory {
    guard let data = FileManager.default.contents(atPath: path) else { return MountMemory() }
    guard let memory = try? JSONDecoder().decode(MountMemory.self, from: data),
      memory.version == formatVersion
    else {
      Diagnostics.warning("mount memory unreadable; starting it again", at: path)
      return MountMemory()
    }
    return memory
  }

  /// Replaces the entries of `updated` roots in the file at `path`, under a lock, so two scans
  /// of different roots at once both keep what they learnt.
  package static func save(_ updated: [String: Root], to path: String) throws(CairnError) {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    if !folder.isEmpty { try CairnPaths.makePrivateDirectory(folder) }
    let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard lock >= 0 else {
      throw CairnError(.stateFailure, String(cString: strerror(errno)), at: path + ".lock")
    }
    defer { close(lock) }
    _ = flock(lock, LOCK_EX)
    var memory = load(from: path)
    for (root, entry) in updated { memory.roots[root] = entry }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(memory) else {
      throw CairnError(.stateFailure, "cannot encode the mount memory", at: path)
    }
    try CairnPaths.writePrivateFile(path, Array(data))
  }
}

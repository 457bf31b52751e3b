import CairnSettings
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

/// What the last scan of each root saw of its volumes: the volume the root is on and the mount
/// points the walk entered under it, each with what identifies its volume and how many files
/// it held.
///
/// Kept in the state folder (`$XDG_STATE_HOME/cairn/scan-mounts.json`), not beside the hash
/// cache: a cache may be deleted at any time and is skipped by `--no-cache`, and losing this
/// memory would let an unmounted volume read as deletions again.
package struct MountMemory: Sendable, Equatable, Codable {
  /// One volume as a scan last saw it.
  package struct Volume: Sendable, Equatable, Codable {
    /// Media files the walk found on it.
    package var files: Int
    /// What identifies it; nil when remembered by a cairn that kept only mount points (then
    /// the next scan that finds it mounted learns it).
    package var identity: VolumeIdentity?

    package init(files: Int, identity: VolumeIdentity? = nil) {
      self.files = files
      self.identity = identity
    }
  }

  package struct Root: Sendable, Equatable, Codable {
    /// `st_dev` of the root folder.
    package var device: UInt64
    /// The volume the root folder is on, and the media files found under the root.
    package var volume: Volume?
    /// Mount points under the root, relative to it.
    package var mounts: [String: Volume]

    package init(device: UInt64, volume: Volume? = nil, mounts: [String: Volume]) {
      self.device = device
      self.volume = volume
      self.mounts = mounts
    }
  }

  static let formatVersion = 2
  var version = MountMemory.formatVersion
  /// By root path, as the scan was given it.
  package var roots: [String: Root] = [:]

  package init(roots: [String: Root] = [:]) {
    self.roots = roots
  }

  /// The first format: a device and a file count per mount point, read so that an upgrade
  /// keeps the guard it had.
  private struct FirstFormat: Decodable {
    struct Root: Decodable {
      var device: UInt64
      var mounts: [String: Int]
    }
    var version: Int
    var roots: [String: Root]
  }

  /// The memory at `path`; empty when there is none. A damaged file is reported and treated as
  /// empty: the scan still runs, without the guard it would have given.
  package static func load(from path: String) -> MountMemory {
    guard let data = FileManager.default.contents(atPath: path) else { return MountMemory() }
    let decoder = JSONDecoder()
    if let memory = try? decoder.decode(MountMemory.self, from: data),
      memory.version == formatVersion
    {
      return memory
    }
    if let first = try? decoder.decode(FirstFormat.self, from: data), first.version == 1 {
      return MountMemory(
        roots: first.roots.mapValues { root in
          Root(device: root.device, mounts: root.mounts.mapValues { Volume(files: $0) })
        })
    }
    Diagnostics.warning("mount memory unreadable; starting it again", at: path)
    return MountMemory()
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

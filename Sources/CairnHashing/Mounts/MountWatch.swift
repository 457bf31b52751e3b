import CairnStream
import CairnSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The mount guard over one scan: which folders of a root's walk are mount points, which
/// volumes each root lost since its last scan, and what to remember for the next.
final class MountWatch {
  private let memoryPath: String
  private let remembered: MountMemory
  private let table: [String: MountEntry]?
  /// Every root of the scan, to find the ones nested in the root being walked (by name, as
  /// the walk leaves them to their own walks).
  private let roots: [String]
  private var identities: [String: VolumeIdentity] = [:]
  private var updated: [String: MountMemory.Root] = [:]
  /// The root being walked: its mount points, by the walk's path bytes, and their volumes.
  private var relativeByWalkPath: [[UInt8]: String] = [:]
  private var mounted: [String: VolumeIdentity] = [:]
  private var nested: [String] = []
  private var currentRoot = ""
  /// What each root's walk saw, for judging it again with an absence accepted.
  private var sightings: [String: VolumeSighting] = [:]

  init(memoryPath: String, roots: [String]) {
    self.memoryPath = memoryPath
    remembered = MountMemory.load(from: memoryPath)
    table = MountTable.entries()
    self.roots = roots
    if table == nil && !remembered.roots.isEmpty {
      Diagnostics.warning("cannot read the mount table; lost volumes cannot be detected")
    }
  }

  /// The walk paths of the mount points under `root`, whose files the walker counts. Mount
  /// points inside another root of the scan are that root's.
  func mountPoints(under root: String) -> Set<[UInt8]> {
    relativeByWalkPath = [:]
    mounted = [:]
    nested = []
    currentRoot = root
    guard let table, let canonical = MountTable.canonical(root) else { return [] }
    nested = Array(MountGuard.mountPoints(under: root, in: roots))
    for point in MountGuard.mountPoints(under: canonical, in: table.keys) {
      guard !nested.contains(where: { point == $0 || point.hasPrefix($0 + "/") }) else {
        continue
      }
      let absolute = canonical == "/" ? "/" + point : canonical + "/" + point
      mounted[point] = table[absolute].map(identity)
      relativeByWalkPath[Array(MountGuard.join(root, point).utf8)] = point
    }
    return Set(relativeByWalkPath.keys)
  }

  /// The walk paths of the mount points under the root of the last `mountPoints(under:)`
  /// where another volume is mounted than the one remembered: their files are not listed, so
  /// they are never observed, and can't read as deleted when the first volume comes back.
  func replacedMountPoints() -> Set<[UInt8]> {
    guard let last = remembered.roots[currentRoot] else { return [] }
    var skipped = Set<[UInt8]>()
    for (walkPath, point) in relativeByWalkPath {
      guard let was = last.mounts[point]?.identity, let now = mounted[point],
        !was.isSameVolume(as: now)
      else { continue }
      skipped.insert(walkPath)
    }
    return skipped
  }

  /// After a folder root's walk: the volumes it lost. `files` is the walker's count of files
  /// under the root, `filesUnder` under each mount point it entered.
  func absences(root: String, files: Int, filesUnder: [[UInt8]: Int]) -> [VolumeAbsence] {
    guard let table else { return [] }
    var s = stat()
    guard stat(root, &s) == 0 else { return [] }  // the walk has reported it
    var counts: [String: Int] = [:]
    for (walkPath, count) in filesUnder {
      if let point = relativeByWalkPath[walkPath] { counts[point] = count }
    }
    let volume = MountTable.canonical(root).flatMap { MountTable.containing($0, in: table) }
    let sighting = VolumeSighting(
      device: UInt64(s.st_dev), volume: volume.map(identity), files: files, mounted: mounted,
      filesUnder: counts, nested: nested)
    sightings[root] = sighting
    let (absences, next) = judge(root, sighting, accepting: [])
    updated[root] = next
    return absences
  }

  /// Remembers what is there now in place of the volumes of `accepted` (absences this watch
  /// found): the person's explicit act.
  func accept(_ accepted: [VolumeAbsence]) {
    for (root, absences) in Dictionary(grouping: accepted, by: \.root) {
      guard let sighting = sightings[root] else { continue }
      updated[root] = judge(root, sighting, accepting: Set(absences.map(\.relative))).next
    }
  }

  private func judge(_ root: String, _ sighting: VolumeSighting, accepting: Set<String>) -> (
    absences: [VolumeAbsence], next: MountMemory.Root
  ) {
    MountGuard.judge(
      root: root, remembered: remembered.roots[root], now: sighting, accepting: accepting
    ) { point in
      var s = stat()
      return lstat(MountGuard.join(root, point), &s) == 0
    }
  }

  /// The identity of the volume mounted by `entry`, read once per mount point.
  private func identity(_ entry: MountEntry) -> VolumeIdentity {
    if let known = identities[entry.point] { return known }
    let identity = VolumeProbe.identity(of: entry)
    identities[entry.point] = identity
    return identity
  }

  /// Writes what this scan learnt, for `roots` (nil: every root walked); a failure costs the
  /// next scan its guard, so it is said.
  func save(roots: Set<String>? = nil) throws(CairnError) {
    // Nothing new (the usual scan): no write, no wait for the disk.
    let changed = updated.filter {
      remembered.roots[$0.key] != $0.value && roots?.contains($0.key) != false
    }
    guard !changed.isEmpty else { return }
    try MountMemory.save(changed, to: memoryPath)
  }
}

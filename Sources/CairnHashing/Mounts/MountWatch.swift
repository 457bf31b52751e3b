import CairnCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The mount guard over one scan: which folders of a root's walk are mount points, what each
/// root lost since its last scan, and what to remember for the next.
final class MountWatch {
  private let memoryPath: String
  /// `--forget-mounts`: accept what is mounted now as the new memory, reporting no loss.
  private let forget: Bool
  private let remembered: MountMemory
  private let table: Set<String>?
  private var updated: [String: MountMemory.Root] = [:]
  /// The root being walked: its mount points, by the walk's path bytes.
  private var relativeByWalkPath: [[UInt8]: String] = [:]
  private var mounted = Set<String>()

  init(memoryPath: String, forget: Bool) {
    self.memoryPath = memoryPath
    self.forget = forget
    remembered = MountMemory.load(from: memoryPath)
    table = MountTable.current()
    if table == nil && !remembered.roots.isEmpty {
      Diagnostics.warning("cannot read the mount table; lost mounts cannot be detected")
    }
  }

  /// The walk paths of the mount points under `root`, whose files the walker counts.
  func mountPoints(under root: String) -> Set<[UInt8]> {
    relativeByWalkPath = [:]
    mounted = []
    guard let table, let canonical = MountTable.canonical(root) else { return [] }
    mounted = MountGuard.mountPoints(under: canonical, in: table)
    for point in mounted {
      relativeByWalkPath[Array(MountGuard.join(root, point).utf8)] = point
    }
    return Set(relativeByWalkPath.keys)
  }

  /// After a folder root's walk: what it lost. `filesUnder` is the walker's count of files
  /// under each mount point it entered.
  func losses(root: String, filesUnder: [[UInt8]: Int]) -> [MountLoss] {
    guard table != nil else { return [] }
    var s = stat()
    guard stat(root, &s) == 0 else { return [] }  // the walk has reported it
    var files: [String: Int] = [:]
    for (walkPath, count) in filesUnder {
      if let point = relativeByWalkPath[walkPath] { files[point] = count }
    }
    let (losses, next) = MountGuard.judge(
      root: root, remembered: forget ? nil : remembered.roots[root], device: UInt64(s.st_dev),
      mounted: mounted, files: files
    ) { point in
      var s = stat()
      return lstat(MountGuard.join(root, point), &s) == 0
    }
    updated[root] = next
    return losses
  }

  /// Writes what this scan learnt; a failure costs the next scan its guard, so it is said.
  func save() {
    // Nothing new (the usual scan): no write, no wait for the disk.
    let changed = updated.filter { remembered.roots[$0.key] != $0.value }
    guard !changed.isEmpty else { return }
    do {
      try MountMemory.save(changed, to: memoryPath)
    } catch {
      Diagnostics.warning("cannot remember this scan's mount points: \(error.message)")
    }
  }
}

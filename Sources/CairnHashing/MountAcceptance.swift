import CairnCore

/// The explicit act of accepting that a volume is gone for good, or that the volume at its
/// place now is the one to keep: the roots are walked as a scan walks them (listing, not
/// reading files), so the absences found are exactly those a scan reports, and only the
/// chosen ones are written into the memory.
package final class MountAcceptance {
  private let roots: [String]
  private let watch: MountWatch

  package init(memoryPath: String, roots: [String]) {
    self.roots = roots
    watch = MountWatch(memoryPath: memoryPath, roots: roots)
  }

  /// The roots whose last scan is remembered and that hold `path` (are it, or lie above it).
  package static func roots(holding path: String, memoryPath: String) -> [String] {
    MountMemory.load(from: memoryPath).roots.keys.filter { root in
      path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }.sorted()
  }

  /// Every absence under the roots, as a scan would find it now.
  package func absences() -> [VolumeAbsence] {
    var walker = LibraryWalker()
    walker.mountPointsUnder = { [watch] in watch.mountPoints(under: $0) }
    walker.foldersToSkipUnder = { [watch] _ in watch.replacedMountPoints() }
    if roots.count > 1 { walker.otherRoots = Set(roots.map { Array($0.utf8) }) }
    var found: [VolumeAbsence] = []
    for root in roots {
      guard case .walked(folder: true) = walker.walk(root: root, { _ in }) else { continue }
      found += watch.absences(
        root: root, files: walker.filesInRoot, filesUnder: walker.filesUnderMount)
    }
    return found
  }

  /// Writes what is there now in place of each of `chosen` (found by `absences`); their roots'
  /// other absences stay remembered as they were, as a scan keeps them.
  package func accept(_ chosen: [VolumeAbsence]) throws(CairnError) {
    watch.accept(chosen)
    try watch.save(roots: Set(chosen.map(\.root)))
  }
}

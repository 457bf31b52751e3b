import CairnStream

/// The explicit act of accepting that a volume is gone for good, or that the volume at its
/// place now is the one to keep: the roots are walked as a scan walks them (listing, not
/// reading files), so the absences found are exactly those a scan reports, and only the
/// chosen ones are written into the memory.
///
/// Each root is walked on its own, as a scan of that root alone: each root's memory is what
/// its own scans saw, so a mount point under two remembered roots (the card's folder scanned
/// as a root of its own once, and the library above it) is accepted in both, and the next scan
/// of either does what the acceptance announced.
package final class MountAcceptance {
  private let roots: [String]
  private let watches: [String: MountWatch]

  package init(memoryPath: String, roots: [String]) {
    self.roots = roots
    var watches: [String: MountWatch] = [:]
    for root in roots { watches[root] = MountWatch(memoryPath: memoryPath, roots: [root]) }
    self.watches = watches
  }

  /// The roots whose last scan is remembered and that hold `path` (are it, or lie above it).
  package static func roots(holding path: String, memoryPath: String) -> [String] {
    MountMemory.load(from: memoryPath).roots.keys.filter { root in
      path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }.sorted()
  }

  /// Every absence under the roots, as a scan would find it now.
  package func absences() -> [VolumeAbsence] {
    var found: [VolumeAbsence] = []
    for root in roots {
      guard let watch = watches[root] else { continue }
      var walker = LibraryWalker()
      walker.mountPointsUnder = { watch.mountPoints(under: $0) }
      walker.foldersToSkipUnder = { _ in watch.replacedMountPoints() }
      guard case .walked(folder: true) = walker.walk(root: root, { _ in }) else { continue }
      found += watch.absences(
        root: root, files: walker.filesInRoot, filesUnder: walker.filesUnderMount)
    }
    return found
  }

  /// Writes what is there now in place of each of `chosen` (found by `absences`); their roots'
  /// other absences stay remembered as they were, as a scan keeps them.
  package func accept(_ chosen: [VolumeAbsence]) throws(CairnError) {
    for (root, absences) in Dictionary(grouping: chosen, by: \.root) {
      guard let watch = watches[root] else { continue }
      watch.accept(absences)
      try watch.save(roots: [root])
    }
  }
}

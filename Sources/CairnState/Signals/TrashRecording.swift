import CairnEngine
import CairnHashing
import CairnRecords
import CairnSettings
import CairnStream
import Foundation

/// The positive deletion signals a run collects: what the trashes hold, and what Android's
/// MediaStore has in its trash beside the photos.
extension PartitionStore {
  /// Hashes what the trashes of `roots` hold (`TrashSignals`) and records the observed
  /// checksums among them as deletion signals. Returns how many were new.
  package func recordTrashSignals(roots: [String], configuration: Configuration)
    throws(CairnError) -> Int
  {
    let trashed = try TrashSignals(
      roots: roots, paths: configuration.paths, configuration: configuration
    )
    .trashedFiles()
    guard !trashed.isEmpty else { return 0 }
    let hasher = TrashHasher(paths: configuration.paths)
    defer { hasher.finish() }
    var confirmations: [DeletionConfirmation] = []
    for file in trashed {
      guard let checksum = hasher.checksum(file.location), try observed.contains(checksum)
      else { continue }
      confirmations.append(
        DeletionConfirmation(
          checksum: checksum, confirmedAt: file.deletedAt, source: file.source,
          originalPath: file.originalPath))
    }
    return try signals.union(confirmations)
  }

  /// Looks beside `lastPaths` (where photos gone from the scan were last seen) for the names
  /// MediaStore gives a photo in the phone's trash (`.trashed-<expires>-<name>`), and records
  /// the observed checksums of those files as deletion signals from `android`, dated when they
  /// were trashed (`MediaStoreName`). A photo renamed in place into the trash is gone from the
  /// scan, and its folder is where it was: only those folders are listed. Returns how many
  /// signals were new.
  package func recordAndroidTrash(lastPaths: [String], paths: CairnPaths)
    throws(CairnError) -> Int
  {
    // The names each folder's gone photos had.
    var namesByFolder: [String: Set<String>] = [:]
    for path in lastPaths {
      let url = URL(fileURLWithPath: path)
      namesByFolder[url.deletingLastPathComponent().path, default: []]
        .insert(url.lastPathComponent)
    }
    var hasher: TrashHasher?
    defer { hasher?.finish() }
    var confirmations: [DeletionConfirmation] = []
    for (folder, names) in namesByFolder.sorted(by: { $0.key < $1.key }) {
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
        continue
      }
      for entry in entries.sorted() {
        guard let name = MediaStoreName(entry), name.state == .trashed,
          names.contains(name.originalName)
        else { continue }
        let reader = hasher ?? TrashHasher(paths: paths)
        hasher = reader
        guard let checksum = reader.checksum(folder + "/" + entry),
          try observed.contains(checksum)
        else { continue }
        confirmations.append(
          DeletionConfirmation(
            checksum: checksum, confirmedAt: name.trashedAt,
            source: DeletionConfirmation.androidSource,
            originalPath: folder + "/" + name.originalName))
      }
    }
    return try signals.union(confirmations)
  }
}

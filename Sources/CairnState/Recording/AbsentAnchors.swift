import CairnRecords
import CairnSealedFiles

/// An anchor whose file identity is absent from the scan being recorded.
struct AbsentAnchor: Equatable {
  /// Nil for a deleted edited file's versions (`deletedVersion`), which no identity holds.
  var identity: String?
  var first: String
  var current: String
}

/// The anchors of identities absent from a scan that a file with a new identity carries on
/// (see `PartitionStore.recordScan`): an anchor belongs to a file, and a file keeps neither its
/// inode nor its path through every change.
///
/// - By current bytes: the same bytes under a new identity are the same file moved across file
///   systems, or copied and the old copy deleted.
/// - By path: a new identity at the path an absent anchor was last seen at, whose last bytes are
///   nowhere in the scan, is the same file rewritten, as Syncthing, the Nextcloud client, rsync
///   and most editors save: a temporary file renamed over the old one. When the old bytes are
///   somewhere in the scan the old file moved there, and the new one at its path is a new photo.
///   A path reused for an unrelated photo before the next scan reads as an edit: the old
///   photo's original stays protected on the server while the new file exists, the safe side.
/// - By a deleted edited file's last bytes (`deletedVersion`): the file put back from a trash,
///   or synced back, is that file again, and its original is protected again.
struct AbsentAnchors {
  var byCurrent: [String: AbsentAnchor] = [:]
  var atPath: [ByteKey: AbsentAnchor] = [:]
  /// Originals of deleted edited files, by last checksum.
  var restored: [String: String] = [:]

  /// Whose original `file`, new to the anchors, inherits; bytes first, then the path, then a
  /// deleted file's versions. A path is inherited only on the file's own volume: a rename
  /// never crosses volumes, and a new card at the old card's place that names its photos as
  /// the old one did holds other photos, not the old ones edited.
  func predecessor(of file: ScannedFile) -> AbsentAnchor? {
    byCurrent[file.checksum] ?? replaced(at: file)
      ?? restored[file.checksum].map {
        AbsentAnchor(identity: nil, first: $0, current: file.checksum)
      }
  }

  /// The absent anchor at `file`'s path that a replace by rename on its volume left behind.
  private func replaced(at file: ScannedFile) -> AbsentAnchor? {
    guard let anchor = atPath[ByteKey(file.path)] else { return nil }
    guard let identity = anchor.identity,
      !FileIdentity(key: identity).mayShareVolume(with: file.identity)
    else { return anchor }
    return nil
  }
}

/// What the anchor rules changed.
struct AnchorChanges {
  /// Checksums of intermediate edit versions retired into quarantine.
  var retired: [String] = []
  /// Identities of absent anchors a new identity carried on: their files were not deleted.
  var inherited = Set<String>()
}

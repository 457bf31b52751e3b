import CairnRecords
import Foundation

/// What the observed store remembers about one checksum.
package struct ObservedEntry: Sendable, Equatable {
  /// Base64 SHA-1, as Immich's `checksum`.
  package var checksum: String
  /// The scanned roots the checksum was seen under (the scope it belongs to).
  package var roots: Set<String>
  /// The paths it was last seen at, sorted by root, then path.
  package var paths: [String]
  package var firstSeen: Date
  package var lastSeen: Date

  package init(
    checksum: String, roots: Set<String>, paths: [String], firstSeen: Date, lastSeen: Date
  ) {
    self.checksum = checksum
    self.roots = roots
    self.paths = paths
    self.firstSeen = firstSeen
    self.lastSeen = lastSeen
  }
}

/// The first checksum a file was ever seen with; protected while the file exists.
package struct EditAnchor: Sendable, Equatable {
  package var identity: FileIdentity
  /// The bytes the file had when cairn first saw it: its original.
  package var firstChecksum: String
  /// The bytes it had at the last scan.
  package var currentChecksum: String
  package var root: String
  package var path: String

  package init(
    identity: FileIdentity, firstChecksum: String, currentChecksum: String, root: String,
    path: String
  ) {
    self.identity = identity
    self.firstChecksum = firstChecksum
    self.currentChecksum = currentChecksum
    self.root = root
    self.path = path
  }
}

/// A positive deletion signal: the file sat in a trash that records deliberate deletions.
package struct DeletionConfirmation: Sendable, Equatable {
  package var checksum: String
  /// The recorded deletion date (first write wins): the quarantine clock starts here.
  package var confirmedAt: Date
  /// Which trash said so (`freedesktop`, `macos`, `stversions`, `dtrash`, `folder`, `edit`,
  /// `android`, `watcher`).
  package var source: String

  /// The source of a photo found in Android's MediaStore trash (`.trashed-<expires>-<name>`).
  package static let androidSource = "android"
  /// The source of a deletion `cairn-observe watch` saw happen.
  package static let watcherSource = "watcher"
  /// Where the file was before it was deleted, when the trash records it.
  package var originalPath: String?

  package init(checksum: String, confirmedAt: Date, source: String, originalPath: String? = nil) {
    self.checksum = checksum
    self.confirmedAt = confirmedAt
    self.source = source
    self.originalPath = originalPath
  }
}

/// A checksum a person asked cairn never to trash.
package struct Exclusion: Sendable, Equatable {
  package var checksum: String
  package var reason: String
  package var createdAt: Date

  package init(checksum: String, reason: String, createdAt: Date) {
    self.checksum = checksum
    self.reason = reason
    self.createdAt = createdAt
  }
}

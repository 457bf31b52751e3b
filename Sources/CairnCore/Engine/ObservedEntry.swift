import Foundation

/// What the observed store remembers about one checksum.
public struct ObservedEntry: Sendable, Equatable {
  /// Base64 SHA-1, as Immich's `checksum`.
  public var checksum: String
  /// The scanned roots the checksum was seen under (the scope it belongs to).
  public var roots: Set<String>
  /// The paths it was last seen at, sorted by root, then path.
  public var paths: [String]
  public var firstSeen: Date
  public var lastSeen: Date

  public init(
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
public struct EditAnchor: Sendable, Equatable {
  public var identity: FileIdentity
  /// The bytes the file had when cairn first saw it: its original.
  public var firstChecksum: String
  /// The bytes it had at the last scan.
  public var currentChecksum: String
  public var root: String
  public var path: String

  public init(
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
public struct DeletionConfirmation: Sendable, Equatable {
  public var checksum: String
  /// The recorded deletion date (first write wins): the quarantine clock starts here.
  public var confirmedAt: Date
  /// Which trash said so (`freedesktop`, `macos`, `stversions`, `dtrash`, `folder`, `edit`,
  /// `android`).
  public var source: String

  /// The source of a photo found in Android's MediaStore trash (`.trashed-<expires>-<name>`).
  public static let androidSource = "android"
  /// Where the file was before it was deleted, when the trash records it.
  public var originalPath: String?

  public init(checksum: String, confirmedAt: Date, source: String, originalPath: String? = nil) {
    self.checksum = checksum
    self.confirmedAt = confirmedAt
    self.source = source
    self.originalPath = originalPath
  }
}

/// A checksum a person asked cairn never to trash.
public struct Exclusion: Sendable, Equatable {
  public var checksum: String
  public var reason: String
  public var createdAt: Date

  public init(checksum: String, reason: String, createdAt: Date) {
    self.checksum = checksum
    self.reason = reason
    self.createdAt = createdAt
  }
}

import Foundation

/// A media file `cairn-observe watch` saw arrive in the library and could not hash (gone
/// within its quiet second, still being written, unreadable): what was seen of it, as the
/// engine reads it. With no checksum it can never be matched to an asset by its bytes, only by
/// its name and time (`ReconciliationEngine.sightingCandidates`), and so only proposed to a
/// person, never trashed on cairn's own judgement.
package struct UnhashedSighting: Sendable, Equatable {
  /// The store's key for it, handed back when it is to be forgotten.
  package var key: Int64
  package var root: String
  package var path: String
  /// The file's name, as the watcher saw it (the last part of `path`).
  package var name: String
  package var size: Int64?
  /// The modification time `lstat` gave when it was seen (nil: already gone).
  package var modifiedAt: Date?
  package var seenAt: Date
  /// Why it could not be hashed (`ENOENT`, `EAGAIN`, ...).
  package var reason: String

  package init(
    key: Int64, root: String, path: String, name: String, size: Int64? = nil,
    modifiedAt: Date? = nil, seenAt: Date, reason: String = "ENOENT"
  ) {
    self.key = key
    self.root = root
    self.path = path
    self.name = name
    self.size = size
    self.modifiedAt = modifiedAt
    self.seenAt = seenAt
    self.reason = reason
  }
}

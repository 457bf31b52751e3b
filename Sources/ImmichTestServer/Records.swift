import Foundation

/// `asset.status`: force-deleted rows are `deleted` until the purge job removes them.
package enum AssetStatus: String, Sendable {
  case active, trashed, deleted
}

/// One row of the `asset` table, as far as the API shows it.
struct AssetRecord: Sendable {
  var id: String
  var ownerId: String
  var checksum: [UInt8]
  var originalFileName: String
  var type: AssetType
  var visibility: AssetVisibility
  var livePhotoVideoId: String?
  var fileCreatedAt: Date
  var fileModifiedAt: Date
  var createdAt: Date
  var updatedAt: Date
  var deletedAt: Date?
  var status: AssetStatus
  var isFavorite: Bool
  var durationMs: Int?
  var updateId: String
  /// External-library assets only (docs/IMMICH-API.md §13).
  var libraryId: String? = nil
  var isOffline = false
  /// The import path of an external-library asset; nil for the upload folder.
  var libraryPath: String? = nil
  /// The original's pixels, when the scenario gave them (see `AssetImage`).
  var image: AssetImage? = nil

  var sortKey: AssetSortKey { AssetSortKey(time: fileCreatedAt.timeIntervalSince1970, id: id) }
  var originalPath: String { libraryPath ?? "/data/upload/\(ownerId)/\(originalFileName)" }
}

struct UserRecord: Sendable {
  var id: String
  var email: String
  var password: String
  var name: String
  var isAdmin: Bool
  var createdAt: Date
  /// The row's `updateId`, for the `AuthUsersV1` sync stream.
  var updateId = ""
}

struct APIKeyRecord: Sendable {
  var id: String
  var name: String
  var secret: String
  var permissions: [String]
  var userId: String
  var createdAt: Date
}

struct SessionRecord: Sendable {
  var id: String
  var userId: String
  var token: String
  var createdAt: Date
  var updatedAt: Date
  var isPendingSyncReset: Bool
  /// `session_sync_checkpoint`: entity type → the full ack string last set for it.
  var checkpoints: [String: String]
}

struct TagRecord: Sendable {
  var id: String
  var userId: String
  var value: String
  var parentId: String?
  var color: String?
  var createdAt: Date
  var updatedAt: Date

  /// `value.split('/').at(-1)`.
  var name: String {
    String(value.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
  }
}

/// A row of `asset_audit`, written when an asset row is hard-deleted.
struct AuditRecord: Sendable {
  var id: String
  var assetId: String
  var ownerId: String
  var deletedAt: Date
}

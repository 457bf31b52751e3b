import CairnStream
import Foundation

/// What runs need from an Immich server, and nothing more.
///
/// `CairnImmich`'s `ImmichRunServer` conforms; tests use an in-memory double. Every method
/// throws a `CairnError` with the status the tool should exit with (69 for a failing server, 77
/// for a rejected key), and `trash` says besides whether its request may have been applied.
package protocol RunServer: Sendable {
  /// `GET /api/server/features` → `trash`, and `GET /api/server/config` → `trashDays`.
  func trashSettings() async throws(CairnError) -> TrashSettings
  /// `PUT /api/tags {tags:[value]}` (an upsert that builds the tag hierarchy); the leaf's id.
  func upsertTag(_ value: String) async throws(CairnError) -> String
  /// `GET /api/tags`: every tag of the user.
  func tags() async throws(CairnError) -> [ServerTag]
  /// `PUT /api/tags/assets {tagIds:[tagID], assetIds}`.
  func tagAssets(tagID: String, assetIDs: [String]) async throws(CairnError)
  /// `DELETE /api/tags/{tagID}/assets {ids}`.
  func untagAssets(tagID: String, assetIDs: [String]) async throws(CairnError)
  /// `DELETE /api/assets {ids, force:false}`: to the trash, never a hard delete.
  func trash(assetIDs: [String]) async throws(TrashFailure)
  /// `POST /api/trash/restore/assets {ids}`. Its answer counts the ids sent, not the assets
  /// restored: only reading them back tells.
  func restore(assetIDs: [String]) async throws(RestoreFailure)
  /// `GET /api/assets/{id}`; nil when the server doesn't know it (400/404).
  func asset(id: String) async throws(CairnError) -> RunAsset?
  /// `POST /api/search/metadata {tagIds:[tagID], withDeleted:true}` over every non-locked
  /// visibility (v2 searches only the timeline unless told), trashed assets included.
  func assets(taggedWith tagID: String) async throws(CairnError) -> [RunAsset]
  /// The server's clock now (the HTTP `Date` header, whole seconds); nil when it gives none.
  func clock() async throws(CairnError) -> Date?
  /// The ids (lower-case) of the assets carrying `tagID` that went to the trash at or after
  /// `time` of the server's clock: `POST /api/search/metadata` with the flat `trashedAfter`
  /// (to 3.1) or `filter.trashedAt: {gte}` (3.2 on), over every non-locked visibility.
  func trashed(since time: Date, taggedWith tagID: String) async throws(CairnError) -> Set<String>
}

extension RunServer {
  /// A server that cannot tell its clock: nothing is known of when its assets were trashed.
  package func clock() async throws(CairnError) -> Date? { nil }

  package func trashed(since time: Date, taggedWith tagID: String) async throws(CairnError)
    -> Set<String>
  { [] }
}

/// The server's trash configuration.
package struct TrashSettings: Sendable, Equatable {
  package var enabled: Bool
  /// Days a trashed asset is kept; nil when the server didn't say.
  package var days: Int?

  package init(enabled: Bool, days: Int?) {
    self.enabled = enabled
    self.days = days
  }
}

/// A tag as `GET /api/tags` lists it.
package struct ServerTag: Sendable, Equatable {
  package var id: String
  package var value: String

  package init(id: String, value: String) {
    self.id = id
    self.value = value
  }
}

/// The facts about one server asset that runs check before acting.
package struct RunAsset: Sendable, Equatable {
  package var id: String
  package var ownerID: String
  package var visibility: String
  package var isTrashed: Bool
  package var checksum: String?
  package var originalFileName: String?
  package var livePhotoVideoID: String?
  package var fileCreatedAt: Date?
  /// `IMAGE`, `VIDEO`, `AUDIO` or `OTHER`.
  package var assetType: String?
  /// The values of the tags it carries, when the server said (`GET /api/assets/:id` does).
  package var tagValues: [String]?
  package var isFavorite = false
  /// Set for an asset of an external library.
  package var libraryId: String?

  package init(
    id: String, ownerID: String, visibility: String, isTrashed: Bool, checksum: String? = nil,
    originalFileName: String? = nil, livePhotoVideoID: String? = nil, fileCreatedAt: Date? = nil,
    assetType: String? = nil, tagValues: [String]? = nil
  ) {
    self.assetType = assetType
    self.tagValues = tagValues
    self.id = id
    self.ownerID = ownerID
    self.visibility = visibility
    self.isTrashed = isTrashed
    self.checksum = checksum
    self.originalFileName = originalFileName
    self.livePhotoVideoID = livePhotoVideoID
    self.fileCreatedAt = fileCreatedAt
  }
}

/// How a `DELETE /api/assets` failed, which decides what a run may assume about its assets.
package enum TrashFailure: Error, Sendable {
  /// The server answered with an error of its own (4xx, or Immich's 500): Immich applies the
  /// request all or nothing in one transaction, so nothing was moved.
  case rejected(CairnError)
  /// A lost answer, a timeout or a proxy's 502–504: the request may still have been applied.
  case unanswered(CairnError)

  /// The error the tool ends with.
  package var error: CairnError {
    switch self {
    case .rejected(let error), .unanswered(let error): return error
    }
  }
}

/// How a `POST /api/trash/restore/assets` failed, which decides whether smaller requests may
/// do better.
package enum RestoreFailure: Error, Sendable {
  /// The server refused the list as a whole (400 "Not found or no asset.delete access"): one
  /// id it no longer has (purged) or that is not the caller's blocks every other, and nothing
  /// was restored. The same ids in smaller requests restore all but the refused ones.
  case refused(CairnError)
  /// Anything else (a missing permission, a failing server, a lost answer): stop.
  case failed(CairnError)

  /// The error the tool ends with.
  package var error: CairnError {
    switch self {
    case .refused(let error), .failed(let error): return error
    }
  }
}

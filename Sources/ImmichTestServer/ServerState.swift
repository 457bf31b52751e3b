import Foundation

/// An asset as the test sees it: the database row, not the DTO.
package struct AssetSnapshot: Sendable, Equatable {
  package var id: String
  package var ownerId: String
  /// Base64 SHA-1.
  package var checksum: String
  package var originalFileName: String
  package var type: AssetType
  package var visibility: AssetVisibility
  package var livePhotoVideoId: String?
  package var fileCreatedAt: Date
  package var deletedAt: Date?
  package var status: AssetStatus
  package var updateId: String
  package var libraryId: String?
  package var isOffline: Bool
  package var originalPath: String
  package var isTrashed: Bool { deletedAt != nil }

  init(_ r: AssetRecord) {
    id = r.id
    ownerId = r.ownerId
    checksum = Identifiers.base64(r.checksum)
    originalFileName = r.originalFileName
    type = r.type
    visibility = r.visibility
    livePhotoVideoId = r.livePhotoVideoId
    fileCreatedAt = r.fileCreatedAt
    deletedAt = r.deletedAt
    status = r.status
    updateId = r.updateId
    libraryId = r.libraryId
    isOffline = r.isOffline
    originalPath = r.originalPath
  }
}

package struct TagSnapshot: Sendable, Equatable {
  package var id: String
  package var userId: String
  package var value: String
  package var parentId: String?
  package var color: String?
  /// Whether `tag_closure` holds the tag's own row: false for tags made by `POST /tags`,
  /// which is why tag search cannot find their assets.
  package var inClosure: Bool
  package var name: String { String(value.split(separator: "/").last ?? "") }
}

package struct SessionSnapshot: Sendable, Equatable {
  package var id: String
  package var userId: String
  package var isPendingSyncReset: Bool
  /// Entity type → last ack string.
  package var checkpoints: [String: String]
}

/// The server's data, for tests to inspect and change between requests. Every method takes the
/// same lock the request handlers take, so it is safe from any thread while the server runs.
package final class ServerState: @unchecked Sendable {
  private let lock = NSLock()
  private var store: Store

  init(scenario: Scenario) {
    store = Store(scenario: scenario)
  }

  func withStore<T>(_ body: (inout Store) throws -> T) rethrows -> T {
    try lock.withLock { try body(&store) }
  }

  // MARK: Reading

  package var version: ImmichVersion { withStore { $0.version } }

  /// The server's clock: the wall clock plus every `advanceClock`.
  package var now: Date { withStore { $0.now } }

  /// Every asset row (trashed ones included), newest `fileCreatedAt` first.
  package var assets: [AssetSnapshot] {
    withStore { store in
      (0..<store.index.count).compactMap { n in
        store.assets[store.index.key(at: n, descending: true).id].map(AssetSnapshot.init)
      }
    }
  }

  package var assetCount: Int { withStore { $0.assets.count } }

  package func asset(_ id: String) -> AssetSnapshot? {
    withStore { $0.assets[id].map(AssetSnapshot.init) }
  }

  package var trashedAssetIDs: Set<String> {
    withStore { Set($0.assets.values.filter { $0.status == .trashed }.map(\.id)) }
  }

  /// Ids whose rows were hard-deleted, in order (the `asset_audit` table).
  package var deletedAssetIDs: [String] { withStore { $0.audit.map(\.assetId) } }

  package var tags: [TagSnapshot] {
    withStore { store in
      store.tags.values.sorted { $0.value < $1.value }.map {
        TagSnapshot(
          id: $0.id, userId: $0.userId, value: $0.value, parentId: $0.parentId, color: $0.color,
          inClosure: store.tagAncestors[$0.id]?.contains($0.id) ?? false)
      }
    }
  }

  package func tag(value: String, userId: String? = nil) -> TagSnapshot? {
    tags.first { $0.value == value && (userId == nil || $0.userId == userId) }
  }

  /// Tag ids directly assigned to an asset (`tag_asset`).
  package func tagIDs(onAsset id: String) -> Set<String> { withStore { $0.assetTags[id] ?? [] } }

  /// Every `(tagId, assetId)` pair.
  package var tagAssignments: [(tagId: String, assetId: String)] {
    withStore { store in
      store.assetTags.flatMap { asset, tags in tags.map { (tagId: $0, assetId: asset) } }
        .sorted { ($0.assetId, $0.tagId) < ($1.assetId, $1.tagId) }
    }
  }

  package var sessions: [SessionSnapshot] {
    withStore { store in
      store.sessions.values.sorted { $0.createdAt < $1.createdAt }.map {
        SessionSnapshot(
          id: $0.id, userId: $0.userId, isPendingSyncReset: $0.isPendingSyncReset,
          checkpoints: $0.checkpoints)
      }
    }
  }

  // MARK: Changing

  /// Adds an asset server-side, as another client's upload would.
  package func add(_ asset: Scenario.Asset) {
    withStore { store in store.insert(store.makeRecord(asset)) }
  }

  /// Trashes assets server-side (as the web app would), whoever owns them.
  package func trash(_ ids: [String]) {
    withStore { store in
      let now = store.now
      for id in ids {
        store.update(id) {
          $0.deletedAt = now
          $0.status = .trashed
        }
      }
    }
  }

  /// "Empty trash" for `userID`, as the web app's button: the trashed rows become `deleted`
  /// and stay until the purge job (`runQueuedJobs`) removes them.
  package func emptyTrash(userID: String) {
    withStore { store in
      for id in store.trashedIds(of: userID) { store.update(id) { $0.status = .deleted } }
    }
  }

  package func restore(_ ids: [String]) {
    withStore { store in
      for id in ids where store.assets[id]?.status == .trashed {
        store.update(id) {
          $0.deletedAt = nil
          $0.status = .active
        }
      }
    }
  }

  /// Removes rows for good, with the Live Photo cascade and `AssetDeleteV1` audit rows.
  package func hardDelete(_ ids: [String]) { withStore { $0.purge(ids) } }

  /// Ids a force delete or "empty trash" marked `deleted` and the purge job has not yet
  /// removed: real Immich still answers for them (docs/IMMICH-API.md §13).
  package var pendingPurgeIDs: Set<String> {
    withStore { Set($0.assets.values.filter { $0.status == .deleted }.map(\.id)) }
  }

  /// Runs the background jobs a real server would have run by now: the purge of every
  /// `deleted` row, with the Live Photo cascade. Returns the ids removed.
  @discardableResult
  package func runQueuedJobs() -> [String] { withStore { $0.runPurgeJob() } }

  /// Moves the server's clock forward, e.g. 31 days to make a sync complete-ack stale.
  package func advanceClock(by seconds: TimeInterval) { withStore { $0.clockOffset += seconds } }

  package func setTrash(enabled: Bool, days: Int? = nil) {
    withStore { store in
      store.trashEnabled = enabled
      if let days { store.trashDays = days }
    }
  }

  /// What `PUT /sessions/:id {isPendingSyncReset}` sets.
  package func setPendingSyncReset(sessionID: String, _ pending: Bool = true) {
    withStore { $0.sessions[sessionID]?.isPendingSyncReset = pending }
  }

  /// A session as password login would create; returns its id and bearer token.
  package func createSession(userID: String) -> (id: String, token: String) {
    withStore { store in
      let session = store.createSession(for: userID)
      return (session.id, session.token)
    }
  }
}

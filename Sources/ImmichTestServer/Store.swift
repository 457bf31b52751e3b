import Foundation

/// The server's whole database. Only ever touched under `ServerState`'s lock, so every request
/// sees and makes one consistent change — which is what makes all-or-nothing deletes testable.
struct Store: Sendable {
  var version: ImmichVersion
  var trashEnabled: Bool
  var trashDays: Int
  var passwordLoginEnabled: Bool
  /// Immich 4's expected shape: flat search fields and the deprecated server config gone.
  var deprecatedRemoved: Bool
  /// `major.minor.patch` reported instead of the mode's own.
  var reportedVersion: [Int]?
  /// Added to the wall clock: tests move time forward for the 30-day stale-ack rule.
  var clockOffset: TimeInterval = 0
  var updateClock = UpdateIDClock()

  var users: [String: UserRecord] = [:]
  var apiKeys: [APIKeyRecord] = []
  var sessions: [String: SessionRecord] = [:]
  var sessionIdByToken: [String: String] = [:]
  var partners: [Scenario.Partner] = []

  var assets: [String: AssetRecord] = [:]
  var index = AssetIndex()
  /// Owner id + checksum bytes → asset ids, for checksum search and the bulk upload check.
  var checksumIndex: [ChecksumKey: Set<String>] = [:]
  /// Motion video id → stills that point at it, for the hard-delete cascade.
  var motionReferences: [String: Set<String>] = [:]
  var audit: [AuditRecord] = []

  var tags: [String: TagRecord] = [:]
  /// `tag_closure`: descendant → its ancestors including itself. POST /tags adds no rows here.
  var tagAncestors: [String: Set<String>] = [:]
  /// `tag_asset`: asset id → tag ids.
  var assetTags: [String: Set<String>] = [:]
  var albums: [String: AlbumRecord] = [:]

  /// Bumped on every asset change; search paging positions are valid for one generation.
  var generation = 0
  var pageCursors: [String: [Int: Int]] = [:]

  struct ChecksumKey: Hashable, Sendable {
    var ownerId: String
    var checksum: [UInt8]
  }

  var now: Date { Date().addingTimeInterval(clockOffset) }

  init(scenario: Scenario) {
    version = scenario.version
    trashEnabled = scenario.trashEnabled
    trashDays = scenario.trashDays
    passwordLoginEnabled = scenario.passwordLoginEnabled
    deprecatedRemoved = scenario.deprecatedRemoved && scenario.version.hasStructuredSearch
    reportedVersion = scenario.reportedVersion.map {
      $0.split(separator: ".").compactMap { Int($0) }
    }
    .flatMap { $0.count == 3 ? $0 : nil }
    let created = Date()
    for user in scenario.users {
      users[user.id] = UserRecord(
        id: user.id, email: user.email, password: user.password, name: user.name,
        isAdmin: user.isAdmin, createdAt: created, updateId: updateClock.next(at: created))
    }
    apiKeys = scenario.apiKeys.map {
      APIKeyRecord(
        id: $0.id, name: $0.name, secret: $0.secret, permissions: $0.permissions,
        userId: $0.ownerId, createdAt: created)
    }
    partners = scenario.partners
    var keys: [AssetSortKey] = []
    keys.reserveCapacity(scenario.assets.count)
    assets.reserveCapacity(scenario.assets.count)
    for asset in scenario.assets {
      let record = makeRecord(asset)
      assets[record.id] = record
      keys.append(record.sortKey)
      indexSideTables(record)
    }
    index = AssetIndex(keys: keys)
    for album in scenario.albums { albums[album.id.lowercased()] = AlbumRecord(album, at: created) }
  }

  mutating func nextUpdateId() -> String { updateClock.next(at: now) }

  mutating func makeRecord(_ asset: Scenario.Asset) -> AssetRecord {
    // The library scan marks an offline asset with `deletedAt` but keeps `status` active.
    let deletedAt = asset.isOffline ? (asset.trashedAt ?? now) : asset.trashedAt
    let status: AssetStatus = asset.isOffline || deletedAt == nil ? .active : .trashed
    return AssetRecord(
      id: asset.id, ownerId: asset.ownerId, checksum: Identifiers.parseChecksum(asset.checksum),
      originalFileName: asset.originalFileName, type: asset.type, visibility: asset.visibility,
      livePhotoVideoId: asset.livePhotoVideoId, fileCreatedAt: asset.fileCreatedAt,
      fileModifiedAt: asset.fileCreatedAt, createdAt: now, updatedAt: now,
      deletedAt: deletedAt, status: status, isFavorite: asset.isFavorite,
      durationMs: asset.durationMs, updateId: nextUpdateId(), libraryId: asset.libraryId,
      isOffline: asset.isOffline, libraryPath: asset.libraryId == nil ? nil : asset.originalPath,
      image: asset.image)
  }

  private mutating func indexSideTables(_ record: AssetRecord) {
    checksumIndex[ChecksumKey(ownerId: record.ownerId, checksum: record.checksum), default: []]
      .insert(record.id)
    if let video = record.livePhotoVideoId {
      motionReferences[video, default: []].insert(record.id)
    }
  }

  mutating func insert(_ record: AssetRecord) {
    assets[record.id] = record
    index.insert(record.sortKey)
    indexSideTables(record)
    assetsChanged()
  }

  /// Applies `change` to one row the way the `updated_at` trigger does: new `updatedAt` and a
  /// new `updateId`, so the sync stream sees the row again.
  mutating func update(_ id: String, _ change: (inout AssetRecord) -> Void) {
    guard var record = assets[id] else { return }
    change(&record)
    record.updatedAt = now
    record.updateId = nextUpdateId()
    assets[id] = record
    assetsChanged()
  }

  /// Removes the row and writes the `asset_audit` row that becomes `AssetDeleteV1`.
  mutating func removeRow(_ id: String) {
    guard let record = assets.removeValue(forKey: id) else { return }
    index.remove(record.sortKey)
    let key = ChecksumKey(ownerId: record.ownerId, checksum: record.checksum)
    checksumIndex[key]?.remove(id)
    if checksumIndex[key]?.isEmpty == true { checksumIndex[key] = nil }
    if let video = record.livePhotoVideoId { motionReferences[video]?.remove(id) }
    assetTags[id] = nil
    audit.append(
      AuditRecord(id: nextUpdateId(), assetId: id, ownerId: record.ownerId, deletedAt: now))
    assetsChanged()
  }

  /// The `AssetDelete` job: deletes the rows, then each motion video no remaining asset still
  /// references, whatever its own status.
  mutating func purge(_ ids: [String]) {
    var videos: [String] = []
    for id in ids {
      if let video = assets[id]?.livePhotoVideoId { videos.append(video) }
      removeRow(id)
    }
    for video in videos where assets[video] != nil && (motionReferences[video] ?? []).isEmpty {
      removeRow(video)
    }
  }

  /// `AssetEmptyTrash`, queued by a force delete or "empty trash": purges every row whose
  /// status is `deleted`. Returns the ids of the rows removed, cascaded videos included.
  mutating func runPurgeJob() -> [String] {
    let before = audit.count
    purge(assets.values.filter { $0.status == .deleted }.map(\.id).sorted())
    return audit[before...].map(\.assetId)
  }

  mutating func assetsChanged() {
    generation += 1
    if !pageCursors.isEmpty { pageCursors = [:] }
  }

  // MARK: Scope

  /// `getUserIdsToSearch`: the caller plus partners who share with them into the timeline.
  func searchableOwners(for userId: String) -> Set<String> {
    var owners: Set<String> = [userId]
    for partner in partners where partner.sharedWithId == userId && partner.inTimeline {
      owners.insert(partner.sharedById)
    }
    return owners
  }

  /// `asset.share` access: owner or any partner sharing with the caller.
  func canShare(_ asset: AssetRecord, userId: String) -> Bool {
    asset.ownerId == userId
      || partners.contains { $0.sharedById == asset.ownerId && $0.sharedWithId == userId }
  }

  /// `asset.delete` access, all or nothing: every id must be an exact (lower-case) id of an
  /// owned, not-locked asset.
  func canDeleteAll(_ ids: [String], userId: String) -> Bool {
    ids.allSatisfy { id in
      guard let asset = assets[id] else { return false }
      return asset.ownerId == userId && asset.visibility != .locked
    }
  }
}

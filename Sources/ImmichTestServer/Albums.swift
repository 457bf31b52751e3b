import Foundation

/// One album (`album`, `album_user` and `album_asset` rows), without shared links.
struct AlbumRecord: Sendable {
  var id: String
  var ownerId: String
  var albumName: String
  /// The users it is shared with, by id: an editor may add assets, a viewer only look.
  var members: [String: AlbumRole] = [:]
  var assetIds: Set<String>
  var createdAt: Date
  var updatedAt: Date

  /// `shared` in the response: another user is a member (the double has no shared links).
  var isShared: Bool { !members.isEmpty }

  /// `album.read` access (`checkAlbumAccess`): the owner and every member.
  func canRead(_ userId: String) -> Bool { ownerId == userId || members[userId] != nil }

  /// `albumAsset.create` access: the owner and editors.
  func canAddAssets(_ userId: String) -> Bool {
    ownerId == userId || members[userId] == .editor
  }
}

extension AlbumRecord {
  init(_ album: Scenario.Album, at created: Date) {
    self.init(
      id: album.id.lowercased(), ownerId: album.ownerId, albumName: album.albumName,
      members: album.sharedWith, assetIds: Set(album.assetIds.map { $0.lowercased() }),
      createdAt: created, updatedAt: created)
  }
}

extension Store {
  /// The albums `GET /albums` answers, by version (docs/IMMICH-API.md §16). 2.x reads only
  /// `shared`: absent, the albums the user owns; `true`, those shared with or by them;
  /// `false`, the owned ones shared with no one. 3.x reads `isOwned` and `isShared` over every
  /// album the user is in (owner or member), and strips `shared`.
  func albumsListed(for userId: String, query: [String: String], v3: Bool) throws(APIError)
    -> [AlbumRecord]
  {
    var mine = albums.values.filter { $0.canRead(userId) }
    if v3 {
      let isOwned = try Self.flag(query, "isOwned")
      let isShared = try Self.flag(query, "isShared")
      if let isOwned { mine = mine.filter { ($0.ownerId == userId) == isOwned } }
      if let isShared { mine = mine.filter { $0.isShared == isShared } }
    } else {
      switch try Self.flag(query, "shared") {
      case nil: mine = mine.filter { $0.ownerId == userId }
      case true?: mine = mine.filter(\.isShared)
      case false?: mine = mine.filter { $0.ownerId == userId && !$0.isShared }
      }
    }
    // `ORDER BY album.createdAt DESC`; the id breaks ties, which the double's clock makes.
    return mine.sorted { ($0.createdAt, $1.id) > ($1.createdAt, $0.id) }
  }

  /// A boolean query parameter, as `stringToBool` (v3) and `ValidateBoolean` (v2) read it.
  static func flag(_ query: [String: String], _ key: String) throws(APIError) -> Bool? {
    guard let text = query[key] else { return nil }
    if text == "true" { return true }
    if text == "false" { return false }
    throw APIError.validation([
      ValidationIssue(
        code: "invalid_type", path: [.string(key)],
        message: "Invalid input: expected boolean, received string",
        extra: [("expected", "boolean")])
    ])
  }

  /// `assetCount` (`getMetadataForIds`): the album's assets that are not trashed and whose
  /// visibility is timeline or archive — a hidden Live Photo video, a locked or a trashed
  /// asset is in the album but not counted.
  func assetCount(of album: AlbumRecord) -> Int {
    album.assetIds.reduce(0) { count, id in
      guard let a = assets[id], a.deletedAt == nil,
        a.visibility == .timeline || a.visibility == .archive
      else { return count }
      return count + 1
    }
  }

  /// The album `id` if `userId` may read it; otherwise the 400 the access check gives.
  func readableAlbum(_ id: String, _ userId: String, _ permission: String) throws(APIError)
    -> AlbumRecord
  {
    guard let album = albums[id.lowercased()], album.canRead(userId) else {
      throw APIError.noAccess(permission)
    }
    return album
  }

  /// The album ids holding `assetId`, for the search filters.
  func albumIds(holding assetId: String) -> Set<String> {
    Set(albums.values.filter { $0.assetIds.contains(assetId) }.map(\.id))
  }

  /// Refuses a search naming an album the caller cannot read (`requireAccess` with
  /// `album.read`), as the flat `albumIds` and 3.2's `filter.albumIds` both are.
  func requireReadable(albums ids: [String], _ userId: String) throws(APIError) {
    for id in ids where albums[id.lowercased()]?.canRead(userId) != true {
      throw APIError.noAccess(Permission.albumRead)
    }
  }

  /// `asset.read` and `asset.view` access: the owner, a partner sharing with the caller, or
  /// an album the caller can read that holds the asset.
  func canSee(_ asset: AssetRecord, userId: String) -> Bool {
    canShare(asset, userId: userId)
      || albums.values.contains { $0.assetIds.contains(asset.id) && $0.canRead(userId) }
  }
}

/// The API-key permission strings Immich checks (`server/src/enum.ts`), as far as the double
/// serves them. Keys may hold any string; these are the ones routes ask for.
package enum Permission {
  package static let all = "all"
  package static let assetRead = "asset.read"
  package static let assetDelete = "asset.delete"
  package static let assetStatistics = "asset.statistics"
  package static let assetUpload = "asset.upload"
  package static let assetView = "asset.view"
  package static let albumRead = "album.read"
  package static let albumCreate = "album.create"
  package static let albumAssetCreate = "albumAsset.create"
  package static let tagCreate = "tag.create"
  package static let tagRead = "tag.read"
  package static let tagUpdate = "tag.update"
  package static let tagDelete = "tag.delete"
  package static let tagAsset = "tag.asset"
  package static let syncStream = "sync.stream"
  package static let syncCheckpointRead = "syncCheckpoint.read"
  package static let syncCheckpointUpdate = "syncCheckpoint.update"
  package static let syncCheckpointDelete = "syncCheckpoint.delete"
  package static let userRead = "user.read"
  package static let serverAbout = "server.about"
  package static let sessionUpdate = "session.update"
  /// New in 3.2: `GET /config`, where the trash settings now live.
  package static let userConfigRead = "userConfig.read"

  /// Some of the strings 3.3 added to the enum (docs/IMMICH-API.md §17): no route of the
  /// double asks for them, but `GET /api-keys/me` lists them for a key that holds them.
  package static let newIn3_3: [String] = [
    "adminConfig.read", "apiKey.rotate", "assetFile.read", "workflow.logs",
  ]

  /// Every permission cairn's tools need: a convenient "least privilege" key for tests.
  package static let cairnNeeds: [String] = [
    assetRead, assetDelete, assetStatistics, assetUpload, tagCreate, tagRead, tagAsset,
    userRead, serverAbout, userConfigRead,
  ]

  /// `isGranted` in `utils/access.ts`: `all` covers everything, otherwise an exact match.
  static func isGranted(_ held: [String], _ required: String) -> Bool {
    held.contains(all) || held.contains(required)
  }
}

/// The API-key permission strings Immich checks (`server/src/enum.ts`), as far as the double
/// serves them. Keys may hold any string; these are the ones routes ask for.
public enum Permission {
  public static let all = "all"
  public static let assetRead = "asset.read"
  public static let assetUpdate = "asset.update"
  public static let assetDelete = "asset.delete"
  public static let assetStatistics = "asset.statistics"
  public static let assetUpload = "asset.upload"
  public static let assetShare = "asset.share"
  public static let assetView = "asset.view"
  public static let albumRead = "album.read"
  public static let tagCreate = "tag.create"
  public static let tagRead = "tag.read"
  public static let tagUpdate = "tag.update"
  public static let tagDelete = "tag.delete"
  public static let tagAsset = "tag.asset"
  public static let syncStream = "sync.stream"
  public static let syncCheckpointRead = "syncCheckpoint.read"
  public static let syncCheckpointUpdate = "syncCheckpoint.update"
  public static let syncCheckpointDelete = "syncCheckpoint.delete"
  public static let userRead = "user.read"
  public static let serverAbout = "server.about"
  public static let apiKeyRead = "apiKey.read"
  public static let sessionUpdate = "session.update"

  /// Every permission cairn's tools need: a convenient "least privilege" key for tests.
  public static let cairnNeeds: [String] = [
    assetRead, assetDelete, assetStatistics, assetUpload, tagCreate, tagRead, tagAsset,
    userRead, serverAbout,
  ]

  /// `isGranted` in `utils/access.ts`: `all` covers everything, otherwise an exact match.
  static func isGranted(_ held: [String], _ required: String) -> Bool {
    held.contains(all) || held.contains(required)
  }
}

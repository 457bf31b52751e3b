/// One checkpoint of `GET /api/sync/ack`.
public struct SyncAck: Decodable, Sendable, Equatable {
  /// The entity type, e.g. `AssetV2`.
  public var type: String
  /// `AssetV2|<updateId>`.
  public var ack: String
}

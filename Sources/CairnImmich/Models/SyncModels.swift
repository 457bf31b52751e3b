/// One checkpoint of `GET /api/sync/ack`.
package struct SyncAck: Decodable, Sendable, Equatable {
  /// The entity type, e.g. `AssetV2`.
  package var type: String
  /// `AssetV2|<updateId>`.
  package var ack: String
}

import CairnJSON

/// What a stage that acts on the server did to one asset.
package struct ResultRecord: Record, Equatable {
  package static let recordType = "result"

  package var assetId: String
  /// `trashed`, `restored`, `tagged`, `would-trash`, `would-restore`, `skipped` or `failed`.
  package var action: String
  package var runId: String?
  package var checksum: String?
  package var originalFileName: String?
  /// True for the motion video of a Live Photo, acted on with its still.
  package var livePhotoVideo: Bool?
  package var message: String?

  package init(
    assetId: String, action: String, runId: String? = nil, checksum: String? = nil,
    originalFileName: String? = nil, livePhotoVideo: Bool? = nil, message: String? = nil
  ) {
    self.assetId = assetId
    self.action = action
    self.runId = runId
    self.checksum = checksum
    self.originalFileName = originalFileName
    self.livePhotoVideo = livePhotoVideo
    self.message = message
  }

  package init(_ object: JSONObject) throws(RecordError) {
    assetId = try object.string("assetId")
    action = try object.string("action")
    runId = try object.optionalString("runId")
    checksum = try object.optionalString("checksum")
    originalFileName = try object.optionalString("originalFileName")
    livePhotoVideo = try object.optionalBool("livePhotoVideo")
    message = try object.optionalString("message")
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("assetId", assetId)
    w.field("action", action)
    w.field("runId", runId)
    w.field("checksum", checksum)
    w.field("originalFileName", originalFileName)
    w.field("livePhotoVideo", livePhotoVideo)
    w.field("message", message)
  }
}

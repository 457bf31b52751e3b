/// What a stage that acts on the server did to one asset.
public struct ResultRecord: Record, Equatable {
  public static let recordType = "result"

  public var assetId: String
  /// `trashed`, `restored`, `tagged`, `would-trash`, `would-restore`, `skipped` or `failed`.
  public var action: String
  public var runId: String?
  public var checksum: String?
  public var originalFileName: String?
  /// True for the motion video of a Live Photo, acted on with its still.
  public var livePhotoVideo: Bool?
  public var message: String?

  public init(
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

  public init(_ object: JSONObject) throws(RecordError) {
    assetId = try object.string("assetId")
    action = try object.string("action")
    runId = try object.optionalString("runId")
    checksum = try object.optionalString("checksum")
    originalFileName = try object.optionalString("originalFileName")
    livePhotoVideo = try object.optionalBool("livePhotoVideo")
    message = try object.optionalString("message")
  }

  public func writeFields(to w: inout JSONObjectWriter) {
    w.field("assetId", assetId)
    w.field("action", action)
    w.field("runId", runId)
    w.field("checksum", checksum)
    w.field("originalFileName", originalFileName)
    w.field("livePhotoVideo", livePhotoVideo)
    w.field("message", message)
  }
}

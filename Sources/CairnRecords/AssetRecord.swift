import CairnJSON
import Foundation

/// One asset on the Immich server, as `cairn-fetch` lists it.
package struct AssetRecord: Record, Equatable {
  package static let recordType = "asset"

  package var id: String
  /// Base64 SHA-1, as the server reports it.
  package var checksum: String
  package var originalFileName: String
  /// Immich's asset type: `IMAGE`, `VIDEO`, `AUDIO` or `OTHER` (named so it can't clash with
  /// the record's own `type`).
  package var assetType: String
  /// `timeline`, `archive`, `hidden` or `locked`.
  package var visibility: String
  /// The hidden motion video of a Live Photo still.
  package var livePhotoVideoId: String?
  package var isTrashed: Bool
  package var ownerId: String
  package var fileCreatedAt: Date?
  /// Marked favourite on Immich: never trashed without a person's approval.
  package var isFavorite: Bool
  /// The external library it was imported from (nil: uploaded). Such an asset's checksum is
  /// a hash of its path, not of its bytes, and Immich deletes it itself: never a candidate.
  package var libraryId: String?
  /// In one of the user's Immich albums (owned or shared with them), as `cairn-fetch` read it
  /// fresh this run: a person filed it, so it is never trashed without their approval.
  package var inAlbum = false

  package init(
    id: String, checksum: String, originalFileName: String, assetType: String,
    visibility: String, livePhotoVideoId: String? = nil, isTrashed: Bool = false,
    ownerId: String, fileCreatedAt: Date? = nil, isFavorite: Bool = false,
    libraryId: String? = nil
  ) {
    self.id = id
    self.checksum = checksum
    self.originalFileName = originalFileName
    self.assetType = assetType
    self.visibility = visibility
    self.livePhotoVideoId = livePhotoVideoId
    self.isTrashed = isTrashed
    self.ownerId = ownerId
    self.fileCreatedAt = fileCreatedAt
    self.isFavorite = isFavorite
    self.libraryId = libraryId
  }

  package init(_ object: JSONObject) throws(RecordError) {
    id = try object.string("id")
    checksum = try object.string("checksum")
    originalFileName = try object.optionalString("originalFileName") ?? ""
    assetType = try object.optionalString("assetType") ?? "OTHER"
    visibility = try object.optionalString("visibility") ?? "timeline"
    livePhotoVideoId = try object.optionalString("livePhotoVideoId")
    isTrashed = try object.optionalBool("isTrashed") ?? false
    ownerId = try object.string("ownerId")
    fileCreatedAt = try object.optionalDate("fileCreatedAt")
    isFavorite = try object.optionalBool("isFavorite") ?? false
    libraryId = try object.optionalString("libraryId")
    inAlbum = try object.optionalBool("inAlbum") ?? false
  }

  /// Throws what `init(_:)` would throw for `object`, without building its strings (a
  /// listing is checked whole while it is read, and decoded only where it matters).
  package static func check(_ object: JSONObject) throws(RecordError) {
    try object.checkString("id")
    try object.checkString("checksum")
    try object.checkOptionalString("originalFileName")
    try object.checkOptionalString("assetType")
    try object.checkOptionalString("visibility")
    try object.checkOptionalString("livePhotoVideoId")
    _ = try object.optionalBool("isTrashed")
    try object.checkString("ownerId")
    try object.checkOptionalDate("fileCreatedAt")
    _ = try object.optionalBool("isFavorite")
    try object.checkOptionalString("libraryId")
    _ = try object.optionalBool("inAlbum")
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("id", id)
    w.field("checksum", checksum)
    w.field("originalFileName", originalFileName)
    w.field("assetType", assetType)
    w.field("visibility", visibility)
    if let livePhotoVideoId {
      w.field("livePhotoVideoId", livePhotoVideoId)
    } else {
      w.null("livePhotoVideoId")
    }
    w.field("isTrashed", isTrashed)
    w.field("ownerId", ownerId)
    w.field("fileCreatedAt", fileCreatedAt)
    // Written only when they say something, so a listing without them reads as before.
    if isFavorite { w.field("isFavorite", true) }
    w.field("libraryId", libraryId)
    if inAlbum { w.field("inAlbum", true) }
  }
}

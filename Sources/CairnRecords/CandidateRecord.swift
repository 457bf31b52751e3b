import CairnJSON
import Foundation

/// Which way the reconciliation engine decided about a server asset.
package enum Bucket: String, Sendable, CaseIterable, Comparable {
  /// May be trashed (subject to the safety rails and the person's approval).
  case delete
  /// Needs a person's review before anything happens.
  case pending
  /// Pending because a confirmed deletion is still in quarantine; see `eligibleAt`.
  case held
  /// In the server's trash because a cairn run put it there, and back in the library: to be
  /// restored (reason `put-back`). Never trashed, never counted against the threshold.
  case restore
  /// Gone, but outside the age window (`CAIRN_MAX_AGE_DAYS`, reason `age-window`): not
  /// propagated. Never trashed unless a person approves it by id or checksum, never counted as
  /// waiting for review, never counted against the threshold.
  case kept

  /// Order in previews: what will go first, then what waits.
  private var rank: Int {
    switch self {
    case .delete: return 0
    case .pending: return 1
    case .held: return 2
    case .restore: return 3
    case .kept: return 4
    }
  }

  package static func < (a: Bucket, b: Bucket) -> Bool { a.rank < b.rank }
}

/// A server asset whose bytes were in the local library and are gone from it (or, in the
/// `restore` bucket, are back in it after a cairn run trashed them).
package struct CandidateRecord: Record, Equatable {
  package static let recordType = "candidate"

  package var assetId: String
  package var checksum: String
  package var bucket: Bucket
  /// A stable code for why: a `CandidateReason`, or a code from a writer this build does not
  /// know, carried on as it came.
  package var reason: String
  /// The same, in words for a person.
  package var detail: String?
  /// The local paths the checksum was last seen at.
  package var paths: [String]
  package var originalFileName: String?
  package var assetType: String?
  package var visibility: String?
  package var ownerId: String?
  package var fileCreatedAt: Date?
  package var livePhotoVideoId: String?
  /// The motion video's checksum, from the listing (nil: the listing does not hold the video,
  /// and nothing that acts sends it).
  package var livePhotoVideoChecksum: String?
  /// True when the motion video stays on the server: its bytes are still in the library, it is
  /// excluded, or it is not known to be gone. The still is then trashed alone.
  package var livePhotoVideoKept: Bool?
  /// Marked favourite on Immich (such a candidate always waits for a person's approval).
  package var isFavorite: Bool?
  /// When the checksum was first found missing from a complete scan.
  package var missingSince: Date?
  /// When a positive signal (a trash folder) confirmed the deletion.
  package var confirmedAt: Date?
  /// When a held candidate leaves quarantine.
  package var eligibleAt: Date?
  /// What confirmed the deletion: `watcher` when `cairn-observe watch` saw it happen, else the
  /// trash that holds it (`freedesktop`, `stversions`, `android`, ...). Absent: the scan only
  /// found the file missing.
  package var confirmedBy: String?

  package init(
    assetId: String, checksum: String, bucket: Bucket, reason: String, detail: String? = nil,
    paths: [String] = [], originalFileName: String? = nil, assetType: String? = nil,
    visibility: String? = nil, ownerId: String? = nil, fileCreatedAt: Date? = nil,
    livePhotoVideoId: String? = nil, livePhotoVideoChecksum: String? = nil,
    livePhotoVideoKept: Bool? = nil, isFavorite: Bool? = nil, missingSince: Date? = nil,
    confirmedAt: Date? = nil, eligibleAt: Date? = nil, confirmedBy: String? = nil
  ) {
    self.assetId = assetId
    self.checksum = checksum
    self.bucket = bucket
    self.reason = reason
    self.detail = detail
    self.paths = paths
    self.originalFileName = originalFileName
    self.assetType = assetType
    self.visibility = visibility
    self.ownerId = ownerId
    self.fileCreatedAt = fileCreatedAt
    self.livePhotoVideoId = livePhotoVideoId
    self.livePhotoVideoChecksum = livePhotoVideoChecksum
    self.livePhotoVideoKept = livePhotoVideoKept
    self.isFavorite = isFavorite
    self.missingSince = missingSince
    self.confirmedAt = confirmedAt
    self.eligibleAt = eligibleAt
    self.confirmedBy = confirmedBy
  }

  package init(_ object: JSONObject) throws(RecordError) {
    assetId = try object.string("assetId")
    checksum = try object.string("checksum")
    let bucketName = try object.string("bucket")
    guard let bucket = Bucket(rawValue: bucketName) else {
      throw .wrongKind("bucket", "one of delete, pending, held, restore, kept")
    }
    self.bucket = bucket
    reason = try object.string("reason")
    detail = try object.optionalString("detail")
    paths = try object.stringArray("paths")
    originalFileName = try object.optionalString("originalFileName")
    assetType = try object.optionalString("assetType")
    visibility = try object.optionalString("visibility")
    ownerId = try object.optionalString("ownerId")
    fileCreatedAt = try object.optionalDate("fileCreatedAt")
    livePhotoVideoId = try object.optionalString("livePhotoVideoId")
    livePhotoVideoChecksum = try object.optionalString("livePhotoVideoChecksum")
    livePhotoVideoKept = try object.optionalBool("livePhotoVideoKept")
    isFavorite = try object.optionalBool("isFavorite")
    missingSince = try object.optionalDate("missingSince")
    confirmedAt = try object.optionalDate("confirmedAt")
    eligibleAt = try object.optionalDate("eligibleAt")
    confirmedBy = try object.optionalString("confirmedBy")
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("assetId", assetId)
    w.field("checksum", checksum)
    w.field("bucket", bucket.rawValue)
    w.field("reason", reason)
    w.field("detail", detail)
    w.field("paths", paths)
    w.field("originalFileName", originalFileName)
    w.field("assetType", assetType)
    w.field("visibility", visibility)
    w.field("ownerId", ownerId)
    w.field("fileCreatedAt", fileCreatedAt)
    w.field("livePhotoVideoId", livePhotoVideoId)
    w.field("livePhotoVideoChecksum", livePhotoVideoChecksum)
    w.field("livePhotoVideoKept", livePhotoVideoKept)
    w.field("isFavorite", isFavorite)
    w.field("missingSince", missingSince)
    w.field("confirmedAt", confirmedAt)
    w.field("eligibleAt", eligibleAt)
    w.field("confirmedBy", confirmedBy)
  }
}

import CairnJSON
import CairnRecords
import Foundation

/// Where an asset shows in Immich. `locked` needs a PIN-elevated session; cairn never lists it.
package enum AssetVisibility: String, Sendable, CaseIterable, Codable {
  case timeline, archive, hidden, locked

  /// The visibilities cairn lists: everything an API key may see.
  package static let listed: [AssetVisibility] = [.timeline, .archive, .hidden]
}

/// An asset as `search/metadata` and `GET /api/assets/:id` describe it (`AssetResponseDto`),
/// reduced to what cairn uses.
package struct ServerAsset: Decodable, Sendable, Equatable {
  package var id: String
  package var ownerId: String
  /// Base64 SHA-1 of the original file.
  package var checksum: String
  package var originalFileName: String
  /// `IMAGE`, `VIDEO`, `AUDIO` or `OTHER`.
  package var type: String
  package var visibility: String
  package var livePhotoVideoId: String?
  package var isTrashed: Bool
  /// Only true when the caller owns the asset and marked it.
  package var isFavorite: Bool
  /// Set for an asset of an external library (deprecated in the response, still sent).
  package var libraryId: String?
  /// ISO-8601 as the server sent it.
  package var fileCreatedAt: String?
  /// Milliseconds. v3 sends an integer, v2 a string such as `"0:00:02.500000"`.
  package var durationMilliseconds: Int?
  /// Only in `GET /api/assets/:id` answers (and searches that ask for them).
  package var tags: [TagInfo]?

  enum CodingKeys: String, CodingKey {
    case id, ownerId, checksum, originalFileName, type, visibility, livePhotoVideoId, isTrashed
    case isFavorite, libraryId, fileCreatedAt, duration, tags
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(String.self, forKey: .id)
    ownerId = try c.decode(String.self, forKey: .ownerId)
    checksum = try c.decode(String.self, forKey: .checksum)
    originalFileName = try c.decodeIfPresent(String.self, forKey: .originalFileName) ?? ""
    type = try c.decodeIfPresent(String.self, forKey: .type) ?? "OTHER"
    visibility = try c.decodeIfPresent(String.self, forKey: .visibility) ?? "timeline"
    livePhotoVideoId = try c.decodeIfPresent(String.self, forKey: .livePhotoVideoId)
    isTrashed = try c.decodeIfPresent(Bool.self, forKey: .isTrashed) ?? false
    isFavorite = try c.decodeIfPresent(Bool.self, forKey: .isFavorite) ?? false
    libraryId = try c.decodeIfPresent(String.self, forKey: .libraryId)
    fileCreatedAt = try c.decodeIfPresent(String.self, forKey: .fileCreatedAt)
    if let ms = try? c.decodeIfPresent(Int.self, forKey: .duration) {
      durationMilliseconds = ms
    } else if let text = try? c.decodeIfPresent(String.self, forKey: .duration) {
      durationMilliseconds = Self.milliseconds(fromClock: text)
    } else {
      durationMilliseconds = nil
    }
    tags = try c.decodeIfPresent([TagInfo].self, forKey: .tags)
  }

  /// `H:MM:SS.ffffff` (v2's duration) as milliseconds.
  static func milliseconds(fromClock text: String) -> Int? {
    let parts = text.split(separator: ":")
    guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]),
      let seconds = Double(parts[2])
    else { return nil }
    return Int(((Double(hours * 3600 + minutes * 60) + seconds) * 1000).rounded())
  }

  /// The `asset` record cairn's pipeline carries (ids lower-cased, as the server compares them).
  package var record: AssetRecord {
    AssetRecord(
      id: id.lowercased(), checksum: checksum, originalFileName: originalFileName,
      assetType: type, visibility: visibility, livePhotoVideoId: livePhotoVideoId?.lowercased(),
      isTrashed: isTrashed, ownerId: ownerId.lowercased(),
      fileCreatedAt: fileCreatedAt.flatMap { Date(iso8601: $0) }, isFavorite: isFavorite,
      libraryId: libraryId?.lowercased())
  }
}

/// One page of `POST /api/search/metadata`.
package struct SearchPage: Sendable {
  package var items: [ServerAsset]
  /// The next page number (flat search), or nil on the last page.
  package var nextPage: Int?
  /// The opaque position of the next page (structured search, 3.2), or nil on the last page.
  package var nextCursor: String?

  package init(items: [ServerAsset], nextPage: Int? = nil, nextCursor: String? = nil) {
    self.items = items
    self.nextPage = nextPage
    self.nextCursor = nextCursor
  }

  /// The query for the page after this one, or nil when this was the last.
  package func next(after query: MetadataQuery) -> MetadataQuery? {
    var next = query
    if let nextCursor {
      next.cursor = nextCursor
    } else if let nextPage {
      next.page = nextPage
    } else {
      return nil
    }
    return next
  }
}

struct SearchAnswer: Decodable {
  struct Assets: Decodable {
    var items: [ServerAsset]
    var nextPage: String?
    /// Required from 3.2 on (null in flat mode); absent before.
    var nextCursor: String?
  }
  var assets: Assets
}

/// The filters of `search/metadata` cairn uses; nil fields are left out of the request.
package struct MetadataQuery: Sendable, Equatable {
  package var visibility: AssetVisibility?
  package var withDeleted: Bool?
  package var tagIds: [String]?
  package var checksum: String?
  package var id: String?
  package var type: String?
  package var page: Int
  /// Where the next page starts in a structured search (3.2); nil for the first page.
  package var cursor: String?
  /// 1…1000.
  package var size: Int
  package var order: String?
  /// Only assets uploaded to Immich (`libraryId: null`), none of an external library.
  package var uploadedOnly = false
  /// Only assets in every one of these albums.
  package var albumIds: [String]?
  /// Only assets moved to the trash at or after this time of the server's clock (flat
  /// `trashedAfter`; structured `trashedAt: {gte}`): `deletedAt`, which a trash sets and a
  /// restore clears. Implies the trash is searched.
  package var trashedAfter: Date?

  package init(
    visibility: AssetVisibility? = nil, withDeleted: Bool? = nil, tagIds: [String]? = nil,
    checksum: String? = nil, id: String? = nil, type: String? = nil, page: Int = 1,
    size: Int = 1000, order: String? = "asc"
  ) {
    self.visibility = visibility
    self.withDeleted = withDeleted
    self.tagIds = tagIds
    self.checksum = checksum
    self.id = id
    self.type = type
    self.page = page
    self.size = min(max(size, 1), 1000)
    self.order = order
  }

  var json: [String: Any] {
    var body: [String: Any] = ["page": page, "size": size]
    if let visibility { body["visibility"] = visibility.rawValue }
    if let withDeleted { body["withDeleted"] = withDeleted }
    if let tagIds { body["tagIds"] = tagIds.map { $0.lowercased() } }
    if let albumIds { body["albumIds"] = albumIds.map { $0.lowercased() } }
    if let checksum { body["checksum"] = checksum }
    if let id { body["id"] = id.lowercased() }
    if let type { body["type"] = type }
    if let order { body["order"] = order }
    if uploadedOnly { body["libraryId"] = NSNull() }
    if let trashedAfter { body["trashedAfter"] = trashedAfter.iso8601 }
    return body
  }
}

/// One answer of `POST /api/assets/bulk-upload-check`.
package struct UploadCheckResult: Decodable, Sendable, Equatable {
  /// The caller's id, echoed.
  package var id: String
  /// `accept` (not on the server) or `reject`.
  package var action: String
  package var reason: String?
  /// The server's asset with that checksum, for a `duplicate`.
  package var assetId: String?
  package var isTrashed: Bool?
}

struct UploadCheckAnswer: Decodable {
  var results: [UploadCheckResult]
}

/// `{"count": n}` answers (trash restore, tag assets).
struct CountAnswer: Decodable {
  var count: Int
}

/// `POST /api/search/statistics`.
struct StatisticsAnswer: Decodable {
  var total: Int
}

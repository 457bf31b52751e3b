import Foundation

/// The response DTOs, field for field as the OpenAPI document names them.
enum Rendering {
  static func date(_ date: Date) -> JSON { .string(Timestamps.format(date)) }
  static func date(_ date: Date?) -> JSON { date.map { .string(Timestamps.format($0)) } ?? .null }

  /// v3: integer milliseconds or null; v2: `"H:MM:SS.fffff"` text, zero for stills.
  static func duration(_ ms: Int?, _ version: ImmichVersion) -> JSON {
    if version.isV3 { return JSON.from(ms) }
    let total = ms ?? 0
    let hours = total / 3_600_000
    let minutes = total / 60_000 % 60
    let seconds = total / 1000 % 60
    let fraction = total % 1000 * 100
    return .string(
      "\(hours):" + String(format: "%02d:%02d.%05d", minutes, seconds, fraction))
  }

  static func mimeType(_ asset: AssetRecord) -> String {
    let ext = (asset.originalFileName as NSString).pathExtension.lowercased()
    switch ext {
    case "heic": return "image/heic"
    case "png": return "image/png"
    case "mov": return "video/quicktime"
    case "mp4": return "video/mp4"
    default: return asset.type == .video ? "video/mp4" : "image/jpeg"
    }
  }

  /// `AssetResponseDto`. `tags` only where the real endpoint loads them (`GET /assets/:id`).
  static func asset(
    _ a: AssetRecord, version: ImmichVersion, callerId: String, tags: [TagRecord]? = nil
  ) -> JSON {
    var fields: [(String, JSON)] = [("id", .string(a.id))]
    if !version.isV3 {
      fields += [("deviceAssetId", .string(a.originalFileName)), ("deviceId", "CLI")]
    }
    fields += [
      ("ownerId", .string(a.ownerId)),
      ("libraryId", .null),
      ("type", .string(a.type.rawValue)),
      ("originalPath", .string(a.originalPath)),
      ("originalFileName", .string(a.originalFileName)),
      ("originalMimeType", .string(mimeType(a))),
      ("thumbhash", .null),
      ("fileCreatedAt", date(a.fileCreatedAt)),
      ("fileModifiedAt", date(a.fileModifiedAt)),
      ("localDateTime", date(a.fileCreatedAt)),
      ("updatedAt", date(a.updatedAt)),
      ("createdAt", date(a.createdAt)),
      ("isFavorite", .bool(a.isFavorite && a.ownerId == callerId)),
      ("isArchived", .bool(a.visibility == .archive)),
      ("isTrashed", .bool(a.deletedAt != nil)),
      ("isOffline", false),
      ("visibility", .string(a.visibility.rawValue)),
      ("duration", duration(a.durationMs, version)),
      ("livePhotoVideoId", JSON.from(a.livePhotoVideoId)),
      ("people", []),
      ("checksum", .string(Identifiers.base64(a.checksum))),
      ("stack", .null),
      ("duplicateId", .null),
      ("hasMetadata", true),
      ("width", .null),
      ("height", .null),
      ("isEdited", false),
      ("resized", true),
    ]
    if let tags {
      fields.append(("tags", .array(tags.sorted { $0.value < $1.value }.map(tag))))
    }
    return .object(fields)
  }

  /// `TagResponseDto`: `parentId` and `color` are omitted, not null, when unset.
  static func tag(_ t: TagRecord) -> JSON {
    var fields: [(String, JSON)] = [("id", .string(t.id))]
    if let parent = t.parentId { fields.append(("parentId", .string(parent))) }
    fields += [
      ("name", .string(t.name)), ("value", .string(t.value)),
      ("createdAt", date(t.createdAt)), ("updatedAt", date(t.updatedAt)),
    ]
    if let color = t.color { fields.append(("color", .string(color))) }
    return .object(fields)
  }

  /// `UserAdminResponseDto`.
  static func userAdmin(_ u: UserRecord) -> JSON {
    [
      "id": .string(u.id), "name": .string(u.name), "email": .string(u.email),
      "profileImagePath": "", "avatarColor": "primary", "profileChangedAt": date(u.createdAt),
      "storageLabel": u.isAdmin ? "admin" : .null, "shouldChangePassword": false,
      "isAdmin": .bool(u.isAdmin), "createdAt": date(u.createdAt), "deletedAt": .null,
      "updatedAt": date(u.createdAt), "oauthId": "", "quotaSizeInBytes": .null,
      "quotaUsageInBytes": 0, "status": "active", "license": .null,
    ]
  }

  /// `SyncAssetV2` (v3) or `SyncAssetV1` (v2: text duration, no `createdAt`, no `isEdited`).
  static func syncAsset(_ a: AssetRecord, version: ImmichVersion) -> JSON {
    var fields: [(String, JSON)] = [
      ("id", .string(a.id)), ("ownerId", .string(a.ownerId)),
      ("originalFileName", .string(a.originalFileName)), ("thumbhash", .null),
      ("checksum", .string(Identifiers.base64(a.checksum))),
      ("fileCreatedAt", date(a.fileCreatedAt)), ("fileModifiedAt", date(a.fileModifiedAt)),
    ]
    if version.isV3 { fields.append(("createdAt", date(a.createdAt))) }
    fields += [
      ("localDateTime", date(a.fileCreatedAt)),
      ("duration", duration(a.durationMs, version)),
      ("type", .string(a.type.rawValue)), ("deletedAt", date(a.deletedAt)),
      ("isFavorite", .bool(a.isFavorite)), ("visibility", .string(a.visibility.rawValue)),
      ("livePhotoVideoId", JSON.from(a.livePhotoVideoId)), ("stackId", .null),
      ("libraryId", .null), ("width", .null), ("height", .null),
    ]
    if version.isV3 { fields.append(("isEdited", false)) }
    return .object(fields)
  }
}

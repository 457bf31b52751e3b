import Foundation

/// The response DTOs, field for field as the OpenAPI document names them.
enum Rendering {
  static func date(_ date: Date) -> ImmichJSON { .string(Timestamps.format(date)) }
  static func date(_ date: Date?) -> ImmichJSON {
    date.map { .string(Timestamps.format($0)) } ?? .null
  }

  /// v3: integer milliseconds or null; v2: `"H:MM:SS.fffff"` text, zero for stills.
  static func duration(_ ms: Int?, _ version: ImmichVersion) -> ImmichJSON {
    if version.isV3 { return ImmichJSON.from(ms) }
    let total = ms ?? 0
    let hours = total / 3_600_000
    let minutes = total / 60_000 % 60
    let seconds = total / 1000 % 60
    let fraction = total % 1000 * 100
    return .string(
      "\(hours):" + String(format: "%02d:%02d.%05d", minutes, seconds, fraction))
  }

  /// Sync sends the column as it is: v2's `AssetResponseDto` fills `"0:00:00.00000"` in for a
  /// still, but its `SyncAssetV1` leaves the null.
  static func syncDuration(_ ms: Int?, _ version: ImmichVersion) -> ImmichJSON {
    ms == nil ? .null : duration(ms, version)
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

  /// What `GET /assets/:id` loads beyond a search row: the owner, EXIF, tags, and the stack
  /// (`mapAsset(…, {withStack: true})`).
  struct AssetDetail {
    var owner: UserRecord?
    var tags: [TagRecord]
  }

  /// `AssetResponseDto` as JSON text; `detail` only where the real endpoint loads it
  /// (`GET /assets/:id`): a search row has no `owner`, `exifInfo`, `tags` or `stack` key.
  /// Written straight into a string, not through `ImmichJSON`, because a search page holds up
  /// to a thousand of these and a full listing is 100,000.
  static func assetText(
    _ a: AssetRecord, version: ImmichVersion, callerId: String, detail: AssetDetail? = nil
  ) -> String {
    var out = ""
    out.reserveCapacity(900)
    func key(_ name: String) { out += ",\"\(name)\":" }
    func text(_ name: String, _ value: String) {
      key(name)
      ImmichJSON.writeString(value, into: &out)
    }
    func raw(_ name: String, _ value: String) {
      key(name)
      out += value
    }
    func date(_ name: String, _ value: Date) { raw(name, "\"\(Timestamps.format(value))\"") }
    out += "{\"id\":\"\(a.id)\""
    if !version.isV3 {
      text("deviceAssetId", a.originalFileName)
      raw("deviceId", "\"CLI\"")
    }
    raw("ownerId", "\"\(a.ownerId)\"")
    if let owner = detail?.owner { raw("owner", user(owner).serialized) }
    raw("libraryId", a.libraryId.map { "\"\($0)\"" } ?? "null")
    raw("type", "\"\(a.type.rawValue)\"")
    text("originalPath", a.originalPath)
    text("originalFileName", a.originalFileName)
    raw("originalMimeType", "\"\(mimeType(a))\"")
    raw("thumbhash", "null")
    date("fileCreatedAt", a.fileCreatedAt)
    date("fileModifiedAt", a.fileModifiedAt)
    date("localDateTime", a.fileCreatedAt)
    date("updatedAt", a.updatedAt)
    date("createdAt", a.createdAt)
    raw("isFavorite", String(a.isFavorite && a.ownerId == callerId))
    raw("isArchived", String(a.visibility == .archive))
    raw("isTrashed", String(a.deletedAt != nil))
    raw("isOffline", String(a.isOffline))
    raw("visibility", "\"\(a.visibility.rawValue)\"")
    raw("duration", duration(a.durationMs, version).serialized)
    raw("livePhotoVideoId", a.livePhotoVideoId.map { "\"\($0)\"" } ?? "null")
    raw("people", "[]")
    raw("checksum", "\"\(Identifiers.base64(a.checksum))\"")
    // `stack` is mapped only `withStack`; no asset of the double is stacked.
    if detail != nil { out += ",\"stack\":null" }
    out += ",\"duplicateId\":null,\"hasMetadata\":true,\"width\":null"
    out += ",\"height\":null,\"isEdited\":false,\"resized\":true"
    if let detail {
      raw("exifInfo", exif(a).serialized)
      raw(
        "tags", ImmichJSON.array(detail.tags.sorted { $0.value < $1.value }.map(tag)).serialized)
    }
    out += "}"
    return out
  }

  /// `TagResponseDto`: `parentId` and `color` are omitted, not null, when unset.
  static func tag(_ t: TagRecord) -> ImmichJSON {
    var fields: [(String, ImmichJSON)] = [("id", .string(t.id))]
    if let parent = t.parentId { fields.append(("parentId", .string(parent))) }
    fields += [
      ("name", .string(t.name)), ("value", .string(t.value)),
      ("createdAt", date(t.createdAt)), ("updatedAt", date(t.updatedAt)),
    ]
    if let color = t.color { fields.append(("color", .string(color))) }
    return .object(fields)
  }

  /// `UserResponseDto`: the `owner` of an asset.
  static func user(_ u: UserRecord) -> ImmichJSON {
    [
      "id": .string(u.id), "email": .string(u.email), "name": .string(u.name),
      "profileImagePath": "", "avatarColor": "primary", "profileChangedAt": date(u.createdAt),
    ]
  }

  /// `ExifResponseDto`: the double reads no metadata, so every field is null but the two it
  /// knows (`mapExif` sends every key).
  static func exif(_ a: AssetRecord) -> ImmichJSON {
    let unknown = [
      "make", "model", "exifImageWidth", "exifImageHeight", "fileSizeInByte", "orientation",
      "modifyDate", "timeZone", "lensModel", "fNumber", "focalLength", "iso", "exposureTime",
      "latitude", "longitude", "city", "state", "country", "description", "projectionType",
      "rating",
    ]
    return .object(
      [("dateTimeOriginal", date(a.fileCreatedAt))] + unknown.map { ($0, ImmichJSON.null) })
  }

  /// `SyncAuthUserV1`: the caller's own user row.
  static func syncAuthUser(_ u: UserRecord) -> ImmichJSON {
    [
      "id": .string(u.id), "name": .string(u.name), "email": .string(u.email),
      "avatarColor": .null, "deletedAt": .null, "hasProfileImage": false,
      "profileChangedAt": date(u.createdAt), "isAdmin": .bool(u.isAdmin), "oauthId": "",
      "pinCode": .null, "quotaSizeInBytes": .null, "quotaUsageInBytes": 0,
      "storageLabel": u.isAdmin ? "admin" : .null,
    ]
  }

  /// `UserAdminResponseDto`.
  static func userAdmin(_ u: UserRecord) -> ImmichJSON {
    [
      "id": .string(u.id), "name": .string(u.name), "email": .string(u.email),
      "profileImagePath": "", "avatarColor": "primary", "profileChangedAt": date(u.createdAt),
      "storageLabel": u.isAdmin ? "admin" : .null, "shouldChangePassword": false,
      "isAdmin": .bool(u.isAdmin), "createdAt": date(u.createdAt), "deletedAt": .null,
      "updatedAt": date(u.createdAt), "oauthId": "", "quotaSizeInBytes": .null,
      "quotaUsageInBytes": 0, "status": "active", "license": .null,
    ]
  }

  /// `SyncAssetV2` (v3) or `SyncAssetV1` (v2). docs/IMMICH-API.md §7.2: V1 has the same fields except a
  /// text `duration` and no `createdAt` — `isEdited` included.
  static func syncAsset(_ a: AssetRecord, version: ImmichVersion) -> ImmichJSON {
    var fields: [(String, ImmichJSON)] = [
      ("id", .string(a.id)), ("ownerId", .string(a.ownerId)),
      ("originalFileName", .string(a.originalFileName)), ("thumbhash", .null),
      ("checksum", .string(Identifiers.base64(a.checksum))),
      ("fileCreatedAt", date(a.fileCreatedAt)), ("fileModifiedAt", date(a.fileModifiedAt)),
    ]
    if version.isV3 { fields.append(("createdAt", date(a.createdAt))) }
    fields += [
      ("localDateTime", date(a.fileCreatedAt)),
      ("duration", syncDuration(a.durationMs, version)),
      ("type", .string(a.type.rawValue)), ("deletedAt", date(a.deletedAt)),
      ("isFavorite", .bool(a.isFavorite)), ("visibility", .string(a.visibility.rawValue)),
      ("livePhotoVideoId", ImmichJSON.from(a.livePhotoVideoId)), ("stackId", .null),
      ("libraryId", ImmichJSON.from(a.libraryId)), ("width", .null), ("height", .null),
      ("isEdited", false),
    ]
    return .object(fields)
  }
}

import Foundation

/// `POST /api/assets/bulk-upload-check` and the multipart upload `POST /api/assets`.
enum UploadRoutes {
  static let all: [Route] = [
    Route(
      "POST", "/api/assets/bulk-upload-check", .authenticated(permission: Permission.assetUpload)
    ) {
      store, call in
      var r = BodyReader(call)
      var items: [(id: String, checksum: String)] = []
      if let list = r.body["assets"], let array = list.arrayValue {
        for (i, item) in array.enumerated() {
          guard let id = item["id"]?.stringValue, let checksum = item["checksum"]?.stringValue
          else {
            r.fail(
              [.string("assets"), .number(Double(i))], "invalid_type",
              "Invalid input: expected object with string id and checksum")
            continue
          }
          items.append((id, checksum))
        }
      } else {
        _ = r.stringArray("assets", required: true)
      }
      try r.finish()
      let owner = try call.user.userId
      let results: [ImmichJSON] = items.map { item in
        guard
          let existing = store.ownAsset(owner, checksum: Identifiers.parseChecksum(item.checksum))
        else { return ["id": .string(item.id), "action": "accept"] }
        return [
          "id": .string(item.id), "action": "reject", "reason": "duplicate",
          "assetId": .string(existing.id), "isTrashed": .bool(existing.deletedAt != nil),
        ]
      }
      return .json(200, ["results": .array(results)])
    },
    Route("POST", "/api/assets", .authenticated(permission: Permission.assetUpload), upload),
  ]

  static let videoExtensions: Set<String> = [
    "3gp", "avi", "m4v", "mkv", "mov", "mp4", "mpg", "webm",
  ]

  static func upload(_ store: inout Store, _ call: RouteCall) throws(APIError) -> Reply {
    let owner = try call.user.userId
    // The interceptor answers a known `x-immich-checksum` before reading the file.
    if let header = call.request.header("x-immich-checksum"),
      let existing = store.ownAsset(owner, checksum: Identifiers.parseChecksum(header))
    {
      return .json(200, ["id": .string(existing.id), "status": "duplicate"])
    }
    let contentType = call.request.header("content-type") ?? ""
    guard let form = MultipartForm(body: call.request.body, contentType: contentType) else {
      throw APIError.badRequest("Expected multipart/form-data")
    }
    var fields: [(String, ImmichJSON)] = form.parts.filter { $0.filename == nil }.map {
      ($0.name, .string($0.text))
    }
    if let file = form.file("assetData") {
      fields.append(("assetData", .string(file.filename ?? "")))
    }
    var r = BodyReader(.object(fields), version: call.version)
    _ = r.string("assetData", required: true)
    let created = r.date("fileCreatedAt")
    let modified = r.date("fileModifiedAt")
    if !r.has("fileCreatedAt") { _ = r.string("fileCreatedAt", required: true) }
    if !r.has("fileModifiedAt") { _ = r.string("fileModifiedAt", required: true) }
    if !call.version.isV3 {
      _ = r.string("deviceAssetId", required: true)
      _ = r.string("deviceId", required: true)
    }
    // v3 declares `duration` as integer milliseconds (≥ 0); v2 took `H:MM:SS.fffff` text.
    if call.version.isV3, let text = form.field("duration"), UInt64(text) == nil {
      r.fail(
        [.string("duration")], "invalid_type", "Invalid input: expected number, received NaN",
        [("expected", "number")])
    }
    let visibility = r.option("visibility", AssetVisibility.self)
    let livePhotoVideoId = r.uuid("livePhotoVideoId")
    try r.finish()
    guard let file = form.file("assetData"), let created, let modified else {
      throw APIError.badRequest("Asset data is required")
    }
    let checksum = SHA1.digest(file.data)
    if let existing = store.ownAsset(owner, checksum: checksum) {
      return .json(200, ["id": .string(existing.id), "status": "duplicate"])
    }
    let name = form.field("filename") ?? file.filename ?? "upload"
    let ext = (name as NSString).pathExtension.lowercased()
    let isVideo = videoExtensions.contains(ext)
    var durationMs: Int?
    if let text = form.field("duration") { durationMs = Int(text) ?? parseLegacyDuration(text) }
    var record = AssetRecord(
      id: Identifiers.newAssetID(), ownerId: owner, checksum: checksum, originalFileName: name,
      type: isVideo ? .video : .image, visibility: visibility ?? .timeline,
      livePhotoVideoId: livePhotoVideoId, fileCreatedAt: created, fileModifiedAt: modified,
      createdAt: store.now, updatedAt: store.now, deletedAt: nil, status: .active,
      isFavorite: form.field("isFavorite") == "true", durationMs: isVideo ? durationMs : nil,
      updateId: "")
    record.updateId = store.nextUpdateId()
    store.insert(record)
    return .json(201, ["id": .string(record.id), "status": "created"])
  }

  /// v2 clients send `H:MM:SS.fffff`.
  static func parseLegacyDuration(_ text: String) -> Int? {
    let parts = text.split(separator: ":")
    guard parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]),
      let s = Double(parts[2])
    else { return nil }
    return Int(((h * 60 + m) * 60 + s) * 1000)
  }
}

extension Store {
  /// The caller's asset with this checksum, trashed or not (any library).
  func ownAsset(_ ownerId: String, checksum: [UInt8]) -> AssetRecord? {
    let ids = checksumIndex[ChecksumKey(ownerId: ownerId, checksum: checksum)] ?? []
    return ids.sorted().compactMap { assets[$0] }.first
  }
}

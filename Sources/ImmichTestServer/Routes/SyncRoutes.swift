import Foundation

/// `/api/sync/stream` and `/api/sync/ack`: sessions only, checkpoints per session.
enum SyncRoutes {
  static let all: [Route] = [
    Route("POST", "/api/sync/stream", .authenticated(permission: Permission.syncStream), stream),
    Route("GET", "/api/sync/ack", .authenticated(permission: Permission.syncCheckpointRead)) {
      store, call in
      let session = try sessionOf(call, in: store)
      let acks = session.checkpoints.sorted { $0.key < $1.key }.map {
        ImmichJSON.object([("type", .string($0.key)), ("ack", .string($0.value))])
      }
      return .json(200, .array(acks))
    },
    Route("POST", "/api/sync/ack", .authenticated(permission: Permission.syncCheckpointUpdate)) {
      store, call in
      var r = BodyReader(call)
      let acks = r.stringArray("acks", required: true, maxCount: 1000) ?? []
      try r.finish()
      var session = try sessionOf(call, in: store)
      // kysely builds invalid SQL for an empty `values([])`; the error interceptor names the
      // handler (docs/IMMICH-API.md §7.3).
      guard !acks.isEmpty else { throw APIError(status: 500, message: "Failed to send sync ack") }
      var checkpoints: [String: String] = [:]
      for ack in acks {
        let type = String(ack.split(separator: "|", omittingEmptySubsequences: false).first ?? "")
        guard entityTypes.contains(type) else {
          throw APIError.badRequest("Invalid ack type: \(type)")
        }
        if type == "SyncResetV1" {
          store.resetSync(session.id)
          return .empty(204)
        }
        checkpoints[type] = ack
      }
      // The last ack per type wins; the server does not compare them with stored ones.
      session.checkpoints.merge(checkpoints) { $1 }
      store.sessions[session.id]?.checkpoints = session.checkpoints
      return .empty(204)
    },
    Route("DELETE", "/api/sync/ack", .authenticated(permission: Permission.syncCheckpointDelete)) {
      store, call in
      var r = BodyReader(call)
      let types = r.stringArray("types")
      for (i, type) in (types ?? []).enumerated() where !entityTypes.contains(type) {
        r.invalidOption([.string("types"), .number(Double(i))], entityTypes)
      }
      try r.finish()
      let session = try sessionOf(call, in: store)
      if let types {
        for type in types { store.sessions[session.id]?.checkpoints[type] = nil }
      } else {
        store.sessions[session.id]?.checkpoints = [:]
      }
      return .empty(204)
    },
  ]

  static func stream(_ store: inout Store, _ call: RouteCall) throws(APIError) -> Reply {
    var r = BodyReader(call)
    let types = r.stringArray("types", required: true) ?? []
    let allowed = requestTypes(call.version)
    for (i, type) in types.enumerated() where !allowed.contains(type) {
      r.invalidOption([.string("types"), .number(Double(i))], allowed)
    }
    let reset = r.bool("reset") ?? false
    try r.finish()
    let session = try sessionOf(call, in: store)
    if call.version.isV3 {
      for (old, new) in deprecatedV3 where types.contains(old) {
        throw APIError.badRequest(
          "SyncRequestType.\(old) is deprecated, use SyncRequestType.\(new) instead")
      }
    }
    return .jsonLines(store.syncLines(session: session.id, types: Set(types), reset: reset))
  }

  /// `throwSessionRequired`, after the permission guard and validation have passed.
  static func sessionOf(_ call: RouteCall, in store: Store) throws(APIError) -> SessionRecord {
    guard let id = try call.user.session?.id, let session = store.sessions[id] else {
      throw APIError.forbidden("Sync endpoints cannot be used with API keys")
    }
    return session
  }

  static let deprecatedV3: [(String, String)] = [
    ("AssetsV1", "AssetsV2"), ("PartnerAssetsV1", "PartnerAssetsV2"),
    ("AlbumAssetsV1", "AlbumAssetsV2"), ("AssetFacesV1", "AssetFacesV2"),
  ]

  static let allRequestTypes = [
    "AlbumsV1", "AlbumsV2", "AlbumUsersV1", "AlbumToAssetsV1", "AlbumAssetsV1", "AlbumAssetsV2",
    "AlbumAssetExifsV1", "AssetsV1", "AssetsV2", "AssetExifsV1", "AssetEditsV1", "AssetMetadataV1",
    "AssetOcrV1", "AuthUsersV1", "MemoriesV1", "MemoryToAssetsV1", "PartnersV1", "PartnerAssetsV1",
    "PartnerAssetsV2", "PartnerAssetExifsV1", "PartnerStacksV1", "StacksV1", "UsersV1", "PeopleV1",
    "AssetFacesV1", "AssetFacesV2", "UserMetadataV1", "AuthUsersV2", "MemoriesV2",
    "MemoryToAssetsV2", "AssetFacesV3",
  ]

  /// The V2 request types arrived with 3.0; 3.3 added four more (docs/IMMICH-API.md §17).
  static func requestTypes(_ version: ImmichVersion) -> [String] {
    let v3Only: Set<String> = [
      "AlbumsV2", "AlbumAssetsV2", "AssetsV2", "PartnerAssetsV2", "AssetFacesV2",
    ]
    let v3_3Only: Set<String> = ["AuthUsersV2", "MemoriesV2", "MemoryToAssetsV2", "AssetFacesV3"]
    return allRequestTypes.filter {
      (version.isV3 || !v3Only.contains($0)) && (version.has3_3Additions || !v3_3Only.contains($0))
    }
  }

  static let entityTypes = [
    "AuthUserV1", "UserV1", "UserDeleteV1", "AssetV1", "AssetV2", "AssetDeleteV1", "AssetExifV1",
    "AssetEditV1", "AssetEditDeleteV1", "AssetMetadataV1", "AssetMetadataDeleteV1", "AssetOcrV1",
    "AssetOcrDeleteV1", "PartnerV1", "PartnerDeleteV1", "PartnerAssetV1", "PartnerAssetV2",
    "PartnerAssetBackfillV1", "PartnerAssetBackfillV2", "PartnerAssetDeleteV1",
    "PartnerAssetExifV1", "PartnerAssetExifBackfillV1", "PartnerStackBackfillV1",
    "PartnerStackDeleteV1", "PartnerStackV1", "AlbumV1", "AlbumV2", "AlbumDeleteV1", "AlbumUserV1",
    "AlbumUserBackfillV1", "AlbumUserDeleteV1", "AlbumAssetCreateV1", "AlbumAssetCreateV2",
    "AlbumAssetUpdateV1", "AlbumAssetUpdateV2", "AlbumAssetBackfillV1", "AlbumAssetBackfillV2",
    "AlbumAssetExifCreateV1", "AlbumAssetExifUpdateV1", "AlbumAssetExifBackfillV1",
    "AlbumToAssetV1", "AlbumToAssetDeleteV1", "AlbumToAssetBackfillV1", "MemoryV1",
    "MemoryDeleteV1", "MemoryToAssetV1", "MemoryToAssetDeleteV1", "StackV1", "StackDeleteV1",
    "PersonV1", "PersonDeleteV1", "AssetFaceV1", "AssetFaceV2", "AssetFaceDeleteV1",
    "UserMetadataV1", "UserMetadataDeleteV1", "SyncAckV1", "SyncResetV1", "SyncCompleteV1",
  ]
}

extension Store {
  /// Clears a session's checkpoints and its pending-reset flag.
  mutating func resetSync(_ sessionId: String) {
    sessions[sessionId]?.checkpoints = [:]
    sessions[sessionId]?.isPendingSyncReset = false
  }

  /// The complete-ack is stale when older than 30 days: the client must start over.
  func needsFullSync(_ session: SessionRecord) -> Bool {
    guard let ack = session.checkpoints["SyncCompleteV1"] else { return false }
    let parts = ack.split(separator: "|")
    guard parts.count >= 2, let millis = UpdateIDClock.millis(of: String(parts[1])) else {
      return false
    }
    let ackDate = Date(timeIntervalSince1970: Double(millis) / 1000)
    return now.timeIntervalSince(ackDate) > 30 * 24 * 3600
  }

  /// The stream's lines: a lone reset, or deletes, then upserts, each in `updateId` order after
  /// the session's ack, then `SyncCompleteV1`.
  mutating func syncLines(session id: String, types: Set<String>, reset: Bool) -> [ImmichJSON] {
    if reset { resetSync(id) }
    guard let session = sessions[id] else { return [] }
    if session.isPendingSyncReset || needsFullSync(session) {
      return [["type": "SyncResetV1", "data": [:], "ack": "SyncResetV1|reset"]]
    }
    let nowId = nextUpdateId()
    var lines: [ImmichJSON] = []
    // `SYNC_TYPES_ORDER`: the caller's own user comes before assets.
    if types.contains("AuthUsersV1"), let user = users[session.userId] {
      let ack = Store.ackedId(session.checkpoints["AuthUserV1"])
      if user.updateId > ack && user.updateId < nowId {
        lines.append([
          "type": "AuthUserV1", "data": Rendering.syncAuthUser(user),
          "ack": .string("AuthUserV1|\(user.updateId)"),
        ])
      }
    }
    let upsertType = version.isV3 ? "AssetV2" : "AssetV1"
    if types.contains(version.isV3 ? "AssetsV2" : "AssetsV1") {
      let deleteAck = Store.ackedId(session.checkpoints["AssetDeleteV1"])
      let deletes = audit.filter {
        $0.ownerId == session.userId && $0.id > deleteAck && $0.id < nowId
      }
      for row in deletes.sorted(by: { $0.id < $1.id }) {
        lines.append([
          "type": "AssetDeleteV1", "data": ["assetId": .string(row.assetId)],
          "ack": .string("AssetDeleteV1|\(row.id)"),
        ])
      }
      let upsertAck = Store.ackedId(session.checkpoints[upsertType])
      // No visibility or trash filter: hidden, locked, archived and trashed rows all go out.
      let upserts = assets.values.filter {
        $0.ownerId == session.userId && $0.updateId > upsertAck && $0.updateId < nowId
      }
      for asset in upserts.sorted(by: { $0.updateId < $1.updateId }) {
        lines.append([
          "type": .string(upsertType), "data": Rendering.syncAsset(asset, version: version),
          "ack": .string("\(upsertType)|\(asset.updateId)"),
        ])
      }
    }
    lines.append(["type": "SyncCompleteV1", "data": [:], "ack": .string("SyncCompleteV1|\(nowId)")])
    return lines
  }

  /// The `updateId` part of an ack string, or "" (before everything) when none is stored.
  static func ackedId(_ ack: String?) -> String {
    guard let ack else { return "" }
    let parts = ack.split(separator: "|", omittingEmptySubsequences: false)
    return parts.count >= 2 ? String(parts[1]) : ""
  }
}

/// `GET /api/assets/:id` and `DELETE /api/assets`.
enum AssetRoutes {
  static let all: [Route] = [
    Route("DELETE", "/api/assets", .authenticated(permission: Permission.assetDelete)) {
      store, call in
      var r = BodyReader(call)
      let ids = r.uuidArray("ids", required: true) ?? []
      let force = r.bool("force") ?? false
      try r.finish()
      let caller = try call.user
      guard store.canDeleteAll(ids, userId: caller.userId) else {
        throw APIError.noAccess(Permission.assetDelete)
      }
      // Exactly the listed ids: a Live Photo's video stays where it is. `force` only marks
      // the rows `deleted`; they stay readable until the purge job removes them.
      let now = store.now
      for id in ids {
        store.update(id) {
          $0.deletedAt = now
          $0.status = force ? .deleted : .trashed
        }
      }
      return .empty(204)
    },
    Route("GET", "/api/assets/:id", .authenticated(permission: Permission.assetRead)) {
      store, call in
      let caller = try call.user
      guard let asset = store.assets[call.param("id")], asset.visibility != .locked,
        store.canSee(asset, userId: caller.userId)
      else { throw APIError.noAccess(Permission.assetRead) }
      let detail = Rendering.AssetDetail(
        owner: store.users[asset.ownerId],
        tags: (store.assetTags[asset.id] ?? []).compactMap { store.tags[$0] })
      return .jsonText(
        200,
        Rendering.assetText(asset, version: call.version, callerId: caller.userId, detail: detail))
    },
  ]
}

/// `/api/trash/*`: all answer `{"count": n}`.
enum TrashRoutes {
  static let all: [Route] = [
    Route("POST", "/api/trash/restore/assets", .authenticated(permission: Permission.assetDelete)) {
      store, call in
      var r = BodyReader(call)
      let ids = r.uuidArray("ids", required: true) ?? []
      try r.finish()
      guard !ids.isEmpty else { return .json(200, ["count": 0]) }
      guard store.canDeleteAll(ids, userId: try call.user.userId) else {
        throw APIError.noAccess(Permission.assetDelete)
      }
      for id in ids where store.assets[id]?.status == .trashed {
        store.update(id) {
          $0.deletedAt = nil
          $0.status = .active
        }
      }
      // The real count is ids.length, whether or not each row was trashed.
      return .json(200, ["count": .number(Double(ids.count))])
    },
    Route("POST", "/api/trash/restore", .authenticated(permission: Permission.assetDelete)) {
      store, call in
      let trashed = store.trashedIds(of: try call.user.userId)
      for id in trashed {
        store.update(id) {
          $0.deletedAt = nil
          $0.status = .active
        }
      }
      return .json(200, ["count": .number(Double(trashed.count))])
    },
    Route("POST", "/api/trash/empty", .authenticated(permission: Permission.assetDelete)) {
      store, call in
      // `status` trashed → deleted; `deletedAt` stays. Offline assets are `active` and stay.
      let trashed = store.trashedIds(of: try call.user.userId)
      for id in trashed { store.update(id) { $0.status = .deleted } }
      return .json(200, ["count": .number(Double(trashed.count))])
    },
  ]
}

extension Store {
  func trashedIds(of userId: String) -> [String] {
    assets.values.filter { $0.ownerId == userId && $0.status == .trashed }.map(\.id).sorted()
  }
}

import Foundation

/// `/api/albums*` as the web app uses them to file and share photos, and as `cairn-fetch` reads
/// them (docs/IMMICH-API.md §16). `GET /albums/:id` returns no `assets` (3.x's
/// `AlbumResponseDto` has none): membership is read by searching with `albumIds`.
enum AlbumRoutes {
  static let all: [Route] = [
    Route("GET", "/api/albums", .authenticated(permission: Permission.albumRead)) { store, call in
      let userId = try call.user.userId
      let listed = try store.albumsListed(
        for: userId, query: call.request.query, v3: call.version.isV3)
      return .json(200, .array(listed.map { Rendering.album($0, store) }))
    },
    Route("POST", "/api/albums", .authenticated(permission: Permission.albumCreate)) {
      store, call in
      var r = BodyReader(call)
      let name = r.string("albumName", required: true) ?? ""
      let assetIds = r.uuidArray("assetIds") ?? []
      let members = readMembers(&r)
      try r.finish()
      let userId = try call.user.userId
      var album = AlbumRecord(
        id: Identifiers.newAssetID(), ownerId: userId, albumName: name, assetIds: [],
        createdAt: store.now, updatedAt: store.now)
      for (memberId, role) in members where memberId != userId {
        if role == "owner" { throw APIError.badRequest("Cannot add another owner") }
        guard store.users[memberId] != nil else { throw APIError.badRequest("Invalid user") }
        album.members[memberId] = AlbumRole(rawValue: role)
      }
      // Assets the caller may not share are dropped, as `checkAccess` leaves them out.
      for id in assetIds.map({ $0.lowercased() }) {
        if let asset = store.assets[id], store.mayFile(asset, userId) {
          album.assetIds.insert(id)
        }
      }
      store.albums[album.id] = album
      return .json(201, Rendering.album(album, store))
    },
    Route("GET", "/api/albums/:id", .authenticated(permission: Permission.albumRead)) {
      store, call in
      let album = try store.readableAlbum(
        call.param("id"), try call.user.userId, Permission.albumRead)
      return .json(200, Rendering.album(album, store))
    },
    Route("PUT", "/api/albums/:id/assets", .authenticated(permission: Permission.albumAssetCreate))
    { store, call in
      var r = BodyReader(call)
      let ids = r.uuidArray("ids", required: true) ?? []
      try r.finish()
      let userId = try call.user.userId
      guard var album = store.albums[call.param("id").lowercased()], album.canAddAssets(userId)
      else { throw APIError.noAccess(Permission.albumAssetCreate) }
      // `addAssets` (`utils/asset.util.ts`): an id already in the album is a duplicate before
      // access is asked; then `asset.share`, which owners and partners have.
      var results: [ImmichJSON] = []
      for id in ids.map({ $0.lowercased() }) {
        var fields: [(String, ImmichJSON)] = [("id", .string(id))]
        if album.assetIds.contains(id) {
          fields += [("success", .bool(false)), ("error", .string("duplicate"))]
        } else if let asset = store.assets[id], store.mayFile(asset, userId) {
          album.assetIds.insert(id)
          fields.append(("success", .bool(true)))
        } else {
          fields += [("success", .bool(false)), ("error", .string("no_permission"))]
        }
        results.append(.object(fields))
      }
      album.updatedAt = store.now
      store.albums[album.id] = album
      return .json(200, .array(results))
    },
  ]

  /// `albumUsers: [{userId, role}]` (`AlbumUserCreateDto`): the ids and role names, each
  /// checked as zod checks them.
  static func readMembers(_ r: inout BodyReader) -> [(String, String)] {
    guard let value = r.body["albumUsers"], value != .null else { return [] }
    guard let items = value.arrayValue else {
      r.fail(
        [.string("albumUsers")], "invalid_type",
        "Invalid input: expected array, received \(value.typeName)", [("expected", "array")])
      return []
    }
    var members: [(String, String)] = []
    for (i, item) in items.enumerated() {
      var m = BodyReader(item, version: r.version)
      let userId = m.uuid("userId", required: true)
      let role = m.string("role", required: true)
      let roles = ["editor", "owner", "viewer"]
      if let role, !roles.contains(role) { m.invalidOption([.string("role")], roles) }
      let at: [ImmichJSON] = [.string("albumUsers"), .number(Double(i))]
      if case .object = item {
        for issue in m.issues { r.fail(at + issue.path, issue.code, issue.message, issue.extra) }
      } else {
        r.fail(
          at, "invalid_type", "Invalid input: expected object, received \(item.typeName)",
          [("expected", "object")])
      }
      if m.issues.isEmpty, let userId, let role { members.append((userId.lowercased(), role)) }
    }
    return members
  }
}

extension Rendering {
  /// `AlbumResponseDto`'s required fields: `albumUsers` lists the owner first, then the
  /// members with their roles; `assetCount` is `Store.assetCount(of:)`.
  static func album(_ a: AlbumRecord, _ store: Store) -> ImmichJSON {
    var users: [ImmichJSON] = []
    if let owner = store.users[a.ownerId] {
      users.append(.object([("user", Rendering.user(owner)), ("role", .string("owner"))]))
    }
    for (id, role) in a.members.sorted(by: { $0.key < $1.key }) {
      guard let user = store.users[id] else { continue }
      users.append(.object([("user", Rendering.user(user)), ("role", .string(role.rawValue))]))
    }
    let thumbnail: ImmichJSON = a.assetIds.sorted().first.map { .string($0) } ?? .null
    return .object([
      ("id", .string(a.id)), ("albumName", .string(a.albumName)), ("description", .string("")),
      ("albumThumbnailAssetId", thumbnail),
      ("albumUsers", .array(users)), ("assetCount", .number(Double(store.assetCount(of: a)))),
      ("createdAt", date(a.createdAt)), ("updatedAt", date(a.updatedAt)),
      ("hasSharedLink", .bool(false)), ("isActivityEnabled", .bool(true)),
      ("shared", .bool(a.isShared)),
    ])
  }
}

extension Store {
  /// `asset.share`, which filing asks for: the owner (a locked asset only with the PIN
  /// elevation no API key has) and any partner sharing with the caller.
  func mayFile(_ asset: AssetRecord, _ userId: String) -> Bool {
    asset.visibility != .locked && canShare(asset, userId: userId)
  }
}

import Foundation

/// One album (`album` and `album_asset` rows): only the owner's own albums; sharing is not
/// modelled, so "albums the user can see" are the ones they own.
struct AlbumRecord: Sendable {
  var id: String
  var ownerId: String
  var albumName: String
  var assetIds: Set<String>
  var createdAt: Date
  var updatedAt: Date
}

/// `/api/albums*` as the web app uses them to file photos, and as `cairn-fetch` reads them
/// (docs/IMMICH-API.md §16). `GET /albums/:id` returns no `assets` (3.x's
/// `AlbumResponseDto` has none): membership is read by searching with `albumIds`.
enum AlbumRoutes {
  static let all: [Route] = [
    Route("GET", "/api/albums", .authenticated(permission: Permission.albumRead)) { store, call in
      let userId = try call.user.userId
      // No album is shared in the double, so asking for shared ones (`shared` before 3.0,
      // `isShared` in 3.x) finds none.
      let query = call.request.query
      if query["shared"] == "true" || query["isShared"] == "true" { return .json(200, .array([])) }
      let own = store.albums.values.filter { $0.ownerId == userId }.sorted { $0.id < $1.id }
      return .json(200, .array(own.map { Rendering.album($0, store) }))
    },
    Route("POST", "/api/albums", .authenticated(permission: Permission.albumCreate)) {
      store, call in
      var r = BodyReader(call)
      let name = r.string("albumName", required: true) ?? ""
      let assetIds = r.uuidArray("assetIds") ?? []
      try r.finish()
      let userId = try call.user.userId
      let now = store.now
      var album = AlbumRecord(
        id: Identifiers.newAssetID(), ownerId: userId, albumName: name, assetIds: [],
        createdAt: now, updatedAt: now)
      // Assets the caller cannot reach are dropped, as `checkAccess` leaves them out.
      for id in assetIds.map({ $0.lowercased() }) where store.assets[id]?.ownerId == userId {
        album.assetIds.insert(id)
      }
      store.albums[album.id] = album
      return .json(201, Rendering.album(album, store))
    },
    Route("GET", "/api/albums/:id", .authenticated(permission: Permission.albumRead)) {
      store, call in
      let album = try store.ownAlbum(call.param("id"), try call.user.userId, Permission.albumRead)
      return .json(200, Rendering.album(album, store))
    },
    Route("PUT", "/api/albums/:id/assets", .authenticated(permission: Permission.albumAssetCreate))
    { store, call in
      var r = BodyReader(call)
      let ids = r.uuidArray("ids", required: true) ?? []
      try r.finish()
      let userId = try call.user.userId
      var album = try store.ownAlbum(call.param("id"), userId, Permission.albumAssetCreate)
      var results: [ImmichJSON] = []
      for id in ids.map({ $0.lowercased() }) {
        var fields: [(String, ImmichJSON)] = [("id", .string(id))]
        if store.assets[id]?.ownerId != userId {
          fields += [("success", .bool(false)), ("error", .string("no_permission"))]
        } else if !album.assetIds.insert(id).inserted {
          fields += [("success", .bool(false)), ("error", .string("duplicate"))]
        } else {
          fields.append(("success", .bool(true)))
        }
        results.append(.object(fields))
      }
      album.updatedAt = store.now
      store.albums[album.id] = album
      return .json(200, .array(results))
    },
  ]
}

extension Store {
  func ownAlbum(_ id: String, _ userId: String, _ permission: String) throws(APIError)
    -> AlbumRecord
  {
    guard let album = albums[id.lowercased()], album.ownerId == userId else {
      throw APIError.noAccess(permission)
    }
    return album
  }

  /// The album ids holding `assetId`, for the search filters.
  func albumIds(holding assetId: String) -> Set<String> {
    Set(albums.values.filter { $0.assetIds.contains(assetId) }.map(\.id))
  }
}

extension Rendering {
  /// `AlbumResponseDto`'s required fields; `albumUsers` starts with the owner.
  static func album(_ a: AlbumRecord, _ store: Store) -> ImmichJSON {
    var owner: [ImmichJSON] = []
    if let user = store.users[a.ownerId] {
      owner.append(.object([("user", Rendering.user(user)), ("role", .string("owner"))]))
    }
    let thumbnail: ImmichJSON = a.assetIds.sorted().first.map { .string($0) } ?? .null
    return .object([
      ("id", .string(a.id)), ("albumName", .string(a.albumName)), ("description", .string("")),
      ("albumThumbnailAssetId", thumbnail),
      ("albumUsers", .array(owner)), ("assetCount", .number(Double(a.assetIds.count))),
      ("createdAt", date(a.createdAt)), ("updatedAt", date(a.updatedAt)),
      ("hasSharedLink", .bool(false)), ("isActivityEnabled", .bool(true)),
      ("shared", .bool(false)),
    ])
  }
}

import Foundation

/// Which of the user's assets are in one of their albums, read fresh on every run (never
/// cached: a photo filed in the web app yesterday is protected today). Album protection is
/// a rule of `cairn-reconcile`; this only learns the fact.
package enum AlbumMembership: Sendable, Equatable {
  /// The ids (lower-case) of every asset in an album the key can read.
  case known(Set<String>)
  /// The key may not read albums (`album.read`): protection is off, and this says why.
  case unreadable(String)

  /// `GET /api/albums` (owned and shared with the user), then each album's assets by
  /// `POST /api/search/metadata` with `albumIds` (docs/IMMICH-API.md §16: 3.x's album
  /// response carries no assets). A 403 turns protection off; any other failure fails the
  /// run, since a listing that silently lost its albums would trash filed photos.
  ///
  /// Every album is searched, whatever its `assetCount`: the count leaves out hidden, locked
  /// and trashed assets (a Live Photo's motion video filed alone counts 0) and is read before
  /// the search, so an album that reports 0 can still hold a photo cairn would trash.
  package static func read(_ client: ImmichClient) async throws(ImmichError) -> AlbumMembership {
    let albums: [AlbumSummary]
    do {
      albums = try await client.albums()
    } catch let error where error.kind == .forbidden {
      return .unreadable(
        "the API key lacks album.read, so photos in albums are not protected (they do not "
          + "wait for review)")
    }
    // Before 3.0 a search without `visibility` finds the timeline alone: an archived photo
    // or a hidden motion video in an album is asked for by name, every visibility the
    // listing lists (docs/IMMICH-API.md §3).
    let isV3 = client.serverVersion.map { $0.major >= 3 } ?? true
    let visibilities: [AssetVisibility?] = isV3 ? [nil] : AssetVisibility.listed
    var ids = Set<String>()
    for album in albums {
      for visibility in visibilities {
        var query = MetadataQuery(visibility: visibility)
        query.albumIds = [album.id]
        for asset in try await client.searchAll(query) { ids.insert(asset.id.lowercased()) }
      }
    }
    return .known(ids)
  }

  package var isUnreadable: Bool {
    if case .unreadable = self { return true }
    return false
  }

  /// Whether `assetId` is in an album (never, when the albums could not be read).
  package func contains(_ assetId: String) -> Bool {
    guard case .known(let ids) = self else { return false }
    return ids.contains(assetId.lowercased())
  }
}

/// The fields of `AlbumResponseDto` cairn reads. Not `assetCount`: which albums to search
/// never rests on it (see `read`).
package struct AlbumSummary: Decodable, Sendable, Equatable {
  package var id: String
  package var albumName: String
}

extension ImmichClient {
  /// The albums the user owns and those shared with them (`album.read`), by id. Before 3.0,
  /// `GET /api/albums` alone answers the owned albums and `shared=true` those shared with or
  /// by the user; 3.x names the filter `isShared` (docs/IMMICH-API.md §16). Both are asked
  /// and joined, so neither reading of the unfiltered request can lose an album.
  package func albums() async throws(ImmichError) -> [AlbumSummary] {
    let isV3 = serverVersion.map { $0.major >= 3 } ?? true
    let shared = isV3 ? "/albums?isShared=true" : "/albums?shared=true"
    var byId: [String: AlbumSummary] = [:]
    for path in ["/albums", shared] {
      for album in try await get(path, as: [AlbumSummary].self) { byId[album.id] = album }
    }
    return byId.values.sorted { $0.id < $1.id }
  }
}

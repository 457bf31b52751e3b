import Foundation

/// The filters of `MetadataSearchDto` that the double models, already validated and with the
/// version's defaults applied.
struct AssetQuery: Sendable {
  enum VisibilityFilter: Sendable, Equatable {
    case only(AssetVisibility)
    /// v3's default: everything but `locked` (timeline, archive and hidden).
    case notLocked
  }

  enum TagFilter: Sendable, Equatable {
    case any
    /// `tagIds: null`: assets with no tags.
    case untagged
    /// AND over the ids, each matching its descendants through the closure table.
    case all([String])
  }

  /// `libraryId`: absent (any), null (the upload library) or one external library.
  enum LibraryFilter: Sendable, Equatable {
    case any
    case uploads
    case library(String)
  }

  var owners: Set<String>
  var id: String?
  var checksum: [UInt8]?
  var originalFileName: String?
  var type: AssetType?
  var visibility: VisibilityFilter
  var isFavorite: Bool?
  var isMotion: Bool?
  var withDeleted = false
  var takenAfter: Date?
  var takenBefore: Date?
  var createdAfter: Date?
  var createdBefore: Date?
  var updatedAfter: Date?
  var updatedBefore: Date?
  var trashedAfter: Date?
  var trashedBefore: Date?
  var tags: TagFilter = .any
  var library: LibraryFilter = .any
  var isOffline: Bool?
  /// People are not modelled: asking for any makes nothing match.
  var matchesNothing = false
  /// Albums every match is in (the flat `albumIds` is AND).
  var albumIds: Set<String> = []
  /// 3.2's structured `filter`, ANDed with the rest.
  var filter: SearchFilter?

  /// Reads the search body. `paging` adds `page`, `size` and `order`, which statistics lacks.
  static func parse(
    _ body: ImmichJSON?, caller: Caller, store: Store, paging: Bool
  ) throws(APIError) -> (AssetQuery, page: Int, size: Int, descending: Bool) {
    // `StatisticsSearchDto` lacks the result-shaping and per-asset fields of
    // `MetadataSearchDto` (id, checksum, names, paths, withDeleted, with*, paging); zod strips
    // them, so statistics ignores them. Trash dates still imply withDeleted there.
    var r = BodyReader(
      paging ? body : body?.removing(Self.metadataOnlyKeys), version: store.version)
    let id = r.uuid("id")
    let checksum = r.string("checksum")
    let fileName = r.string("originalFileName")
    // Declared but not modelled (no EXIF, OCR or derived files): type-checked like zod does.
    for key in ["city", "country", "state", "make", "model", "lensModel", "description", "ocr"]
      + ["originalPath", "previewPath", "thumbnailPath", "encodedVideoPath"]
    {
      _ = r.string(key)
    }
    // v2.6 deprecated -1 ("unrated"); v3 refuses it.
    _ = r.int("rating", min: store.version.isV3 ? 1 : -1, max: 5)
    let type = r.option("type", AssetType.self)
    let visibility = r.option("visibility", AssetVisibility.self)
    let isFavorite = r.bool("isFavorite")
    let isMotion = r.bool("isMotion")
    let isOffline = r.bool("isOffline")
    let withDeleted = r.bool("withDeleted")
    _ = (r.bool("withExif"), r.bool("withPeople"), r.bool("withStacked"), r.bool("isEncoded"))
    _ = r.bool("isNotInAlbum")
    let dates = [
      "takenAfter", "takenBefore", "createdAfter", "createdBefore", "updatedAfter",
      "updatedBefore", "trashedAfter", "trashedBefore",
    ].map { r.date($0) }
    var tags = TagFilter.any
    if let value = r.body["tagIds"] {
      if value == .null {
        tags = .untagged
      } else if let ids = r.uuidArray("tagIds") {
        // The ids reach SQL, whose uuid cast matches any case.
        tags = .all(ids.map { $0.lowercased() })
      }
    }
    let people = r.uuidArray("personIds") ?? []
    let albums = r.uuidArray("albumIds") ?? []
    let libraryId = r.uuid("libraryId")
    var page = 1
    var size = 250
    var descending = true
    if paging {
      page = r.int("page", min: 1) ?? 1
      size = r.int("size", min: 1, max: 1000) ?? 250
      if let order = r.string("order") {
        if order == "asc" || order == "desc" {
          descending = order == "desc"
        } else {
          r.invalidOption([.string("order")], ["asc", "desc"])
        }
      }
    }
    try r.finish()
    // Searching an album needs read access to it (`requireAccess` with `album.read`).
    try store.requireReadable(albums: albums, caller.userId)

    let filter: VisibilityFilter
    if let visibility {
      // Neither API keys nor sessions without PIN elevation may see the locked folder.
      if visibility == .locked { throw APIError.unauthorized("Elevated permission is required") }
      filter = .only(visibility)
    } else {
      filter = store.version.isV3 ? .notLocked : .only(.timeline)
    }
    var query = AssetQuery(
      owners: store.searchableOwners(for: caller.userId), id: id?.lowercased(),
      checksum: checksum.map(Identifiers.parseChecksum), originalFileName: fileName?.lowercased(),
      type: type, visibility: filter, isFavorite: isFavorite, isMotion: isMotion)
    query.takenAfter = dates[0]
    query.takenBefore = dates[1]
    query.createdAfter = dates[2]
    query.createdBefore = dates[3]
    query.updatedAfter = dates[4]
    query.updatedBefore = dates[5]
    query.trashedAfter = dates[6]
    query.trashedBefore = dates[7]
    query.withDeleted =
      (withDeleted ?? false) || dates[6] != nil || dates[7] != nil || isOffline != nil
    query.tags = tags
    query.isOffline = isOffline
    if let libraryId {
      query.library = .library(libraryId.lowercased())
    } else if r.body["libraryId"] == .null {
      query.library = .uploads
    }
    query.matchesNothing = !people.isEmpty
    query.albumIds = Set(albums.map { $0.lowercased() })
    return (query, page, size, descending)
  }

  /// Every flat field of `MetadataSearchDto`, deprecated in 3.2 except `size` and `with*`.
  static let flatKeys: Set<String> = [
    "id", "checksum", "deviceAssetId", "deviceId", "originalFileName", "originalPath",
    "previewPath", "thumbnailPath", "encodedVideoPath", "city", "country", "state", "make",
    "model", "lensModel", "description", "ocr", "rating", "type", "visibility", "isFavorite",
    "isMotion", "isOffline", "isEncoded", "isNotInAlbum", "withDeleted", "libraryId", "tagIds",
    "personIds", "albumIds", "takenAfter", "takenBefore", "createdAfter", "createdBefore",
    "updatedAfter", "updatedBefore", "trashedAfter", "trashedBefore", "page", "order", "size",
    "withExif", "withPeople", "withStacked",
  ]

  static let metadataOnlyKeys: Set<String> = [
    "id", "checksum", "originalFileName", "originalPath", "previewPath", "thumbnailPath",
    "encodedVideoPath", "deviceAssetId", "withDeleted", "withExif", "withPeople", "withStacked",
    "page", "size", "order",
  ]

  func matches(_ a: AssetRecord, in store: Store) -> Bool {
    if matchesNothing || !owners.contains(a.ownerId) { return false }
    if let filter, !filter.matches(a, in: store) { return false }
    if !albumIds.isEmpty && !albumIds.isSubset(of: store.albumIds(holding: a.id)) { return false }
    if !withDeleted && a.deletedAt != nil { return false }
    switch visibility {
    case .only(let v): if a.visibility != v { return false }
    case .notLocked: if a.visibility == .locked { return false }
    }
    if let id, a.id != id { return false }
    if let checksum, a.checksum != checksum { return false }
    if let type, a.type != type { return false }
    if let isFavorite, a.isFavorite != isFavorite { return false }
    if let isMotion, (a.livePhotoVideoId != nil) != isMotion { return false }
    if let isOffline, a.isOffline != isOffline { return false }
    switch library {
    case .any: break
    case .uploads: if a.libraryId != nil { return false }
    case .library(let id): if a.libraryId != id { return false }
    }
    if let originalFileName, !a.originalFileName.lowercased().contains(originalFileName) {
      return false
    }
    if !within(a.fileCreatedAt, takenAfter, takenBefore) { return false }
    if !within(a.createdAt, createdAfter, createdBefore) { return false }
    if !within(a.updatedAt, updatedAfter, updatedBefore) { return false }
    if trashedAfter != nil || trashedBefore != nil {
      guard let deletedAt = a.deletedAt, within(deletedAt, trashedAfter, trashedBefore) else {
        return false
      }
    }
    switch tags {
    case .any: return true
    case .untagged: return (store.assetTags[a.id] ?? []).isEmpty
    case .all(let wanted):
      let ancestors = (store.assetTags[a.id] ?? []).reduce(into: Set<String>()) {
        $0.formUnion(store.tagAncestors[$1] ?? [])
      }
      return wanted.allSatisfy(ancestors.contains)
    }
  }

  private func within(_ date: Date, _ after: Date?, _ before: Date?) -> Bool {
    if let after, date < after { return false }
    if let before, date > before { return false }
    return true
  }

  /// Identifies a query for the paging-position cache.
  var cacheKey: String {
    "\(owners.sorted())|\(id ?? "")|\(checksum ?? [])|\(originalFileName ?? "")|\(String(describing: type))"
      + "|\(visibility)|\(String(describing: isFavorite))|\(String(describing: isMotion))"
      + "|\(withDeleted)|\([takenAfter, takenBefore, createdAfter, createdBefore, updatedAfter, updatedBefore, trashedAfter, trashedBefore])"
      + "|\(tags)|\(library)|\(String(describing: isOffline))|\(matchesNothing)|\(albumIds.sorted())"
      + "|\(filter.map { String(describing: $0) } ?? "")"
  }
}

extension Store {
  /// One page in `fileCreatedAt, id` order and whether another follows (`LIMIT size+1`).
  mutating func search(
    _ query: AssetQuery, page: Int, size: Int, descending: Bool
  ) -> (items: [AssetRecord], hasNext: Bool) {
    search(query, offset: (page - 1) * size, size: size, descending: descending)
  }

  /// `size` matches from `offset` on in `fileCreatedAt, id` order, and whether more follow.
  ///
  /// Walks the presorted index; the position where each page starts is remembered until the
  /// assets change, so reading page after page costs one page each, not a rescan.
  mutating func search(
    _ query: AssetQuery, offset: Int, size: Int, descending: Bool
  ) -> (items: [AssetRecord], hasNext: Bool) {
    if let small = candidates(query) {
      let sorted = small.filter { query.matches($0, in: self) }.sorted {
        descending ? $1.sortKey < $0.sortKey : $0.sortKey < $1.sortKey
      }
      let start = min(sorted.count, offset)
      let end = min(sorted.count, start + size)
      return (Array(sorted[start..<end]), sorted.count > end)
    }
    // Index positions by how many matches precede them, at multiples of `size`.
    let cacheKey = "\(query.cacheKey)|\(size)|\(descending)"
    var cursors = pageCursors[cacheKey] ?? [0: 0]
    let startMatched = cursors.keys.filter { $0 <= offset }.max() ?? 0
    var position = cursors[startMatched] ?? 0
    let skip = offset - startMatched
    var matched = 0
    var items: [AssetRecord] = []
    var hasNext = false
    while position < index.count {
      let key = index.key(at: position, descending: descending)
      guard let record = assets[key.id], query.matches(record, in: self) else {
        position += 1
        continue
      }
      if matched > 0 && (startMatched + matched) % size == 0 {
        cursors[startMatched + matched] = position
      }
      if matched >= skip {
        if items.count == size {
          hasNext = true
          break
        }
        items.append(record)
      }
      matched += 1
      position += 1
    }
    pageCursors[cacheKey] = cursors
    return (items, hasNext)
  }

  /// Every match ordered by a column the double holds no value of (`rating`,
  /// `fileSizeInBytes`): all null, so the tie-break on `id` alone orders them.
  func searchById(
    _ query: AssetQuery, offset: Int, size: Int, descending: Bool
  ) -> (items: [AssetRecord], hasNext: Bool) {
    let all = (candidates(query) ?? Array(assets.values)).filter { query.matches($0, in: self) }
      .sorted { descending ? $0.id > $1.id : $0.id < $1.id }
    let start = min(all.count, offset)
    let end = min(all.count, start + size)
    return (Array(all[start..<end]), all.count > end)
  }

  /// Number of matches: `POST /search/statistics`.
  func count(_ query: AssetQuery) -> Int {
    if let small = candidates(query) { return small.filter { query.matches($0, in: self) }.count }
    return assets.values.reduce(0) { $0 + (query.matches($1, in: self) ? 1 : 0) }
  }

  /// The few rows an `id` or `checksum` filter can match, found through an index.
  private func candidates(_ query: AssetQuery) -> [AssetRecord]? {
    if let id = query.id { return assets[id].map { [$0] } ?? [] }
    if let checksum = query.checksum {
      return query.owners.flatMap { owner in
        (checksumIndex[ChecksumKey(ownerId: owner, checksum: checksum)] ?? []).compactMap {
          assets[$0]
        }
      }
    }
    return nil
  }
}

extension ImmichJSON {
  /// The object without `keys`, as zod strips keys a DTO does not declare.
  func removing(_ keys: Set<String>) -> ImmichJSON {
    guard case .object(let pairs) = self else { return self }
    return .object(pairs.filter { !keys.contains($0.0) })
  }
}

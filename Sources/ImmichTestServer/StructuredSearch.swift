import Foundation

/// 3.2's structured search body (`filter`, `orderBy`, `cursor`, `size`), read the way
/// `search.dto.ts` and `utils/search-cursor.ts` do (docs/IMMICH-API.md §14).
///
/// What differs from the flat fields: no trash default (trashed rows and force-deleted ones
/// awaiting the purge come back unless `trashedAt: {eq: null}`), a strict filter object, a
/// base64url `{"offset":N}` cursor, and no deprecated field beside the new ones.
struct StructuredSearch: Sendable {
  var query: AssetQuery
  var offset: Int
  var size: Int
  var orderField: String
  var descending: Bool

  /// The keys that choose this path: a body with none of them runs the flat (3.1) code.
  static let selectingKeys = ["filter", "orderBy", "cursor"]

  /// Fields of `MetadataSearchDto` and `StatisticsSearchDto` that are not deprecated.
  static let currentKeys: Set<String> = [
    "filter", "orderBy", "cursor", "size", "withExif", "withPeople", "withStacked",
  ]

  static func selected(by body: ImmichJSON?) -> Bool {
    selectingKeys.contains { body?[$0] != nil }
  }

  /// Every deprecated field the body carries (a JSON `null` counts).
  static func deprecatedKeys(in body: ImmichJSON?) -> [String] {
    guard case .object(let pairs)? = body else { return [] }
    return pairs.map(\.0).filter { !currentKeys.contains($0) && AssetQuery.flatKeys.contains($0) }
  }

  static func parse(
    _ body: ImmichJSON?, caller: Caller, store: Store, paging: Bool
  ) throws(APIError) -> StructuredSearch {
    var r = BodyReader(body, version: store.version)
    let newField = selectingKeys.first { r.body[$0] != nil } ?? "filter"
    for key in deprecatedKeys(in: body) {
      r.fail(
        [.string(key)], "custom", "Deprecated field \(key) cannot be combined with \(newField)")
    }
    var filters = SearchFilterReader()
    let filter = filters.read(r.body["filter"], path: [.string("filter")])
    for issue in filters.issues { r.fail(issue.path, issue.code, issue.message, issue.extra) }
    var orderField = "fileCreatedAt"
    var descending = true
    // `orderBy` and `cursor` are optional, not nullable: a JSON null is refused.
    let notNullable = [("orderBy", "object"), ("cursor", "string")]
    for (key, expected) in notNullable where r.body[key] == .null {
      r.fail(
        [.string(key)], "invalid_type", "Invalid input: expected \(expected), received null",
        [("expected", .string(expected))])
    }
    if let order = r.body["orderBy"], order != .null {
      var o = BodyReader(order, version: store.version)
      if let field = o.string("field") {
        let fields = ["fileCreatedAt", "localDateTime", "fileSizeInBytes", "rating"]
        if fields.contains(field) {
          orderField = field
        } else {
          o.invalidOption([.string("field")], fields)
        }
      }
      if let direction = o.string("direction") {
        if direction == "asc" || direction == "desc" {
          descending = direction == "desc"
        } else {
          o.invalidOption([.string("direction")], ["asc", "desc"])
        }
      }
      for issue in o.issues {
        r.fail([.string("orderBy")] + issue.path, issue.code, issue.message, issue.extra)
      }
    }
    let cursor = r.string("cursor")
    if let cursor, cursor.isEmpty {
      r.fail(
        [.string("cursor")], "too_small", "Too small: expected string to have >=1 characters",
        [("origin", "string"), ("minimum", 1), ("inclusive", true)])
    }
    let size = paging ? (r.int("size", min: 1, max: 1000) ?? 250) : 250
    _ = (r.bool("withExif"), r.bool("withPeople"), r.bool("withStacked"))
    try r.finish()

    var offset = 0
    if let cursor, !cursor.isEmpty {
      guard let decoded = SearchCursor.offset(cursor) else {
        throw APIError.badRequest("Invalid cursor")
      }
      offset = decoded
    }
    try store.requireReadable(albums: filter.albumIds, caller.userId)
    // An API key never holds the PIN elevation the locked folder needs.
    if filter.visibilityLeaves.contains(where: \.admitsLocked) {
      throw APIError.unauthorized("Elevated permission is required")
    }
    var query = AssetQuery(
      owners: store.searchableOwners(for: caller.userId),
      id: filter.pinned("id")?.lowercased(),
      checksum: filter.pinned("checksum").map(Identifiers.parseChecksum), originalFileName: nil,
      type: nil, visibility: .notLocked, isFavorite: nil, isMotion: nil)
    query.withDeleted = true
    query.filter = filter
    return StructuredSearch(
      query: query, offset: offset, size: size, orderField: orderField, descending: descending)
  }
}

/// `utils/search-cursor.ts`: base64url of `{"offset":N}`.
enum SearchCursor {
  static func encode(offset: Int) -> String {
    Data(#"{"offset":\#(offset)}"#.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func offset(_ cursor: String) -> Int? {
    var text = cursor.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    guard !text.contains("=") else { return nil }
    while text.count % 4 != 0 { text += "=" }
    guard let data = Data(base64Encoded: text),
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      json.count == 1, let offset = json["offset"] as? Int, offset >= 0
    else { return nil }
    return offset
  }
}

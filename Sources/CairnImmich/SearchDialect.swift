import Foundation

/// How a server wants `POST /search/metadata` and `/search/statistics` asked, chosen from the
/// version it reports, never by trying a request and reading the error.
///
/// Immich 3.2 deprecated every flat field (`visibility`, `withDeleted`, `page`, `checksum`, …;
/// upstream marks the code `TODO(v4): remove`) for a structured `filter`, `orderBy` and
/// `cursor`. Before 3.2 those keys are unknown and silently stripped, so a structured body sent
/// to 3.1 would search *everything*: the dialect must come from the version.
package enum SearchDialect: Sendable, Equatable {
  /// The flat fields and page numbers (2.7 to 3.1).
  case flat
  /// `filter`, `orderBy`, `cursor`/`nextCursor` (3.2 on).
  case structured

  package init(_ version: ServerVersion?) {
    self = (version.map { $0 >= Self.firstStructured } ?? false) ? .structured : .flat
  }

  /// The first release with the structured search (docs/IMMICH-API.md §14).
  package static let firstStructured = ServerVersion(major: 3, minor: 2, patch: 0)
}

extension MetadataQuery {
  /// The request body in `dialect`; both ask for the same set of assets.
  func body(_ dialect: SearchDialect) -> [String: Any] {
    switch dialect {
    case .flat: return json
    case .structured:
      var body: [String: Any] = [
        "size": size, "orderBy": ["field": "fileCreatedAt", "direction": order ?? "desc"],
      ]
      if !filter.isEmpty { body["filter"] = filter }
      if let cursor { body["cursor"] = cursor }
      return body
    }
  }

  /// The statistics body: the same filter without paging or order.
  func statisticsBody(_ dialect: SearchDialect) -> [String: Any] {
    switch dialect {
    case .flat:
      var body = json
      for key in ["page", "size", "order"] { body.removeValue(forKey: key) }
      return body
    case .structured:
      return filter.isEmpty ? [:] : ["filter": filter]
    }
  }

  /// The structured `filter` asking what the flat fields ask. The flat search hides the trash
  /// unless `withDeleted`; the structured one hides nothing (not even force-deleted assets
  /// awaiting the purge), so the trash is excluded by `trashedAt: {eq: null}` exactly when the
  /// flat query would have excluded it; a trash date asks for the trash since then, as the flat
  /// `trashedAfter` does. `locked` needs no exclusion: 3.2 adds it for keys.
  var filter: [String: Any] {
    var filter: [String: Any] = [:]
    if let visibility { filter["visibility"] = ["eq": visibility.rawValue] }
    if let trashedAfter {
      filter["trashedAt"] = ["gte": trashedAfter.iso8601]
    } else if withDeleted != true {
      filter["trashedAt"] = ["eq": NSNull()]
    }
    if let tagIds { filter["tagIds"] = ["all": tagIds.map { $0.lowercased() }] }
    if let albumIds { filter["albumIds"] = ["all": albumIds.map { $0.lowercased() }] }
    if let checksum { filter["checksum"] = ["eq": checksum] }
    if let id { filter["id"] = ["eq": id.lowercased()] }
    if let type { filter["type"] = ["eq": type] }
    if uploadedOnly { filter["libraryId"] = ["eq": NSNull()] }
    return filter
  }
}

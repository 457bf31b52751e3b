import Foundation

/// 3.2's `SearchFilter` (`server/src/dtos/search.dto.ts`): leaves that all must hold, and `or`
/// branches of which one must. Built by `SearchFilterReader`, evaluated against the store.
struct SearchFilter: Sendable {
  var leaves: [FilterLeaf] = []
  /// Empty means no `or`.
  var branches: [[FilterLeaf]] = []

  func matches(_ a: AssetRecord, in store: Store) -> Bool {
    guard leaves.allSatisfy({ $0.matches(a, in: store) }) else { return false }
    return branches.isEmpty || branches.contains { $0.allSatisfy { $0.matches(a, in: store) } }
  }

  /// Every visibility leaf anywhere; a filter any of them lets reach `locked` is refused.
  var visibilityLeaves: [FilterLeaf] {
    (leaves + branches.flatMap { $0 }).filter { $0.field == "visibility" }
  }

  /// Every album id any `albumIds` leaf names (`any`, `all` or `none`, in a branch too): each
  /// must be one the caller can read.
  var albumIds: [String] {
    (leaves + branches.flatMap { $0 }).filter { $0.field == "albumIds" }.flatMap { leaf in
      leaf.conditions.flatMap { ($0.value.arrayValue ?? []).compactMap(\.stringValue) }
    }
  }

  /// The equality a top-level leaf pins `field` to, for the index lookups of `id` and
  /// `checksum`.
  func pinned(_ field: String) -> String? {
    for leaf in leaves where leaf.field == field {
      for condition in leaf.conditions where condition.op == "eq" {
        if let text = condition.value.stringValue { return text }
      }
    }
    return nil
  }
}

/// One field's conditions (`{eq, ne, in, …}`), each of which must hold.
struct FilterLeaf: Sendable {
  var field: String
  var conditions: [(op: String, value: ImmichJSON)]

  func matches(_ a: AssetRecord, in store: Store) -> Bool {
    let value = FilterField.value(field, of: a, in: store)
    return conditions.allSatisfy { Self.holds($0.op, $0.value, on: value) }
  }

  /// Whether the visibility leaf admits `locked`.
  var admitsLocked: Bool {
    conditions.allSatisfy { Self.holds($0.op, $0.value, on: .text("locked")) }
  }

  static func holds(_ op: String, _ wanted: ImmichJSON, on value: FieldValue) -> Bool {
    switch op {
    case "eq": return value.equals(wanted)
    case "ne": return !value.equals(wanted)
    case "in": return (wanted.arrayValue ?? []).contains { value.equals($0) }
    case "notIn": return !(wanted.arrayValue ?? []).contains { value.equals($0) }
    case "gt", "gte", "lt", "lte":
      guard let order = value.compare(wanted) else { return false }
      switch op {
      case "gt": return order == .orderedDescending
      case "gte": return order != .orderedAscending
      case "lt": return order == .orderedAscending
      default: return order != .orderedDescending
      }
    case "any", "all", "none":
      guard case .ids(let held) = value else { return false }
      let ids = (wanted.arrayValue ?? []).compactMap { $0.stringValue?.lowercased() }
      if op == "any" { return ids.contains(where: held.contains) }
      if op == "all" { return ids.allSatisfy(held.contains) }
      return !ids.contains(where: held.contains)
    case "like", "notLike", "startsWith", "endsWith":
      guard case .text(let text?) = value, let pattern = wanted.stringValue else {
        return op == "notLike"
      }
      let lower = text.lowercased()
      let p = pattern.lowercased()
      switch op {
      case "startsWith": return lower.hasPrefix(p)
      case "endsWith": return lower.hasSuffix(p)
      case "like": return SQLLike.matches(lower, p)
      default: return !SQLLike.matches(lower, p)
      }
    default:
      // `matches` (OCR similarity): the double recognises no text in any image.
      return false
    }
  }
}

/// A column's value for one asset, in the terms the filter compares.
enum FieldValue {
  case text(String?)
  /// Ids compare in any case: they reach SQL as `uuid`.
  case uuid(String?)
  case number(Double?)
  case date(Date?)
  case flag(Bool)
  case checksum([UInt8])
  /// Tags (with their ancestors, as the closure table gives), people, albums.
  case ids(Set<String>)

  func equals(_ wanted: ImmichJSON) -> Bool {
    switch self {
    case .text(let s):
      if wanted == .null { return s == nil }
      guard let s, let w = wanted.stringValue else { return false }
      return s == w
    case .uuid(let s):
      if wanted == .null { return s == nil }
      guard let s, let w = wanted.stringValue else { return false }
      return s.lowercased() == w.lowercased()
    case .number(let n):
      if wanted == .null { return n == nil }
      guard let n, case .number(let w) = wanted else { return false }
      return n == w
    case .date(let d):
      if wanted == .null { return d == nil }
      guard let d, let w = wanted.stringValue.flatMap(Timestamps.parseWithOffset) else {
        return false
      }
      return abs(d.timeIntervalSince(w)) < 0.0005
    case .flag(let b): return wanted.boolValue == b
    case .checksum(let bytes):
      guard let w = wanted.stringValue else { return false }
      return Identifiers.parseChecksum(w) == bytes
    case .ids: return false
    }
  }

  func compare(_ wanted: ImmichJSON) -> ComparisonResult? {
    switch self {
    case .number(let n?):
      guard case .number(let w) = wanted else { return nil }
      return n < w ? .orderedAscending : n > w ? .orderedDescending : .orderedSame
    case .date(let d?):
      guard let w = wanted.stringValue.flatMap(Timestamps.parseWithOffset) else { return nil }
      return d.compare(w)
    default: return nil
    }
  }
}

/// SQL `ILIKE` on lower-cased text: `%` any run, `_` one character.
enum SQLLike {
  static func matches(_ text: String, _ pattern: String) -> Bool {
    matches(Array(text), Array(pattern))
  }

  private static func matches(_ t: [Character], _ p: [Character]) -> Bool {
    var ti = 0
    var pi = 0
    var star: Int?
    var mark = 0
    while ti < t.count {
      if pi < p.count, p[pi] == "_" || p[pi] == t[ti] {
        ti += 1
        pi += 1
      } else if pi < p.count, p[pi] == "%" {
        star = pi
        mark = ti
        pi += 1
      } else if let s = star {
        pi = s + 1
        mark += 1
        ti = mark
      } else {
        return false
      }
    }
    while pi < p.count, p[pi] == "%" { pi += 1 }
    return pi == p.count
  }
}

/// The fields of `SearchFilter`: the operators each takes, and where the double keeps its
/// value. Fields the double does not model (EXIF, people, albums, OCR, file sizes, ratings)
/// hold what an asset without them holds in Immich: null, empty, false.
enum FilterField {
  enum Kind {
    case bool, date, dateNullable, number, numberNullable, id, idNullable, ids
    case string, stringNullable, pattern, similarity, assetType, visibility
  }

  static let kinds: [String: Kind] = [
    "albumIds": .ids, "checksum": .string, "city": .stringNullable, "country": .stringNullable,
    "createdAt": .date, "description": .pattern, "encodedVideoPath": .string,
    "fileSizeInBytes": .number, "hasAlbums": .bool, "hasPeople": .bool, "hasTags": .bool,
    "id": .id, "isEncoded": .bool, "isFavorite": .bool, "isMotion": .bool, "isOffline": .bool,
    "lensModel": .stringNullable, "libraryId": .idNullable, "make": .stringNullable,
    "model": .stringNullable, "ocr": .similarity, "originalFileName": .pattern,
    "originalPath": .pattern, "personIds": .ids, "rating": .numberNullable,
    "state": .stringNullable, "tagIds": .ids, "takenAt": .date, "trashedAt": .dateNullable,
    "type": .assetType, "updatedAt": .date, "visibility": .visibility,
  ]

  static func value(_ field: String, of a: AssetRecord, in store: Store) -> FieldValue {
    switch field {
    case "id": return .uuid(a.id)
    case "checksum": return .checksum(a.checksum)
    case "createdAt": return .date(a.createdAt)
    case "takenAt": return .date(a.fileCreatedAt)
    case "updatedAt": return .date(a.updatedAt)
    case "trashedAt": return .date(a.deletedAt)
    case "type": return .text(a.type.rawValue)
    case "visibility": return .text(a.visibility.rawValue)
    case "isFavorite": return .flag(a.isFavorite)
    case "isMotion": return .flag(a.livePhotoVideoId != nil)
    case "isOffline": return .flag(a.isOffline)
    case "hasTags": return .flag(!(store.assetTags[a.id] ?? []).isEmpty)
    case "hasAlbums": return .flag(!store.albumIds(holding: a.id).isEmpty)
    case "hasPeople", "isEncoded": return .flag(false)
    case "libraryId": return .uuid(a.libraryId)
    case "originalFileName": return .text(a.originalFileName)
    case "originalPath": return .text(a.originalPath)
    case "encodedVideoPath": return .text("")
    case "tagIds":
      return .ids(
        (store.assetTags[a.id] ?? []).reduce(into: Set<String>()) {
          $0.formUnion(store.tagAncestors[$1] ?? [])
        })
    case "albumIds": return .ids(store.albumIds(holding: a.id))
    case "personIds": return .ids([])
    case "fileSizeInBytes", "rating": return .number(nil)
    default: return .text(nil)
    }
  }
}

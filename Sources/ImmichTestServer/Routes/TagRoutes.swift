import Foundation

/// `/api/tags*`. POST creates one flat tag with no closure rows; PUT upserts whole paths and
/// maintains the closure table, which is what tag search reads.
enum TagRoutes {
  static let all: [Route] = [
    Route("POST", "/api/tags", .authenticated(permission: Permission.tagCreate), create),
    Route("PUT", "/api/tags", .authenticated(permission: Permission.tagCreate)) { store, call in
      var r = BodyReader(call)
      let values = r.stringArray("tags", required: true) ?? []
      try r.finish()
      let userId = try call.user.userId
      var seen: Set<String> = []
      var leaves: [ImmichJSON] = []
      for value in values where seen.insert(value).inserted {
        if let leaf = store.upsertTagPath(value, userId: userId) {
          leaves.append(Rendering.tag(leaf))
        }
      }
      return .json(200, .array(leaves))
    },
    Route("GET", "/api/tags", .authenticated(permission: Permission.tagRead)) { store, call in
      let userId = try call.user.userId
      let own = store.tags.values.filter { $0.userId == userId }.sorted { $0.value < $1.value }
      return .json(200, .array(own.map(Rendering.tag)))
    },
    Route("PUT", "/api/tags/assets", .authenticated(permission: Permission.tagAsset)) {
      store, call in
      var r = BodyReader(call)
      let tagIds = r.uuidArray("tagIds", required: true) ?? []
      let assetIds = r.uuidArray("assetIds", required: true) ?? []
      try r.finish()
      let userId = try call.user.userId
      // Foreign tags and assets are skipped silently; only new pairs count. The ids tagged are
      // those `checkAccess` returns from the database: lower-case, whatever case was sent.
      let tags = tagIds.map { $0.lowercased() }.filter { store.tags[$0]?.userId == userId }
      let assets = assetIds.map { $0.lowercased() }.filter {
        store.assets[$0]?.ownerId == userId
      }
      var created = 0
      for asset in assets {
        for tag in tags where store.assetTags[asset, default: []].insert(tag).inserted {
          created += 1
        }
      }
      return .json(200, ["count": .number(Double(created))])
    },
    Route("GET", "/api/tags/:id", .authenticated(permission: Permission.tagRead)) { store, call in
      let tag = try store.ownTag(call.param("id"), userId: try call.user.userId, Permission.tagRead)
      return .json(200, Rendering.tag(tag))
    },
    Route("PUT", "/api/tags/:id", .authenticated(permission: Permission.tagUpdate)) { store, call in
      var r = BodyReader(call)
      let color = r.hexColor("color")
      try r.finish()
      var tag = try store.ownTag(
        call.param("id"), userId: try call.user.userId, Permission.tagUpdate)
      // `update(id, { color })`: undefined leaves the colour, null clears it [inferred].
      if let color {
        tag.color = normalizedColor(color)
      } else if r.body["color"] == .null {
        tag.color = nil
      }
      tag.updatedAt = store.now
      store.tags[tag.id] = tag
      return .json(200, Rendering.tag(tag))
    },
    Route("DELETE", "/api/tags/:id", .authenticated(permission: Permission.tagDelete)) {
      store, call in
      let tag = try store.ownTag(
        call.param("id"), userId: try call.user.userId, Permission.tagDelete)
      store.deleteTagTree(tag.id)
      return .empty(204)
    },
    Route("PUT", "/api/tags/:id/assets", .authenticated(permission: Permission.tagAsset)) {
      store, call in
      try bulkAssets(&store, call, adding: true)
    },
    Route("DELETE", "/api/tags/:id/assets", .authenticated(permission: Permission.tagAsset)) {
      store, call in
      try bulkAssets(&store, call, adding: false)
    },
  ]

  static func create(_ store: inout Store, _ call: RouteCall) throws(APIError) -> Reply {
    var r = BodyReader(call)
    let name = r.string("name", required: true) ?? ""
    let parentId = r.uuid("parentId")
    let color = r.hexColor("color")
    try r.finish()
    let userId = try call.user.userId
    var value = name
    if let parentId {
      let parent = try store.ownTag(parentId, userId: userId, Permission.tagRead)
      value = "\(parent.value)/\(name)"
    }
    guard !store.tags.values.contains(where: { $0.userId == userId && $0.value == value }) else {
      throw APIError.badRequest("A tag with that name already exists")
    }
    let tag = TagRecord(
      id: Identifiers.newAssetID(), userId: userId, value: value, parentId: parentId,
      color: color.map(normalizedColor), createdAt: store.now, updatedAt: store.now)
    // Deliberately no tag_closure rows, as `tagRepository.create` writes none.
    store.tags[tag.id] = tag
    return .json(201, Rendering.tag(tag))
  }

  static func normalizedColor(_ color: String) -> String {
    color.hasPrefix("#") ? color : "#\(color)"
  }

  /// `addAssets` / `removeAssets` in `asset.util.ts`: one result per input id, in order.
  static func bulkAssets(_ store: inout Store, _ call: RouteCall, adding: Bool) throws(APIError)
    -> Reply
  {
    var r = BodyReader(call)
    let ids = r.uuidArray("ids", required: true) ?? []
    try r.finish()
    let userId = try call.user.userId
    let tag = try store.ownTag(call.param("id"), userId: userId, Permission.tagAsset)
    var seen: Set<String> = []
    var results: [ImmichJSON] = []
    for id in ids {
      let tagged = store.assetTags[id]?.contains(tag.id) ?? false
      let allowed = store.assets[id].map { store.canShare($0, userId: userId) } ?? false
      let error: String?
      if adding {
        if tagged || seen.contains(id) {
          error = "duplicate"
        } else if !allowed {
          error = "no_permission"
        } else {
          store.assetTags[id, default: []].insert(tag.id)
          error = nil
        }
      } else {
        if !tagged {
          error = "not_found"
        } else if !allowed {
          error = "no_permission"
        } else {
          store.assetTags[id]?.remove(tag.id)
          error = nil
        }
      }
      seen.insert(id)
      var fields: [(String, ImmichJSON)] = [("id", .string(id)), ("success", .bool(error == nil))]
      if let error { fields.append(("error", .string(error))) }
      results.append(.object(fields))
    }
    return .json(200, .array(results))
  }
}

extension Store {
  func ownTag(_ id: String, userId: String, _ permission: String) throws(APIError) -> TagRecord {
    guard let tag = tags[id], tag.userId == userId else { throw APIError.noAccess(permission) }
    return tag
  }

  /// `upsertTags`: every prefix of the path in turn, each parented to the previous one, with
  /// closure rows added (never removed, as `ON CONFLICT DO NOTHING` leaves old ones).
  mutating func upsertTagPath(_ path: String, userId: String) -> TagRecord? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    var parent: TagRecord?
    var value = ""
    for segment in segments {
      value = value.isEmpty ? String(segment) : "\(value)/\(segment)"
      let current = value
      var tag: TagRecord
      if let existing = tags.values.first(where: { $0.userId == userId && $0.value == current }) {
        tag = existing
        tag.parentId = parent?.id
        tag.updatedAt = now
      } else {
        tag = TagRecord(
          id: Identifiers.newAssetID(), userId: userId, value: current, parentId: parent?.id,
          color: nil, createdAt: now, updatedAt: now)
      }
      tags[tag.id] = tag
      var ancestors = tagAncestors[tag.id] ?? []
      ancestors.insert(tag.id)
      if let parent { ancestors.formUnion(tagAncestors[parent.id] ?? [parent.id]) }
      tagAncestors[tag.id] = ancestors
      parent = tag
    }
    return parent
  }

  /// Deletes a tag, its descendants (FK cascade on `parentId`) and their asset links.
  mutating func deleteTagTree(_ root: String) {
    var doomed: Set<String> = [root]
    var frontier = [root]
    while let next = frontier.popLast() {
      for tag in tags.values where tag.parentId == next && doomed.insert(tag.id).inserted {
        frontier.append(tag.id)
      }
    }
    for id in doomed {
      tags[id] = nil
      tagAncestors[id] = nil
    }
    for (tag, ancestors) in tagAncestors where !ancestors.isDisjoint(with: doomed) {
      tagAncestors[tag] = ancestors.subtracting(doomed)
    }
    for (asset, tagIds) in assetTags where !tagIds.isDisjoint(with: doomed) {
      assetTags[asset] = tagIds.subtracting(doomed)
    }
  }
}

/// `POST /api/search/metadata` and `/api/search/statistics`.
enum SearchRoutes {
  static let all: [Route] = [
    Route("POST", "/api/search/metadata", .authenticated(permission: Permission.assetRead)) {
      store, call in
      let caller = try call.user
      let (query, page, size, descending) = try AssetQuery.parse(
        call.body, caller: caller, store: store, paging: true)
      let (items, hasNext) = store.search(query, page: page, size: size, descending: descending)
      let count = JSON.number(Double(items.count))
      let assets: JSON = [
        "total": count, "count": count,
        "items": .array(
          items.map { Rendering.asset($0, version: call.version, callerId: caller.userId) }),
        "facets": [], "nextPage": hasNext ? .string(String(page + 1)) : .null,
      ]
      return .json(
        200, ["albums": ["total": 0, "count": 0, "items": [], "facets": []], "assets": assets])
    },
    Route("POST", "/api/search/statistics", .authenticated(permission: Permission.assetStatistics)) {
      store, call in
      let (query, _, _, _) = try AssetQuery.parse(
        call.body, caller: try call.user, store: store, paging: false)
      return .json(200, ["total": .number(Double(store.count(query)))])
    },
  ]
}

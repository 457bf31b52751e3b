/// `POST /api/search/metadata` and `/api/search/statistics`.
enum SearchRoutes {
  static let all: [Route] = [
    Route("POST", "/api/search/metadata", .authenticated(permission: Permission.assetRead)) {
      store, call in
      let caller = try call.user
      let (query, page, size, descending) = try AssetQuery.parse(
        call.body, caller: caller, store: store, paging: true)
      let (items, hasNext) = store.search(query, page: page, size: size, descending: descending)
      let rendered = items.map {
        Rendering.assetText($0, version: call.version, callerId: caller.userId)
      }
      let next = hasNext ? "\"\(page + 1)\"" : "null"
      return .jsonText(
        200,
        #"{"albums":{"total":0,"count":0,"items":[],"facets":[]},"assets":{"total":"#
          + "\(items.count),\"count\":\(items.count),\"items\":[\(rendered.joined(separator: ","))]"
          + #","facets":[],"nextPage":\#(next)}}"#)
    },
    Route("POST", "/api/search/statistics", .authenticated(permission: Permission.assetStatistics))
    {
      store, call in
      let (query, _, _, _) = try AssetQuery.parse(
        call.body, caller: try call.user, store: store, paging: false)
      return .json(200, ["total": .number(Double(store.count(query)))])
    },
  ]
}

/// `POST /api/search/metadata` and `/api/search/statistics`: the flat fields of every version,
/// and 3.2's structured search when the body has `filter`, `orderBy` or `cursor`.
enum SearchRoutes {
  static let all: [Route] = [
    Route("POST", "/api/search/metadata", .authenticated(permission: Permission.assetRead)) {
      store, call in
      let caller = try call.user
      let page = try searchPage(&store, call, caller: caller)
      let rendered = page.items.map {
        Rendering.assetText($0, version: call.version, callerId: caller.userId)
      }
      // 3.2 requires `nextCursor` (null in flat mode); `nextPage` is null in structured mode.
      let tail =
        call.version.hasStructuredSearch
        ? #","nextPage":\#(page.nextPage),"nextCursor":\#(page.nextCursor)"#
        : #","nextPage":\#(page.nextPage)"#
      return .jsonText(
        200,
        #"{"albums":{"total":0,"count":0,"items":[],"facets":[]},"assets":{"total":"#
          + "\(page.items.count),\"count\":\(page.items.count),\"items\":["
          + rendered.joined(separator: ",") + #"],"facets":[]"# + tail + "}}")
    },
    Route("POST", "/api/search/statistics", .authenticated(permission: Permission.assetStatistics))
    {
      store, call in
      let caller = try call.user
      // `StatisticsSearchDto` lacks the paging, ordering and per-asset fields (3.2 added only
      // `filter`): zod strips them, so they neither choose the structured path nor fail.
      let body = call.body?.removing(AssetQuery.metadataOnlyKeys.union(["orderBy", "cursor"]))
      let query: AssetQuery
      if call.version.hasStructuredSearch && StructuredSearch.selected(by: body) {
        query = try StructuredSearch.parse(body, caller: caller, store: store, paging: false)
          .query
      } else {
        try refuseRemovedFields(call, store)
        (query, _, _, _) = try AssetQuery.parse(body, caller: caller, store: store, paging: false)
      }
      return .json(200, ["total": .number(Double(store.count(query)))])
    },
  ]

  /// One page of results and the JSON text of `nextPage` and `nextCursor`.
  struct Page {
    var items: [AssetRecord]
    var nextPage = "null"
    var nextCursor = "null"
  }

  static func searchPage(_ store: inout Store, _ call: RouteCall, caller: Caller)
    throws(APIError) -> Page
  {
    if call.version.hasStructuredSearch && StructuredSearch.selected(by: call.body) {
      let s = try StructuredSearch.parse(call.body, caller: caller, store: store, paging: true)
      let byId = s.orderField == "rating" || s.orderField == "fileSizeInBytes"
      // The double keeps no time zones: `localDateTime` orders as `fileCreatedAt`.
      let (items, hasNext) =
        byId
        ? store.searchById(s.query, offset: s.offset, size: s.size, descending: s.descending)
        : store.search(s.query, offset: s.offset, size: s.size, descending: s.descending)
      let next = hasNext ? "\"\(SearchCursor.encode(offset: s.offset + s.size))\"" : "null"
      return Page(items: items, nextCursor: next)
    }
    try refuseRemovedFields(call, store)
    let (query, page, size, descending) = try AssetQuery.parse(
      call.body, caller: caller, store: store, paging: true)
    let (items, hasNext) = store.search(query, page: page, size: size, descending: descending)
    return Page(items: items, nextPage: hasNext ? "\"\(page + 1)\"" : "null")
  }

  /// The v4 shape: the deprecated flat fields are no longer part of the DTO, and a strict
  /// schema refuses them.
  static func refuseRemovedFields(_ call: RouteCall, _ store: Store) throws(APIError) {
    guard store.deprecatedRemoved else { return }
    let removed = StructuredSearch.deprecatedKeys(in: call.body)
    guard !removed.isEmpty else { return }
    let quoted = removed.map { "\"\($0)\"" }.joined(separator: ", ")
    throw APIError.validation([
      ValidationIssue(
        code: "unrecognized_keys", path: [],
        message: "Unrecognized key\(removed.count == 1 ? "" : "s"): \(quoted)",
        extra: [("keys", .array(removed.map(ImmichJSON.string)))])
    ])
  }
}

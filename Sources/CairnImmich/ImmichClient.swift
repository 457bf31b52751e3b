import AsyncHTTPClient
import CairnSupport
import Foundation
import NIOHTTP1

/// A typed client for the Immich endpoints cairn uses, for v2.7 and v3.x servers.
///
/// Every method sends lower-case ids, applies the request timeout, and retries with bounded
/// exponential backoff only what is safe to repeat. Every method throws only `ImmichError`
/// (use `cairnError` to end a tool with it). The credential is never part of any message.
///
/// Which writes are retried, and why:
/// - `PUT /tags` (upsert by value), `PUT /tags/assets` and `PUT /tags/:id/assets` converge on
///   the same state however often they run; a repeat reports `duplicate` or a smaller count,
///   which callers treat as "tagged".
/// - `DELETE /assets` with `force:false` only ever moves owned assets into the trash; a repeat
///   after a lost answer finds them trashed and trashes them again (the server resets
///   `deletedAt`, which only restarts the trash period). `force:true` is never sent.
/// - `POST /trash/restore/assets` sets trashed assets active; a repeat changes nothing.
/// - `POST /sync/ack` (last ack per type wins) and `DELETE /sync/ack` are idempotent.
/// - `POST /auth/login` is never retried: each attempt creates a session.
package final class ImmichClient: Sendable {
  /// The API base URL, normalised, ending in `/api`.
  package let apiBase: String
  let credential: Credential
  let transport: HTTPTransport
  /// What `GET /server/version` said, when the client was made knowing it; it chooses the
  /// search dialect and where the trash settings are read.
  package let serverVersion: ServerVersion?

  /// A client that authenticates with an API key.
  package convenience init(
    apiBase: String, apiKey: Secret, options: ClientOptions = ClientOptions()
  ) {
    self.init(
      apiBase: apiBase, credential: .apiKey(apiKey), transport: HTTPTransport(options: options))
  }

  init(
    apiBase: String, credential: Credential, transport: HTTPTransport,
    serverVersion: ServerVersion? = nil
  ) {
    self.apiBase = apiBase
    self.credential = credential
    self.transport = transport
    self.serverVersion = serverVersion
  }

  /// The same server with a session token (from `login`) instead of the API key; requests of
  /// both clients are counted together.
  package func usingSession(_ token: Secret) -> ImmichClient {
    ImmichClient(
      apiBase: apiBase, credential: .session(token), transport: transport,
      serverVersion: serverVersion)
  }

  /// The same client, knowing the server's version (`ServerConnection` makes every client so).
  package func speaking(_ version: ServerVersion) -> ImmichClient {
    ImmichClient(
      apiBase: apiBase, credential: credential, transport: transport, serverVersion: version)
  }

  /// How this server is searched: structured from 3.2 on, flat before or when unknown.
  package var searchDialect: SearchDialect { SearchDialect(serverVersion) }

  package var options: ClientOptions { transport.options }

  /// HTTP requests sent so far by this client and those derived from it, retries included.
  package var requestsSent: Int { transport.requestsSent }

  // MARK: - Server

  /// `GET /api/server/ping`: true when the server answers `pong`.
  package func ping() async throws(ImmichError) -> Bool {
    try await get("/server/ping", as: PingAnswer.self).res == "pong"
  }

  /// The server's clock now: the `Date` header of `GET /api/server/ping`, in whole seconds;
  /// nil when the server sent none. Times compared with the server's own (when an asset was
  /// trashed) are taken from it, never from this machine's clock.
  package func serverClock() async throws(ImmichError) -> Date? {
    try await send(.GET, "/server/ping", body: nil, retry: .safe).serverDate
  }

  /// `GET /api/server/version` (public).
  package func version() async throws(ImmichError) -> ServerVersion {
    try await get("/server/version", as: ServerVersion.self)
  }

  /// `GET /api/server/features` (public; deprecated in 3.2).
  package func features() async throws(ImmichError) -> ServerFeatures {
    try await get("/server/features", as: ServerFeatures.self)
  }

  /// `GET /api/server/config` (public; deprecated in 3.2): `trashDays` and friends.
  package func config() async throws(ImmichError) -> ServerConfig {
    try await get("/server/config", as: ServerConfig.self)
  }

  /// `GET /api/config` (`userConfig.read`, 3.2 on): where the trash settings now live.
  package func userConfig() async throws(ImmichError) -> UserConfig {
    try await get("/config", as: UserConfig.self)
  }

  /// `GET /api/server/about` (`server.about`).
  package func about() async throws(ImmichError) -> ServerAbout {
    try await get("/server/about", as: ServerAbout.self)
  }

  // MARK: - Account

  /// `GET /api/users/me` (`user.read`): whose key or session this is.
  package func currentUser() async throws(ImmichError) -> UserInfo {
    try await get("/users/me", as: UserInfo.self)
  }

  /// `GET /api/api-keys/me`: the key's permissions (403 with a session).
  package func currentAPIKey() async throws(ImmichError) -> APIKeyInfo {
    try await get("/api-keys/me", as: APIKeyInfo.self)
  }

  /// `POST /api/auth/login`: a session for email and password. Never retried.
  package func login(email: String, password: Secret) async throws(ImmichError) -> LoginResult {
    let body: [String: Any] = ["email": email, "password": password.reveal()]
    let answer = try await send(.POST, "/auth/login", body: body, retry: .never)
    let login = try decode(LoginAnswer.self, answer, "POST /api/auth/login")
    return LoginResult(
      accessToken: Secret(login.accessToken), userId: login.userId.lowercased(),
      userEmail: login.userEmail)
  }

  /// `POST /api/auth/logout` with this client's session; ends it on the server.
  package func logout() async throws(ImmichError) {
    _ = try await send(.POST, "/auth/logout", body: nil, retry: .never)
  }

  // MARK: - Assets

  /// `POST /api/search/metadata`: one page. The one door every search of cairn goes through
  /// (listing, by checksum, by id, by tag): it speaks the server's dialect.
  package func searchMetadata(_ query: MetadataQuery) async throws(ImmichError) -> SearchPage {
    let dialect = searchDialect
    let answer = try await send(
      .POST, "/search/metadata", body: query.body(dialect), retry: .safe)
    let page = try decode(SearchAnswer.self, answer, "POST /api/search/metadata")
    switch dialect {
    case .flat:
      return SearchPage(
        items: page.assets.items, nextPage: page.assets.nextPage.flatMap { Int($0) })
    case .structured:
      return SearchPage(items: page.assets.items, nextCursor: page.assets.nextCursor)
    }
  }

  /// Every asset `query` matches, page after page (for the small searches of runs: by tag,
  /// checksum or id; the full listing is `SearchLister`, which bounds its paging).
  package func searchAll(_ query: MetadataQuery) async throws(ImmichError) -> [ServerAsset] {
    var found: [ServerAsset] = []
    var next: MetadataQuery? = query
    var seenCursors = Set<String>()
    while let current = next {
      let page = try await searchMetadata(current)
      found += page.items
      next = page.next(after: current)
      if let cursor = next?.cursor, !seenCursors.insert(cursor).inserted || page.items.isEmpty {
        throw ImmichError(
          .server,
          "POST /api/search/metadata: the server's next cursor repeats one or follows an empty"
            + " page; the search is stopped")
      }
      if let following = next?.page, next?.cursor == nil, following <= current.page {
        throw ImmichError(
          .server, "POST /api/search/metadata: page \(current.page) points back to \(following)")
      }
    }
    return found
  }

  /// `POST /api/search/statistics`: how many assets match (paging fields are ignored).
  package func searchStatistics(_ query: MetadataQuery) async throws(ImmichError) -> Int {
    let body = query.statisticsBody(searchDialect)
    let answer = try await send(.POST, "/search/statistics", body: body, retry: .safe)
    return try decode(StatisticsAnswer.self, answer, "POST /api/search/statistics").total
  }

  /// How many of the user's assets of `visibility` the server holds, trashed ones included.
  /// The flat `POST /api/search/statistics` ignores `withDeleted`, so the trash is counted by a
  /// second request (a `trashedBefore` date implies it); the structured one has no trash
  /// default and counts both at once.
  package func countAssets(visibility: AssetVisibility) async throws(ImmichError) -> Int {
    if searchDialect == .structured {
      return try await searchStatistics(MetadataQuery(visibility: visibility, withDeleted: true))
    }
    let query = MetadataQuery(visibility: visibility)
    let active = try await searchStatistics(query)
    var trash = query.statisticsBody(.flat)
    trash["trashedBefore"] = "9999-12-31T23:59:59.999Z"
    let answer = try await send(.POST, "/search/statistics", body: trash, retry: .safe)
    let trashed = try decode(StatisticsAnswer.self, answer, "POST /api/search/statistics").total
    return active + trashed
  }

  /// `GET /api/assets/:id`.
  package func asset(id: String) async throws(ImmichError) -> ServerAsset {
    try await get("/assets/\(try pathId(id))", as: ServerAsset.self)
  }

  /// `DELETE /api/assets {ids, force:false}`: moves the assets to the trash.
  ///
  /// All or nothing: one id the user does not own (a partner's, a locked one, an unknown one)
  /// fails the whole call with 400 `Not found or no asset.delete access`. There is deliberately
  /// no way to send `force:true`.
  package func trash(assetIds: [String]) async throws(ImmichError) {
    guard !assetIds.isEmpty else { return }
    let body: [String: Any] = ["ids": assetIds.map { $0.lowercased() }, "force": false]
    _ = try await send(.DELETE, "/assets", body: body, retry: .safe)
  }

  /// `POST /api/trash/restore/assets {ids}`: takes the assets out of the trash. The server's
  /// count is the number of ids sent, not the number restored.
  @discardableResult
  package func restore(assetIds: [String]) async throws(ImmichError) -> Int {
    guard !assetIds.isEmpty else { return 0 }
    let body: [String: Any] = ["ids": assetIds.map { $0.lowercased() }]
    let answer = try await send(.POST, "/trash/restore/assets", body: body, retry: .safe)
    return try decode(CountAnswer.self, answer, "POST /api/trash/restore/assets").count
  }

  /// `POST /api/assets/bulk-upload-check`: which (id, checksum) pairs the server already has.
  /// `id` is the caller's own label (a path); checksums are base64 (28) or hex (40).
  package func uploadCheck(_ items: [(id: String, checksum: String)]) async throws(ImmichError)
    -> [UploadCheckResult]
  {
    guard !items.isEmpty else { return [] }
    let body: [String: Any] = ["assets": items.map { ["id": $0.id, "checksum": $0.checksum] }]
    let answer = try await send(.POST, "/assets/bulk-upload-check", body: body, retry: .safe)
    return try decode(UploadCheckAnswer.self, answer, "POST /api/assets/bulk-upload-check").results
  }

  // MARK: - Tags

  /// `GET /api/tags` (`tag.read`): the user's tags, by value.
  package func tags() async throws(ImmichError) -> [TagInfo] {
    try await get("/tags", as: [TagInfo].self)
  }

  /// `GET /api/tags/:id` (`tag.read`).
  package func tag(id: String) async throws(ImmichError) -> TagInfo {
    try await get("/tags/\(try pathId(id))", as: TagInfo.self)
  }

  /// `PUT /api/tags {tags}` (`tag.create`): creates every level of each `/`-separated path
  /// (with the closure rows tag search needs) and returns the leaf tags, in input order.
  package func upsertTags(_ values: [String]) async throws(ImmichError) -> [TagInfo] {
    guard !values.isEmpty else { return [] }
    let answer = try await send(.PUT, "/tags", body: ["tags": values], retry: .safe)
    return try decode([TagInfo].self, answer, "PUT /api/tags")
  }

  /// `PUT /api/tags/assets {tagIds, assetIds}` (`tag.asset`): the number of new pairs; assets
  /// or tags the user does not own are skipped silently by the server.
  @discardableResult
  package func tagAssets(tagIds: [String], assetIds: [String]) async throws(ImmichError) -> Int {
    guard !tagIds.isEmpty, !assetIds.isEmpty else { return 0 }
    let body: [String: Any] = [
      "tagIds": tagIds.map { $0.lowercased() }, "assetIds": assetIds.map { $0.lowercased() },
    ]
    let answer = try await send(.PUT, "/tags/assets", body: body, retry: .safe)
    return try decode(CountAnswer.self, answer, "PUT /api/tags/assets").count
  }

  /// `PUT /api/tags/:id/assets {ids}` (`tag.asset`): one result per id, in input order.
  package func addAssets(_ assetIds: [String], toTag tagId: String) async throws(ImmichError)
    -> [BulkIdResult]
  {
    guard !assetIds.isEmpty else { return [] }
    let path = "/tags/\(try pathId(tagId))/assets"
    let body: [String: Any] = ["ids": assetIds.map { $0.lowercased() }]
    let answer = try await send(.PUT, path, body: body, retry: .safe)
    return try decode([BulkIdResult].self, answer, "PUT /api\(path)")
  }

  // MARK: - Sync acks (session only)

  /// `GET /api/sync/ack`: this session's checkpoints.
  package func syncAcks() async throws(ImmichError) -> [SyncAck] {
    try await get("/sync/ack", as: [SyncAck].self)
  }

  /// `POST /api/sync/ack {acks}` (at most 1000; the last per type wins).
  package func sendSyncAcks(_ acks: [String]) async throws(ImmichError) {
    guard !acks.isEmpty else { return }
    for start in stride(from: 0, to: acks.count, by: 1000) {
      let chunk = Array(acks[start..<min(start + 1000, acks.count)])
      _ = try await send(.POST, "/sync/ack", body: ["acks": chunk], retry: .safe)
    }
  }

  /// `DELETE /api/sync/ack`: forgets the checkpoints of `types`, or all when nil.
  package func deleteSyncAcks(types: [String]? = nil) async throws(ImmichError) {
    let body: [String: Any] = types.map { ["types": $0] } ?? [:]
    _ = try await send(.DELETE, "/sync/ack", body: body, retry: .safe)
  }

  // MARK: - Plumbing

  func url(_ path: String) -> String { apiBase + path }

  /// A uuid for a URL path: lower-case, and refused unless it looks like one (so nothing
  /// else can be smuggled into the path).
  func pathId(_ id: String) throws(ImmichError) -> String {
    let lower = id.lowercased()
    guard lower.count == 36, lower.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
      throw ImmichError(.rejected, "not an asset or tag id: '\(id)'")
    }
    return lower
  }

  func get<T: Decodable>(_ path: String, as type: T.Type) async throws(ImmichError) -> T {
    let answer = try await send(.GET, path, body: nil, retry: .safe)
    return try decode(type, answer, "GET /api\(path)")
  }

  /// Sends a request and returns a 2xx answer; anything else becomes an `ImmichError`.
  func send(
    _ method: HTTPMethod, _ path: String, body: [String: Any]?, retry: RetryPolicy
  ) async throws(ImmichError) -> HTTPAnswer {
    let label = "\(method.rawValue) /api\(path)"
    var bytes: [UInt8]?
    if let body {
      guard let data = try? JSONSerialization.data(withJSONObject: body) else {
        throw ImmichError(.configuration, "\(label): cannot encode the request body")
      }
      bytes = Array(data)
    }
    let call = HTTPCall(
      method: method, url: url(path), credential: credential, body: bytes, retry: retry,
      label: label)
    let answer = try await transport.send(call)
    guard (200..<300).contains(answer.status), !answer.isHTML else {
      throw ServerErrors.error(for: answer, label: label, credential: credential, apiBase: apiBase)
    }
    return answer
  }

  func decode<T: Decodable>(_ type: T.Type, _ answer: HTTPAnswer, _ label: String)
    throws(ImmichError) -> T
  {
    do {
      return try JSONDecoder().decode(type, from: Data(answer.body))
    } catch {
      if !answer.isJSON {
        throw ImmichError(
          .notImmich,
          "not an Immich API URL: \(apiBase) answered \(label) with"
            + " \(answer.contentType ?? "no content type"), not JSON",
          httpStatus: answer.status, request: label)
      }
      throw ImmichError(
        .server, "\(label): unexpected answer: \(Self.decodingProblem(error))",
        httpStatus: answer.status, request: label)
    }
  }

  static func decodingProblem(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return Failure.describe(error) }
    switch error {
    case .keyNotFound(let key, let context):
      return
        "missing field '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return
        "field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
    case .dataCorrupted(let context):
      return context.debugDescription
    @unknown default:
      return "cannot read it"
    }
  }
}

extension ImmichClient {
  /// An asset's image as `GET /api/assets/:id/thumbnail` serves it (`asset.view`).
  package struct Thumbnail: Sendable, Equatable {
    /// As the server said: `image/webp` for Immich's thumbnail size, `image/jpeg` for preview.
    package var contentType: String
    package var bytes: [UInt8]
  }

  /// `GET /api/assets/:id/thumbnail?size=thumbnail` (`asset.view`): the small image Immich's
  /// timeline shows (about 250 pixels). An asset without one (a video whose frame was never
  /// extracted) is 404; an unknown, locked or foreign asset is 400 `Not found or no asset.view
  /// access`; a key without the permission is 403.
  package func thumbnail(id: String) async throws(ImmichError) -> Thumbnail {
    let answer = try await send(
      .GET, "/assets/\(try pathId(id))/thumbnail?size=thumbnail", body: nil, retry: .safe)
    return Thumbnail(contentType: answer.contentType ?? "", bytes: answer.body)
  }
}

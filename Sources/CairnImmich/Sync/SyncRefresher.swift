import CairnRecords
import CairnStream
import CairnSupport

/// Brings the server-asset cache up to date with `POST /api/sync/stream`, then hands over the
/// listing the cache now holds.
///
/// The order of things is what keeps cache and server checkpoints consistent whatever
/// happens: lines are applied in transactions of at most `batchSize`, and a batch's acks are
/// posted only after its transaction committed. A stream cut off midway commits the complete
/// lines it delivered and acks exactly those; the next run resumes after them. If an ack is
/// lost, the server sends those lines again and applying them again changes nothing.
package struct SyncRefresher: Sendable {
  package let client: ImmichClient
  package let cache: AssetCache
  package let version: ServerVersion
  package let session: SavedSession
  package let ownerId: String
  package var batchSize: Int

  package init(
    client: ImmichClient, cache: AssetCache, version: ServerVersion, session: SavedSession,
    ownerId: String, batchSize: Int = 5000
  ) {
    self.client = client
    self.cache = cache
    self.version = version
    self.session = session
    self.ownerId = ownerId.lowercased()
    self.batchSize = max(1, batchSize)
  }

  /// What one refresh did.
  package struct Outcome: Sendable {
    package var cached: CachedListing
    /// Lines received (all rounds).
    package var lines: Int
    /// True when the stream (or the cache's login/type change) made it start from scratch.
    package var wasReset: Bool

    /// The listing decoded into records (for callers that look at each asset).
    package func listing() throws(CairnError) -> ServerListing { try cached.materialize() }
  }

  /// Streams changes into the cache and returns the complete listing. Throws `ImmichError`
  /// for the server (a `.transport` one when the stream was cut) and `CairnError` for the cache.
  package func refresh() async throws -> Outcome {
    let syncType = version.assetSyncRequestType
    var reset = try startOverIfForeign(syncType: syncType)
    var lines = 0
    var wasReset = reset
    for _ in 0..<3 {
      let round = try await streamRound(syncType: syncType, reset: reset)
      lines += round.lines
      if round.sawReset {
        try cache.reset(loginId: session.loginId, syncType: syncType, ownerId: ownerId)
        reset = true
        wasReset = true
        continue
      }
      guard round.sawComplete else {
        throw ImmichError(
          .transport, "POST /api/sync/stream: the stream ended without SyncCompleteV1",
          request: "POST /api/sync/stream")
      }
      let cached = CachedListing(
        cache: cache, ownerId: ownerId, summary: try cache.summary(ownerId: ownerId))
      return Outcome(cached: cached, lines: lines, wasReset: wasReset)
    }
    throw ImmichError(.server, "POST /api/sync/stream: the server keeps asking for a reset")
  }

  /// Empties the cache when its server checkpoints belong to another login (or none), or its
  /// stored lines are in another schema. True when it did.
  private func startOverIfForeign(syncType: String) throws -> Bool {
    guard
      try cache.meta("loginId") != session.loginId || cache.meta("syncType") != syncType
        || cache.meta("ownerId") != ownerId || cache.meta("recordSchema") != Schema.current
    else { return false }
    try cache.reset(loginId: session.loginId, syncType: syncType, ownerId: ownerId)
    return true
  }

  /// What one pass over the stream delivered.
  private struct Round {
    var lines = 0
    var sawReset = false
    var sawComplete = false
  }

  /// One pass over the stream: applies and acknowledges what arrives, batch by batch.
  private func streamRound(syncType: String, reset: Bool) async throws -> Round {
    var round = Round()
    var batch = SyncBatch()
    do {
      let delivered = try await client.syncStream(types: [syncType], reset: reset) { line in
        ProgressLine.standardError.advance("changes from the sync stream")
        switch line.type {
        case "AssetV2", "AssetV1":
          batch.add(.upsert(try line.assetRecord()), ack: line.ack)
        case "AssetDeleteV1":
          guard let id = line.data["assetId"]?.string else {
            throw ImmichError(.server, "POST /api/sync/stream: AssetDeleteV1 without assetId")
          }
          batch.add(.delete(id.lowercased()), ack: line.ack)
        case "SyncResetV1":
          round.sawReset = true
        case "SyncCompleteV1":
          batch.complete(ack: line.ack)
          round.sawComplete = true
        default:
          // Types we did not ask for: neither stored nor acknowledged.
          break
        }
        if batch.count >= batchSize {
          try await commit(batch)
          batch = SyncBatch()
        }
      }
      round.lines = delivered
    } catch let error as ImmichError {
      // A cut, a line that is no sync record, a stream past its bound: keep what arrived
      // whole, acknowledge exactly that (the next run resumes after it), then report.
      try await commit(batch)
      throw error
    }
    // After a reset the batch belongs to a checkpoint the server has given up: the caller
    // empties the cache and asks again (as before, nothing of it is committed).
    if !round.sawReset { try await commit(batch) }
    return round
  }

  /// Commits the batch, then (and only then) acknowledges it.
  private func commit(_ batch: SyncBatch) async throws {
    guard !batch.isEmpty else { return }
    try cache.apply(batch)
    try await client.sendSyncAcks(batch.acks.map(\.1))
  }
}

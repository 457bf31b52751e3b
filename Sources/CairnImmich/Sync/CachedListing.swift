import CairnStream

/// The listing held by the server-asset cache after a refresh: counted in SQLite and emitted as
/// the record lines stored with each asset, so a big library is never decoded to be listed.
///
/// It selects the same assets, in the same order, as `ServerListing(filtering:ownerId:)` over
/// the cache's rows; `materialize()` gives that listing for callers that need the records.
package struct CachedListing: Sendable {
  package let cache: AssetCache
  package let ownerId: String
  package let summary: ListingSummary

  package init(cache: AssetCache, ownerId: String, summary: ListingSummary) {
    self.cache = cache
    self.ownerId = ownerId
    self.summary = summary
  }

  /// Passes each listed asset's `asset` record line (without its newline), sorted by id.
  package func forEachLine(_ body: (UnsafeRawBufferPointer) -> Void) throws(CairnError) {
    try cache.forEachListedLine(ownerId: ownerId, body)
  }

  package func materialize() throws(CairnError) -> ServerListing {
    ServerListing(filtering: try cache.allAssets(), ownerId: ownerId)
  }
}

import CairnRecords
import CairnSupport

/// The user's own assets on the server: what `cairn-fetch` emits, with the counts of its
/// `end` record.
package struct ServerListing: Sendable, Equatable {
  /// Owned, non-locked assets (trashed ones included, flagged), sorted by id.
  package var assets: [AssetRecord]
  /// Assets of partners the search returned; never candidates, only counted.
  package var partnerSkipped: Int
  /// Owned assets in the locked folder (the sync stream sends them); never listed.
  package var lockedSkipped: Int

  package init(assets: [AssetRecord], partnerSkipped: Int = 0, lockedSkipped: Int = 0) {
    self.assets = assets
    self.partnerSkipped = partnerSkipped
    self.lockedSkipped = lockedSkipped
  }

  /// Keeps the assets `ownerId` owns and that are not locked, each id once, sorted by id.
  package init(filtering records: some Sequence<AssetRecord>, ownerId: String) {
    let owner = ownerId.lowercased()
    var kept: [AssetRecord] = []
    var partners = Set<String>()
    var locked = Set<String>()
    // The cache yields ids in order, each once: then no dictionary and no sort are needed.
    var ordered = true
    for record in records {
      if record.ownerId.lowercased() != owner {
        partners.insert(record.id)
      } else if record.visibility == AssetVisibility.locked.rawValue {
        locked.insert(record.id)
      } else {
        if let last = kept.last, last.id >= record.id { ordered = false }
        kept.append(record)
      }
    }
    if !ordered {
      // Searches page per visibility: an asset that moved between two pages shows twice.
      var byId: [String: AssetRecord] = [:]
      byId.reserveCapacity(kept.count)
      for record in kept { byId[record.id] = record }
      kept = byId.values.sorted { $0.id < $1.id }
    }
    assets = kept
    partnerSkipped = partners.count
    lockedSkipped = ordered ? locked.count : locked.subtracting(kept.map(\.id)).count
  }

  package var trashed: Int { assets.reduce(0) { $0 + ($1.isTrashed ? 1 : 0) } }

  /// Assets per visibility (`timeline`, `archive`, `hidden`).
  package var perVisibility: [String: Int] {
    var counts: [String: Int] = [:]
    for asset in assets { counts[asset.visibility, default: 0] += 1 }
    return counts
  }

  package var summary: ListingSummary {
    ListingSummary(
      assets: assets.count, trashed: trashed, perVisibility: perVisibility,
      partnerSkipped: partnerSkipped, lockedSkipped: lockedSkipped)
  }
}

/// The counts of a listing, whichever way it was obtained.
package struct ListingSummary: Sendable, Equatable {
  /// Owned, non-locked assets listed (trashed ones included).
  package var assets = 0
  package var trashed = 0
  /// Listed assets per visibility (`timeline`, `archive`, `hidden`).
  package var perVisibility: [String: Int] = [:]
  package var partnerSkipped = 0
  package var lockedSkipped = 0

  package init(
    assets: Int = 0, trashed: Int = 0, perVisibility: [String: Int] = [:],
    partnerSkipped: Int = 0, lockedSkipped: Int = 0
  ) {
    self.assets = assets
    self.trashed = trashed
    self.perVisibility = perVisibility
    self.partnerSkipped = partnerSkipped
    self.lockedSkipped = lockedSkipped
  }
}

/// Lists the server page by page with `POST /api/search/metadata`, in the server's dialect.
///
/// Each listed visibility is asked for explicitly, on every version: v2 would otherwise give
/// `timeline` only, and on v3 naming them keeps `locked` out by construction rather than by a
/// default that changed once already. `withDeleted` (flat) or no `trashedAt` condition
/// (structured, 3.2) makes trashed assets show (`isTrashed`): both dialects list the same set.
/// Every page is fetched before anything is returned: a failure leaves no partial listing.
package struct SearchLister: Sendable {
  package let client: ImmichClient
  package let ownerId: String
  package var pageSize: Int

  package init(client: ImmichClient, ownerId: String, pageSize: Int = 1000) {
    self.client = client
    self.ownerId = ownerId
    self.pageSize = pageSize
  }

  package func list(progress: (@Sendable (Int) -> Void)? = nil) async throws(ImmichError)
    -> ServerListing
  {
    var records: [AssetRecord] = []
    for visibility in AssetVisibility.listed {
      var bound = PageBound(
        label: "POST /api/search/metadata (\(visibility.rawValue))", pageSize: pageSize)
      var query = MetadataQuery(
        visibility: visibility, withDeleted: true, page: 1, size: pageSize, order: "asc")
      var ordinal = 1
      while true {
        let answer = try await client.searchMetadata(query)
        for item in answer.items { records.append(item.record) }
        progress?(records.count)
        try bound.check(page: ordinal, items: answer.items.count, next: answer, sent: query)
        guard let next = answer.next(after: query) else { break }
        if ordinal == 1 { bound.counted = await count(visibility) }
        query = next
        ordinal += 1
      }
    }
    return ServerListing(filtering: records, ownerId: ownerId)
  }

  /// The server's own count, asked only once a listing needs a second page (a small library
  /// costs no extra request); nil when the server or the key can't say, and then the page
  /// bound alone stops an endless listing.
  private func count(_ visibility: AssetVisibility) async -> Int? {
    do {
      return try await client.countAssets(visibility: visibility)
    } catch {
      Diagnostics.verbose(
        "cannot count the \(visibility.rawValue) assets (\(error.message)); paging without a count")
      return nil
    }
  }
}

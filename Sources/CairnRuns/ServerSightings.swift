import CairnStream
import Foundation

/// Reads what the server says now of assets cairn runs trashed, in few requests: a run's
/// tagged assets are listed (`assets(taggedWith:)`, pages of 1,000 per visibility) when many of
/// its assets are asked about, and each other asset is asked for on its own
/// (`GET /api/assets/:id`), as is any the listing did not hold (its run tag removed by hand).
package struct ServerSightings: Sendable {
  /// One asset to look at: its id, and its run's tag and size when known.
  package struct Wanted: Sendable, Equatable {
    package var id: String
    package var tagID: String?
    /// How many assets the run tagged (its listing's length), 0 when unknown.
    package var runSize: Int

    package init(id: String, tagID: String?, runSize: Int) {
      self.id = id.lowercased()
      self.tagID = tagID
      self.runSize = runSize
    }
  }

  /// Every asset seen, by lower-case id: those asked about that the server has, and the rest
  /// of each run listed (where the other half of a Live Photo is found).
  package private(set) var seen: [String: RunAsset] = [:]
  /// Ids found in a run tag's listing: a cairn run tagged them.
  package private(set) var runTagged: Set<String> = []
  package init() {}

  /// What the server says of `id` (read by `read` first).
  package func sighting(_ id: String) -> ServerSighting {
    guard let asset = seen[id.lowercased()] else { return .absent }
    return asset.isTrashed ? .trashed : .active
  }

  /// Looks at `wanted` on `server`. `listedAlways` names run tags to list whatever their
  /// size (to find the still of a motion video).
  package mutating func read(
    _ wanted: [Wanted], on server: any RunServer, listedAlways: Set<String> = []
  ) async throws(CairnError) {
    var byTag: [String: [Wanted]] = [:]
    var alone: [Wanted] = []
    for item in wanted {
      if let tag = item.tagID { byTag[tag, default: []].append(item) } else { alone.append(item) }
    }
    for (tag, items) in byTag.sorted(by: { $0.key < $1.key }) {
      guard listedAlways.contains(tag) || Self.listingIsCheaper(items) else {
        alone += items
        continue
      }
      try await list(tag, on: server)
      alone += items.filter { seen[$0.id] == nil }
    }
    for item in alone where seen[item.id] == nil {
      if let asset = try await server.asset(id: item.id) { seen[item.id] = asset }
    }
  }

  /// Whether a cairn run tagged `id`, as far as what was read says.
  package func carriesRunTag(_ id: String) -> Bool {
    runTagged.contains(id)
      || (seen[id]?.tagValues ?? []).contains { RunTag(value: $0) != nil }
  }

  /// Listing a run costs about one request per 1,000 of its assets for each of the three
  /// listed visibilities; asking for each asset, one request per asset.
  static func listingIsCheaper(_ items: [Wanted]) -> Bool {
    let size = max(items.map(\.runSize).max() ?? 0, items.count)
    return items.count > 3 * ((size + 999) / 1000)
  }

  private mutating func list(_ tag: String, on server: any RunServer) async throws(CairnError) {
    for asset in try await server.assets(taggedWith: tag) {
      seen[asset.id.lowercased()] = asset
      runTagged.insert(asset.id.lowercased())
    }
  }
}

/// Search order: `fileCreatedAt`, then `id`.
struct AssetSortKey: Comparable, Hashable, Sendable {
  var time: Double
  var id: String

  static func < (lhs: AssetSortKey, rhs: AssetSortKey) -> Bool {
    lhs.time != rhs.time ? lhs.time < rhs.time : lhs.id < rhs.id
  }
}

/// Every asset's sort key kept in ascending order, so a page of results is a walk from one end
/// rather than a sort per request. Inserts and removals are binary searches.
struct AssetIndex: Sendable {
  private(set) var keys: [AssetSortKey] = []

  init(keys: [AssetSortKey] = []) {
    self.keys = keys.sorted()
  }

  var count: Int { keys.count }

  mutating func insert(_ key: AssetSortKey) {
    keys.insert(key, at: position(of: key))
  }

  mutating func remove(_ key: AssetSortKey) {
    let at = position(of: key)
    if at < keys.count, keys[at] == key { keys.remove(at: at) }
  }

  /// The first position whose key is not less than `key`.
  func position(of key: AssetSortKey) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let mid = (low + high) / 2
      if keys[mid] < key { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The key at the `n`-th position when walking in `descending` or ascending order.
  func key(at n: Int, descending: Bool) -> AssetSortKey {
    descending ? keys[keys.count - 1 - n] : keys[n]
  }
}

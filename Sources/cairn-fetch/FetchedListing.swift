import CairnCore
import CairnImmich

/// What a run lists: records gathered page by page, or the server-asset cache a sync-stream
/// refresh brought up to date, whose stored record lines are copied out as they are.
enum FetchedListing {
  case records(ServerListing)
  case cached(CachedListing)

  var summary: ListingSummary {
    switch self {
    case .records(let listing): listing.summary
    case .cached(let cached): cached.summary
    }
  }

  /// The listing as records (for `--diagnose`, which looks at each asset).
  func records() throws -> ServerListing {
    switch self {
    case .records(let listing): listing
    case .cached(let cached): try cached.materialize()
    }
  }

  /// One `asset` record per listed asset, sorted by id.
  func emit(to writer: RecordWriter) throws {
    switch self {
    case .records(let listing):
      for asset in listing.assets { writer.write(asset) }
    case .cached(let cached):
      try cached.forEachLine { writer.writeLine($0, type: AssetRecord.recordType) }
    }
  }
}

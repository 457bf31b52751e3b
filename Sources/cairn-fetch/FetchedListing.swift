import CairnImmich
import CairnRecords
import CairnStream

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

  /// One `asset` record per listed asset, sorted by id, marked `inAlbum` where `albums` says
  /// so. A cached listing's stored lines are copied out as they are while no asset is in an
  /// album; otherwise its records are built, so the marking is never lost.
  func emit(to writer: RecordWriter, albums: AlbumMembership) throws {
    if case .cached(let cached) = self, albums == .known([]) || albums.isUnreadable {
      try cached.forEachLine { writer.writeLine($0, type: AssetRecord.recordType) }
      return
    }
    for var asset in try records().assets {
      asset.inAlbum = albums.contains(asset.id)
      writer.write(asset)
    }
  }
}

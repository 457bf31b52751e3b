import CairnImmich
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// What cairn-fetch writes from a connection: the listing (its main job), the header alone
/// (`identity`), or the listing's report for a person (`diagnose`). One function each.
struct Lister {
  let configuration: Configuration
  var source = ListingSource()
  let writer = RecordWriter()
  static let tool = CairnFetch.toolName

  /// The main job: a header, every asset (marked where it is in an album), an end record.
  func list() async throws -> ExitStatus {
    var clock = PhaseClock()
    let connection = try await connect(&clock)
    let header = HeaderRecord(tool: Self.tool, server: connection.identity)
    let listing = try await fetchListing(connection, header, &clock)
    let albums = try await readAlbums(connection, header)
    writer.write(header)
    try listing.emit(to: writer, albums: albums)
    writer.write(EndRecord(tool: Self.tool, complete: true, counts: counts(listing, connection)))
    writer.flush()
    clock.lap("emit")
    if Diagnostics.stderrIsTerminal {
      let summary = listing.summary
      Diagnostics.info(
        "\(summary.assets) assets (\(summary.trashed) in the trash), "
          + "\(summary.partnerSkipped) partner assets skipped, "
          + "\(connection.client.requestsSent) requests")
    }
    return .success
  }

  /// `identity`: the header with the server and user, and an end record.
  func identity() async throws -> ExitStatus {
    var clock = PhaseClock()
    let connection = try await connect(&clock)
    writer.write(HeaderRecord(tool: Self.tool, server: connection.identity))
    writer.write(
      EndRecord(
        tool: Self.tool, complete: true, counts: ["requests": connection.client.requestsSent]))
    writer.flush()
    return .success
  }

  /// `diagnose`: the counts per visibility and the Live Photo problems on stderr; a header
  /// and an end record with those counts on stdout.
  func diagnose() async throws -> ExitStatus {
    var clock = PhaseClock()
    let connection = try await connect(&clock)
    let header = HeaderRecord(tool: Self.tool, server: connection.identity)
    let listing = try await fetchListing(connection, header, &clock)
    var counts = counts(listing, connection)
    writer.write(header)
    let records = try listing.records()
    let report = LivePhotoReport(records.assets)
    for (visibility, count) in listing.summary.perVisibility { counts[visibility] = count }
    counts["danglingLivePhoto"] = report.dangling.count
    counts["orphanedHiddenVideos"] = report.orphans.count
    Diagnose.print(records, report)
    writer.write(EndRecord(tool: Self.tool, complete: true, counts: counts))
    writer.flush()
    clock.lap("emit")
    return .success
  }

  /// The connection, with the newer-version notice; a failure frames the output.
  private func connect(_ clock: inout PhaseClock) async throws -> ServerConnection {
    let connection: ServerConnection
    do {
      connection = try await ServerConnection.connect(configuration: configuration)
    } catch {
      fail(nil, error, requests: 0)
      throw error
    }
    clock.lap("connect", "\(connection.identity.url), Immich \(connection.version)")
    // Taken only when it can be seen: a quiet run leaves it for one that is not.
    if Diagnostics.verbosity > .quiet,
      let warning = NewerVersionNotice.take(
        connection.version, configuration.paths, connection.partition)
    {
      Diagnostics.warning(warning)
    }
    return connection
  }

  /// The listing, from the sync stream or page by page; a failure frames the output.
  private func fetchListing(
    _ connection: ServerConnection, _ header: HeaderRecord, _ clock: inout PhaseClock
  ) async throws -> FetchedListing {
    let listing: FetchedListing
    do {
      listing = try await fetch(connection)
    } catch {
      fail(header, error, requests: connection.client.requestsSent)
      throw error
    }
    ProgressLine.standardError.finish()  // before the header: see ListingProgress.swift
    clock.lap("list", "\(listing.summary.assets) assets")
    return listing
  }

  /// The end record's counts of a listing.
  private func counts(_ listing: FetchedListing, _ connection: ServerConnection) -> [String: Int] {
    let summary = listing.summary
    return [
      "assets": summary.assets, "trashed": summary.trashed,
      "partnerSkipped": summary.partnerSkipped, "lockedSkipped": summary.lockedSkipped,
      "requests": connection.client.requestsSent,
    ]
  }

  /// Which assets are in an album, read after the listing (so the marking also covers a
  /// cached listing); says once when protection is off. A failure frames the output.
  func readAlbums(_ connection: ServerConnection, _ header: HeaderRecord) async throws
    -> AlbumMembership
  {
    do {
      let albums = try await AlbumMembership.read(connection.client)
      if case .unreadable(let why) = albums { Diagnostics.warning(why) }
      return albums
    } catch {
      fail(header, error, requests: connection.client.requestsSent)
      throw error
    }
  }

  /// The sync stream when a session allows it, else the paginated listing.
  func fetch(_ connection: ServerConnection) async throws -> FetchedListing {
    let paths = configuration.paths
    let search = SearchLister(client: connection.client, ownerId: connection.identity.userId)
    guard source.usesSync else { return .records(try await search.listShowingProgress()) }
    guard let session = try SessionStore.load(paths, connection.partition) else {
      Diagnostics.info(
        "listing the server page by page; for fast incremental refreshes, run"
          + " 'cairn-fetch login' once")
      return .records(try await search.listShowingProgress())
    }
    let cache = try AssetCache.open(paths, connection.partition)
    let refresher = SyncRefresher(
      client: connection.client.usingSession(session.token), cache: cache,
      version: connection.version, session: session, ownerId: connection.identity.userId)
    do {
      let outcome = try await refresher.refresh()
      Diagnostics.verbose("sync stream: \(outcome.lines) lines\(outcome.wasReset ? ", reset" : "")")
      return .cached(outcome.cached)
    } catch let error as ImmichError {
      switch error.kind {
      case .unauthorized, .forbidden:
        Diagnostics.warning(
          "the saved session no longer works (\(error.serverMessage ?? error.message));"
            + " listing page by page; run 'cairn-fetch login' to renew it")
      default:
        Diagnostics.warning("sync stream failed (\(error.message)); listing page by page")
      }
      return .records(try await search.listShowingProgress())
    }
  }

  /// A failed run still frames its output, so no stage mistakes it for a listing.
  func fail(_ header: HeaderRecord?, _ error: any Error, requests: Int) {
    let message: String
    var code: String?
    if let error = error as? ImmichError {
      message = error.message
      code = error.httpStatus.map { "http-\($0)" }
    } else if let error = error as? CairnError {
      message = error.description
    } else {
      message = "\(error)"
    }
    writer.write(header ?? HeaderRecord(tool: Self.tool))
    writer.write(ErrorRecord(tool: Self.tool, message: message, code: code))
    writer.write(
      EndRecord(tool: Self.tool, complete: false, errors: 1, counts: ["requests": requests]))
    writer.flush()
  }
}

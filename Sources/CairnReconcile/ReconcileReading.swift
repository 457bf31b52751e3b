import CairnEngine
import CairnRecords
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// How lines already read by the last run are known again: not at all (the plain reading,
/// every line parsed), or by their digests (a scan line the last scan's snapshot has, and a
/// listing line the last listing had, are taken as they were without parsing; see
/// docs/FAST-PATHS.md). Either gives the same files and assets.
package enum LineRecognition: Sendable {
  case parseEveryLine
  case byDigest
}

/// Where the server's listing comes from.
package enum ListingSource: Sendable {
  /// A file of `cairn-fetch` output (`--server FILE`).
  case file(String)
  /// A live `cairn-fetch`, run beside this program with these arguments.
  case fetch([String])
}

/// The threads of one cairn-reconcile run, and the reading of its two inputs together: the
/// server listing on a thread of its own from the start, the last scan's snapshot once the
/// listing names the partition, the scan on the caller's thread, and the lookups of the
/// server's checksums in the scan once both are read. Its methods are the phases `-v` prints,
/// each waiting for what it needs of the others.
package final class ReconcileReading: Sendable {
  private let recognition: LineRecognition
  private let paths: CairnPaths
  private let identity = Handoff<ServerIdentity>()
  private let listing: BackgroundWork<ListingInput>
  private let snapshot: BackgroundWork<ScanSnapshotPreload>?
  /// The scan the lookups are for, and their making.
  private let lookups = Locked<(ScanFiles, BackgroundWork<ScanLookupPlan>)?>(nil)

  /// Starts reading the listing (and, with digest recognition, the last scan's snapshot as
  /// soon as the listing names the partition).
  package init(
    listing source: ListingSource, paths: CairnPaths, recognition: LineRecognition = .parseEveryLine
  ) {
    self.recognition = recognition
    self.paths = paths
    listing = Self.startListing(source, identity: identity, paths: paths, recognition: recognition)
    snapshot =
      recognition == .byDigest
      ? BackgroundWork("cairn-reconcile-snapshot") { [identity] () throws(CairnError) in
        ScanSnapshotPreload.read(try identity.value().partition, paths: paths)
      } : nil
  }

  private static func startListing(
    _ source: ListingSource, identity: Handoff<ServerIdentity>, paths: CairnPaths,
    recognition: LineRecognition
  ) -> BackgroundWork<ListingInput> {
    let partitions = recognition == .byDigest ? paths : nil
    return BackgroundWork("cairn-reconcile-listing") { () throws(CairnError) in
      let identified = { (server: ServerIdentity) in identity.deliver(.success(server)) }
      do throws(CairnError) {
        switch source {
        case .file(let path):
          return try ListingInput.read(path: path, identified: identified, partitions: partitions)
        case .fetch(let arguments):
          return try ListingInput.fetch(arguments, identified: identified, partitions: partitions)
        }
      } catch {
        identity.deliver(.failure(error))
        throw error
      }
    }
  }

  /// "read scan": reads `stream` to its end, then starts the lookups of the server's checksums
  /// in it on another thread. With digest recognition, the scan waits for the last scan's
  /// snapshot first, but no longer than half a second (a tenth for a million files, once the
  /// listing's first line names the partition; a live listing slow to start holds the scan
  /// back no longer than that): lines read before it arrives are parsed, so reading sooner
  /// would cost more than it saves. The plain reading starts at once.
  package func readScan(_ stream: RecordStream) throws(CairnError) -> ScanInput {
    snapshot?.wait(upTo: 0.5)
    let scan = try ScanInput.read(stream, previous: snapshot)
    startLookups(scan.files)
    return scan
  }

  /// The lookups need neither the store nor the settings: they are made on the listing's core
  /// while the caller's records the scan, or carried over from the last run's once recording
  /// has said what changed (`PresenceCache`).
  private func startLookups(_ files: ScanFiles) {
    let (listing, identity, paths, snapshot) = (listing, identity, paths, snapshot)
    let work = BackgroundWork("cairn-reconcile-lookup") { () throws(CairnError) in
      try ScanLookupPlan.prepare(
        files: files, listing: { () throws(CairnError) in try listing.value().assets },
        cacheFolder: paths.partitionCacheDirectory(try identity.value().partition),
        snapshot: try? snapshot?.value())
    }
    lookups.withLock { $0 = (files, work) }
  }

  /// The server's identity, once the listing's header has named it.
  package func server() throws(CairnError) -> ServerIdentity { try identity.value() }

  /// The last scan's snapshot read ahead, for recording the scan (nil: read when needed).
  package func lastScan() -> ScanSnapshotPreload? { try? snapshot?.value() }

  /// "read server listing": the whole listing, once read.
  package func readServerListing() throws(CairnError) -> ListingInput { try listing.value() }

  /// "look up server checksums": the scan's lookups of the listing's checksums, carried over
  /// when `state` recorded the scan against the snapshot they were kept for, made otherwise.
  /// After `readScan`.
  package func lookUpServerChecksums(in state: some ReconcileAccess) throws(CairnError) -> (
    ScanLookup, ListingKey
  ) {
    guard let (files, work) = lookups.current else {
      preconditionFailure("the lookups are made for a scan: readScan comes first")
    }
    let plan = try work.value()
    let listing = try self.listing.value()
    return (plan.lookup(files: files, assets: listing.assets, recordedIn: state), plan.listing)
  }

  /// Keeps the lookups for the next run, made for the snapshot `state` recorded, in the
  /// partition's cache folder (see `PresenceCache`). Lookups an older cairn kept in the state
  /// folder are removed: a cache, never read from there again.
  package func keepLookups(
    _ lookup: ScanLookup, listing: ListingKey, in state: some ReconcileAccess
  ) {
    guard let partition = try? identity.value().partition else { return }
    unlink(CairnPaths.formerListingPresence(inPartitionFolder: paths.partitionDirectory(partition)))
    PresenceCache.keep(
      lookup, listing: listing, recordedIn: state,
      cacheFolder: paths.partitionCacheDirectory(partition))
  }
}

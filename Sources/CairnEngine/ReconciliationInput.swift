import CairnRecords
import CairnSettings
import Foundation

/// Everything the engine reasons about, gathered by the caller; the engine does no I/O. The
/// scan and the listing are read through two small protocols (`ScanContents`, `AssetListing`),
/// whose plain readings are `PlainScan` and `PlainListing`.
package struct ReconciliationInput: Sendable {
  /// The files this run scanned, under every root.
  package var scan: any ScanContents
  /// How the scan of each root went; only complete roots without a problem can make
  /// anything gone.
  package var roots: [RootStatus]
  /// The observed store, after this scan was recorded: every checksum, or, when
  /// `observedCount` is set, only the checksums absent from this scan (a caller that recorded
  /// the scan knows every scanned checksum is observed, and a million entries the engine would
  /// only count cost seconds to load).
  package var observed: [String: ObservedEntry]
  /// The number of checksums in the observed store when `observed` holds only those absent
  /// from the scan; nil when it holds them all.
  package var observedCount: Int?
  /// First-missing times by checksum (first write wins).
  package var missingSince: [String: Date]
  /// Positive deletion signals by checksum.
  package var confirmations: [String: DeletionConfirmation]
  /// Edit anchors, after this scan was recorded.
  package var anchors: [EditAnchor]
  package var exclusions: Set<String>
  /// The server's assets, already limited to the partition's user.
  package var assets: any AssetListing
  package var settings: ReconciliationSettings
  package var now: Date
  /// The assets cairn runs trashed and did not restore (the journal's), lower-case id to run
  /// id: such an asset back in the library is put back; no other trashed asset is touched.
  package var trashedByRuns: [String: String]
  /// The files the watcher saw arrive and could not hash that a complete scan of their root
  /// may now judge: seen before the scan began, their path not in it, not hashed since.
  package var unhashed: [UnhashedSighting]

  package init(
    scan: any ScanContents, roots: [RootStatus], observed: [String: ObservedEntry],
    observedCount: Int? = nil, missingSince: [String: Date] = [:],
    confirmations: [String: DeletionConfirmation] = [:],
    anchors: [EditAnchor] = [], exclusions: Set<String> = [], assets: any AssetListing,
    settings: ReconciliationSettings = .defaults, now: Date,
    trashedByRuns: [String: String] = [:], unhashed: [UnhashedSighting] = []
  ) {
    self.scan = scan
    self.roots = roots
    self.observed = observed
    self.observedCount = observedCount
    self.missingSince = missingSince
    self.confirmations = confirmations
    self.anchors = anchors
    self.exclusions = exclusions
    self.assets = assets
    self.settings = settings
    self.now = now
    self.trashedByRuns = trashedByRuns
    self.unhashed = unhashed
  }
}

/// What the engine decided.
package struct ReconciliationOutput: Sendable {
  /// Candidates ordered by bucket (delete, pending, held, restore, kept), then checksum, then asset
  /// id.
  package var candidates: [CandidateRecord]
  /// Observed checksums that are gone this run, whether or not the server has them, sorted:
  /// the caller records their first-missing time.
  package var gone: [String]
  /// The roots that could make anything gone (complete, no problem), sorted.
  package var completeRoots: [String]
  package var summary: ReconciliationSummary
  /// The lower-case ids of the assets proposed because of a file the watcher saw but never
  /// hashed (`seen-unhashed`): whatever bucket a Live Photo gives them, only a person's
  /// approval lets one go, which the point-of-action check reads from the state.
  package var sightedAssets: Set<String> = []
  /// The store's keys of the sightings judged and done with (matched nothing, several assets,
  /// or an asset that went or was excluded).
  package var forgottenSightings: [Int64] = []
  /// For each sighting that matched several assets, how many (nothing is proposed for it).
  package var ambiguousSightings: [Int] = []

  package func candidates(in bucket: Bucket) -> [CandidateRecord] {
    candidates.filter { $0.bucket == bucket }
  }
}

/// The figures a person and the safety rails need.
package struct ReconciliationSummary: Sendable, Equatable {
  /// Files in this scan.
  package var localFiles = 0
  /// Checksums in the observed store.
  package var observed = 0
  /// Server assets listed (trashed ones included).
  package var serverAssets = 0
  /// Server assets, not trashed, whose checksum was observed: the threshold's denominator.
  package var matched = 0
  package var delete = 0
  package var pending = 0
  package var held = 0
  /// Gone checksums protected by an exclusion.
  package var excluded = 0
  /// Assets to bring back from the trash (cairn trashed them, their bytes are back).
  package var restore = 0
  /// Gone, but kept by the age window (bucket `kept`).
  package var kept = 0

  package init() {}

  /// As the `end` record's `counts` (`kept` only when the age window kept something).
  package var counts: [String: Int] {
    var counts = [
      "localFiles": localFiles, "observed": observed, "serverAssets": serverAssets,
      "matched": matched, "delete": delete, "pending": pending, "held": held,
      "excluded": excluded, "restore": restore,
    ]
    if kept > 0 { counts["kept"] = kept }
    return counts
  }
}

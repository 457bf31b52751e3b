import Foundation

/// Everything the engine reasons about, gathered by the caller; the engine does no I/O. The
/// scan and the listing are read through two small protocols (`ScanContents`, `AssetListing`),
/// whose plain readings are `PlainScan` and `PlainListing`.
public struct ReconciliationInput: Sendable {
  /// The files this run scanned, under every root.
  public var scan: any ScanContents
  /// How the scan of each root went; only complete roots without a problem can make
  /// anything gone.
  public var roots: [RootStatus]
  /// The observed store, after this scan was recorded: every checksum, or, when
  /// `observedCount` is set, only the checksums absent from this scan (a caller that recorded
  /// the scan knows every scanned checksum is observed, and a million entries the engine would
  /// only count cost seconds to load).
  public var observed: [String: ObservedEntry]
  /// The number of checksums in the observed store when `observed` holds only those absent
  /// from the scan; nil when it holds them all.
  public var observedCount: Int?
  /// First-missing times by checksum (first write wins).
  public var missingSince: [String: Date]
  /// Positive deletion signals by checksum.
  public var confirmations: [String: DeletionConfirmation]
  /// Edit anchors, after this scan was recorded.
  public var anchors: [EditAnchor]
  public var exclusions: Set<String>
  /// The server's assets, already limited to the partition's user.
  public var assets: any AssetListing
  public var settings: ReconciliationSettings
  public var now: Date
  /// The assets cairn runs trashed and did not restore (the journal's), lower-case id to run
  /// id: such an asset back in the library is put back; no other trashed asset is touched.
  public var trashedByRuns: [String: String]

  public init(
    scan: any ScanContents, roots: [RootStatus], observed: [String: ObservedEntry],
    observedCount: Int? = nil, missingSince: [String: Date] = [:],
    confirmations: [String: DeletionConfirmation] = [:],
    anchors: [EditAnchor] = [], exclusions: Set<String> = [], assets: any AssetListing,
    settings: ReconciliationSettings = .defaults, now: Date,
    trashedByRuns: [String: String] = [:]
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
  }
}

/// What the engine decided.
public struct ReconciliationOutput: Sendable {
  /// Candidates ordered by bucket (delete, pending, held, restore), then checksum, then asset
  /// id.
  public var candidates: [CandidateRecord]
  /// Observed checksums that are gone this run, whether or not the server has them, sorted:
  /// the caller records their first-missing time.
  public var gone: [String]
  /// The roots that could make anything gone (complete, no problem), sorted.
  public var completeRoots: [String]
  public var summary: ReconciliationSummary

  public func candidates(in bucket: Bucket) -> [CandidateRecord] {
    candidates.filter { $0.bucket == bucket }
  }
}

/// The figures a person and the safety rails need.
public struct ReconciliationSummary: Sendable, Equatable {
  /// Files in this scan.
  public var localFiles = 0
  /// Checksums in the observed store.
  public var observed = 0
  /// Server assets listed (trashed ones included).
  public var serverAssets = 0
  /// Server assets, not trashed, whose checksum was observed: the threshold's denominator.
  public var matched = 0
  public var delete = 0
  public var pending = 0
  public var held = 0
  /// Gone checksums protected by an exclusion.
  public var excluded = 0
  /// Assets to bring back from the trash (cairn trashed them, their bytes are back).
  public var restore = 0

  public init() {}

  /// As the `end` record's `counts`.
  public var counts: [String: Int] {
    [
      "localFiles": localFiles, "observed": observed, "serverAssets": serverAssets,
      "matched": matched, "delete": delete, "pending": pending, "held": held,
      "excluded": excluded, "restore": restore,
    ]
  }
}

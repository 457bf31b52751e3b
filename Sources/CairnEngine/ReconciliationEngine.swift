import CairnRecords
import CairnSettings
import Foundation

/// Decides which server assets were in the local library and are gone from it.
///
/// Rules (see `man/cairn-reconcile.1`):
/// - Scope by containment: "gone" means absent from every file this run scanned and last seen
///   only at paths under roots this run scanned completely (and without a problem), whatever
///   roots earlier runs named, and outside every folder a root put out of scope (a volume
///   away or replaced).
/// - Edits: the first checksum of a file that still exists (its edit anchor) is never gone;
///   intermediate versions carry a positive signal from when they were replaced, so they wait
///   out the quarantine.
/// - Never candidates: trashed server assets, excluded checksums, checksums never observed.
/// - A checksum on the server more than once makes every such asset a candidate: they are the
///   same bytes, and the local copy that justified keeping them is gone.
/// - Buckets: a confirmed deletion is `held` until confirmedAt + quarantine, then `delete`;
///   an unconfirmed one is `delete` when trusting and `pending` when strict. One the watcher
///   saw is `delete` at once when trusting: it never waits longer than one nobody saw. A favourite, and a
///   Live Photo still whose motion video stays, is `pending` rather than `delete`; so is a
///   photo in Android's trash (`android-trash`): the Immich app's "Free up space" leaves the
///   same name for photos the user keeps on the server.
/// - A Live Photo is decided whole: when both halves are candidates, both wait as long as the
///   half that waits longest; a motion video whose still stays on the server is `pending`.
/// - External-library assets (their checksum hashes a path) are never candidates.
/// - A trashed asset that a cairn run trashed and whose bytes are back is `restore`.
/// - A file the watcher saw arrive and never hashed, gone from a complete scan, makes the one
///   asset of its name and time `pending` (`seen-unhashed`; see `SightingRules.swift`).
package enum ReconciliationEngine {
  /// Decides, in four phases: which roots count, which originals an existing file keeps,
  /// which observed checksums are gone, and which assets become candidates. Pure: everything
  /// comes from `input`, and a listing line that cannot be read again as it was read first
  /// throws before any decision is returned.
  package static func reconcile(_ input: ReconciliationInput) throws(ListingReadBackError)
    -> ReconciliationOutput
  {
    let completeRoots = Self.completeRoots(input.roots)
    let anchored = anchoredOriginals(input)
    let inScope = scope(
      completeRoots: completeRoots, outOfScope: input.roots.flatMap(\.outOfScope),
      ignored: ignoredPaths(input))
    let gone = Self.gone(
      input.observed, inScope: inScope,
      absent: { !input.scan.contains($0) && !anchored.contains($0) })
    var summary = ReconciliationSummary()
    summary.localFiles = input.scan.count
    summary.observed = input.observedCount ?? input.observed.count
    summary.serverAssets = input.assets.count
    let present = input.scan.presence(of: input.assets)
    let sightings = try sightingCandidates(input, present: present, inScope: inScope)
    let candidates = try Self.candidates(
      input, present: present, gone: Set(gone), sighted: sightings.candidates,
      summary: &summary)
    return ReconciliationOutput(
      candidates: candidates, gone: gone, completeRoots: completeRoots.sorted(), summary: summary,
      sightedAssets: Set(sightings.candidates.map(\.assetId)),
      forgottenSightings: sightings.forgotten, ambiguousSightings: sightings.ambiguous)
  }

  /// The roots that can make anything gone: scanned completely, without a problem (folders
  /// out of scope are left out by path in `gone`).
  static func completeRoots(_ roots: [RootStatus]) -> Set<String> {
    roots.paths(.whole, .scoped)
  }

  /// Each root's ignored paths: the judging stage's own setting, and the patterns the scan says
  /// it left out of that root (a scan made under another configuration is not trusted to
  /// have walked what this one would).
  static func ignoredPaths(_ input: ReconciliationInput) -> [String: IgnoredPaths] {
    var ignored: [String: IgnoredPaths] = [:]
    for root in input.roots {
      let scanned = IgnoredPaths(scanned: root.ignored)
      let merged = input.settings.ignoredPaths.union(scanned)
      if !merged.isEmpty { ignored[root.path] = merged }
    }
    return ignored
  }

  /// The first checksums (originals) of the files that still exist: they stay on the server.
  /// The store passes only the few anchors that matter, so the scan is asked which of their
  /// identities it has rather than hashing a million identities into a set.
  static func anchoredOriginals(_ input: ReconciliationInput) -> Set<String> {
    guard !input.anchors.isEmpty else { return [] }
    let existing = input.scan.identities(among: Set(input.anchors.map(\.identity)))
    return Set(input.anchors.filter { existing.contains($0.identity) }.map(\.firstChecksum))
  }

  /// The observed checksums absent from this run (`absent`) whose every last known path lies
  /// under a root this run scanned completely, outside every folder out of scope and matched
  /// by none of that root's `ignored` paths, sorted. Scope is containment, not the root's
  /// name: a library first scanned as `~/Photos` and now as `~/Photos/2025` (or the other way
  /// round) is judged by where each checksum was last seen. A path outside every complete root
  /// may still hold the bytes (a file moved from root A to root B, then a run over A alone),
  /// and a checksum with no known path has nowhere to be proved gone from: neither is gone.
  /// A path under a volume that is away could be on it still, so it is not in scope either.
  static func gone(
    _ observed: [String: ObservedEntry], completeRoots: Set<String>,
    outOfScope: [RootStatus.OutOfScope] = [], ignored: [String: IgnoredPaths] = [:],
    absent: (String) -> Bool
  ) -> [String] {
    gone(
      observed,
      inScope: scope(completeRoots: completeRoots, outOfScope: outOfScope, ignored: ignored),
      absent: absent)
  }

  /// Whether a path lies under a root this run scanned completely, outside every folder out of
  /// scope and matched by none of that root's `ignored` paths: where a scan that did not find
  /// a file proves it gone.
  static func scope(
    completeRoots: Set<String>, outOfScope: [RootStatus.OutOfScope],
    ignored: [String: IgnoredPaths]
  ) -> (String) -> Bool {
    let scopes = completeRoots.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    return { path in
      (completeRoots.contains(path) || scopes.contains { path.hasPrefix($0) })
        && !outOfScope.contains { $0.contains(path) }
        && !ignored.contains { root, paths in paths.covers(path: path, root: root) }
    }
  }

  /// `gone`, with the scope made by `scope`.
  static func gone(
    _ observed: [String: ObservedEntry], inScope: (String) -> Bool, absent: (String) -> Bool
  ) -> [String] {
    var gone: [String] = []
    for (checksum, entry) in observed
    where !entry.paths.isEmpty && absent(checksum) && entry.paths.allSatisfy(inScope) {
      gone.append(checksum)
    }
    return gone.sorted()
  }

  static func describe(_ confirmation: DeletionConfirmation) -> String {
    switch confirmation.source {
    case "edit": return "was replaced by an edit"
    case DeletionConfirmation.watcherSource:
      return "was deleted (cairn-observe watch saw it happen)"
    case "freedesktop": return "was moved to the desktop trash"
    case "macos": return "was moved to the macOS Trash"
    case DeletionConfirmation.androidSource: return "was moved to Android's trash"
    default: return "was moved to a trash folder (\(confirmation.source))"
    }
  }
}

import Foundation

/// Decides which server assets were in the local library and are gone from it.
///
/// Rules (see `man/cairn-reconcile.1`):
/// - Scope: only checksums observed under a root this run scanned completely (and without a
///   problem) are considered. "Gone" means in scope, absent from every file this run scanned,
///   and last seen only at paths under roots this run scanned completely.
/// - Edits: the first checksum of a file that still exists (its edit anchor) is never gone;
///   intermediate versions carry a positive signal from when they were replaced, so they wait
///   out the quarantine.
/// - Never candidates: trashed server assets, excluded checksums, checksums never observed.
/// - A checksum on the server more than once makes every such asset a candidate: they are the
///   same bytes, and the local copy that justified keeping them is gone.
/// - Buckets: a confirmed deletion is `held` until confirmedAt + quarantine, then `delete`;
///   an unconfirmed one is `delete` when trusting and `pending` when strict. A favourite, and a
///   Live Photo still whose motion video stays, is `pending` rather than `delete`.
/// - External-library assets (their checksum hashes a path) are never candidates.
/// - A trashed asset that a cairn run trashed and whose bytes are back is `restore`.
public enum ReconciliationEngine {
  public static func reconcile(_ input: ReconciliationInput) -> ReconciliationOutput {
    let completeRoots = Set(
      input.roots.filter { $0.complete && $0.problem == nil }.map(\.path))

    let lookup =
      input.lookup.flatMap { $0.fits(input) ? $0 : nil }
      ?? ScanLookup(files: input.files, assets: input.assets)
    // The original of every file that still exists stays on the server. (The scan's identities
    // that have an anchor, found by looking each file up among the anchors: the same set as
    // intersecting all the scan's identities with them, without hashing a million identities
    // into a set when the store passes only the few anchors that matter.)
    let anchorIdentities = Set(input.anchors.map(\.identity))
    var identities = Set<FileIdentity>()
    if !anchorIdentities.isEmpty {
      for index in input.files.indices {
        let identity = FileIdentity(
          key: input.files.withIdentity(index) { String(decoding: $0, as: UTF8.self) })
        if anchorIdentities.contains(identity) { identities.insert(identity) }
      }
    }
    var anchored = Set<String>()
    for anchor in input.anchors where identities.contains(anchor.identity) {
      anchored.insert(anchor.firstChecksum)
    }

    // A checksum's last known paths outside every complete root may still hold its bytes: a
    // file moved from root A to root B, then a run over A alone (or over A and an unreadable
    // B). Nothing in this run proves them gone from there, so the checksum is not gone.
    let scopes = completeRoots.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    func inScope(_ path: String) -> Bool {
      completeRoots.contains(path) || scopes.contains { path.hasPrefix($0) }
    }
    var gone: [String] = []
    for (checksum, entry) in input.observed
    where !lookup.contains(checksum) && !anchored.contains(checksum)
      && !entry.roots.isDisjoint(with: completeRoots) && entry.paths.allSatisfy(inScope)
    {
      gone.append(checksum)
    }
    gone.sort()
    let goneSet = Set(gone)

    var summary = ReconciliationSummary()
    summary.localFiles = input.files.count
    summary.observed = input.observedCount ?? input.observed.count
    summary.serverAssets = input.assets.count
    let candidates = Self.candidates(input, lookup: lookup, gone: goneSet, summary: &summary)
    return ReconciliationOutput(
      candidates: candidates, gone: gone, completeRoots: completeRoots.sorted(), summary: summary)
  }

  static func describe(_ confirmation: DeletionConfirmation) -> String {
    switch confirmation.source {
    case "edit": return "was replaced by an edit"
    case "freedesktop": return "was moved to the desktop trash"
    case "macos": return "was moved to the macOS Trash"
    default: return "was moved to a trash folder (\(confirmation.source))"
    }
  }
}

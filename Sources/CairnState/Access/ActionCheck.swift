import CairnEngine
import CairnRecords
import CairnSealedFiles
import CairnSettings
import CairnStream
import Foundation
import GRDB

/// The check a stage that changes the server makes on every item at the moment it acts,
/// against the partition's own state rather than against its input.
///
/// A plan on standard input may have been written by hand, saved and replayed, or edited; the
/// state was written only by cairn's stages. An item passes when:
/// - it is a candidate `cairn-reconcile` computed from the latest recorded scan (same asset,
///   same checksum; see `ScanBinding`), and, when that put it in the pending or held bucket, a
///   person approved it;
/// - its checksum was observed in the library, and every path it was last seen at lies under
///   a root of that scan;
/// - the scan found it gone: the snapshot of the scan lists it among the observed checksums
///   absent from it (present anywhere in the scan: refused);
/// - it is not excluded;
/// - none of those paths is out of scope by the configuration's `CAIRN_IGNORE_PATHS`
///   (`ignoredPaths`, set by the caller from the configuration it read).
/// A proposal matched to a file the watcher saw but never hashed (`sighted`) has no observed
/// checksum to check: it passes only when a person approved it, whatever bucket it is in, its
/// bytes are not in the latest scan, and it is not excluded.
/// A Live Photo's motion video (named by the proposal, not by the stream) passes when it is not
/// excluded and not in the scan. A Live Photo is decided whole: an approval of either half
/// approves both (`LivePhotoHalves`); which video goes only with its still is `TrashPlan`'s
/// to say, from the same proposals. Who owns the asset and whether it is locked is the server's
/// to say (`cairn-trash` asks it).
package struct ActionCheck {
  let store: PartitionStore
  let scan: ScanSnapshot
  let absent: Set<String>
  package let proposals: [String: ScanBinding.Proposal]
  /// The Live Photos among the proposals.
  let halves: LivePhotoHalves
  let approvals: Set<String>
  let exclusions: Set<String>
  /// Parts of the roots out of scope: nothing last seen there is acted on.
  package var ignoredPaths = IgnoredPaths.none
  private var scanned: Set<ByteKey>?
  /// Paths of observed checksums read ahead by `prepare`, so a plan of thousands of items
  /// costs one read of the store rather than one each.
  private var pathsRead: [String: [String]] = [:]

  /// Loads what the check reads. Refused (25) when the latest scan left no snapshot to check
  /// against.
  package init(store: PartitionStore) throws(CairnError) {
    guard let scan = try store.binding.latestSnapshot() else {
      throw CairnError.refused(
        "refused by the point-of-action rail: the latest recorded scan left no record of "
          + "what it found (a root was incomplete, or the scan snapshot is missing); rerun the "
          + "whole pipeline over complete roots")
    }
    self.store = store
    self.scan = scan
    absent = Set(scan.absent)
    proposals = try store.binding.proposals()
    halves = ScanBinding.livePhotos(among: proposals)
    var approved: Set<String> = []
    for approval in try store.approvals.all() {
      approved.insert(approval.checksum)
      approved.insert(approval.assetId.lowercased())
    }
    approvals = approved
    exclusions = try store.exclusions.checksums()
  }

  /// Reads what `refusal(for:)` will need about `candidates` in one transaction.
  package mutating func prepare(_ candidates: [CandidateRecord]) throws(CairnError) {
    let checksums = Set(candidates.map(\.checksum))
    pathsRead = try store.database.read { db in
      var found: [String: [String]] = [:]
      let observed = try db.cachedStatement(
        sql: "SELECT EXISTS (SELECT 1 FROM observed WHERE checksum = ?)")
      let paths = try db.cachedStatement(sql: "SELECT path FROM observedPath WHERE checksum = ?")
      for checksum in checksums
      where try Bool.fetchOne(observed, arguments: [checksum]) == true {
        found[checksum] = try String.fetchAll(paths, arguments: [checksum])
      }
      return found
    }
  }

  /// Why `candidate` must not be acted on, or nil when it passes.
  package func refusal(for candidate: CandidateRecord) throws(CairnError) -> String? {
    let id = candidate.assetId.lowercased()
    guard let proposal = proposals[id] else {
      return "not a candidate cairn-reconcile computed from the latest scan"
    }
    guard proposal.checksum == candidate.checksum else {
      return "its checksum is not the one cairn-reconcile matched to this asset"
    }
    if proposal.sighted { return sightingRefusal(candidate) }
    if proposal.bucket != Bucket.delete.rawValue
      && !halves.isApproved(
        assetId: id, checksum: candidate.checksum, approvals: approvals, exclusions: exclusions)
    {
      return "cairn-reconcile put it in the \(proposal.bucket) bucket and nobody approved it "
        + "(cairn-gate --approve)"
    }
    guard let paths = try observedPaths(candidate.checksum) else {
      return "its checksum was never observed in the library"
    }
    guard absent.contains(candidate.checksum) else {
      return scan.lists(checksum: candidate.checksum)
        ? "it is present in the latest scan" : "the latest scan did not find it gone"
    }
    if let outside = paths.first(where: { !underScannedRoot($0) }) {
      return "it was last seen at \(outside), outside the roots of the latest scan"
    }
    if let ignored = paths.first(where: isIgnored) {
      return "it was last seen at \(ignored), which \(IgnoredPaths.setting) leaves out of scope"
    }
    if exclusions.contains(candidate.checksum) { return "excluded (a person asked to keep it)" }
    return nil
  }

  /// Why a sighted proposal must not be acted on, or nil: never without a person's approval.
  private func sightingRefusal(_ candidate: CandidateRecord) -> String? {
    guard
      halves.isApproved(
        assetId: candidate.assetId.lowercased(), checksum: candidate.checksum,
        approvals: approvals, exclusions: exclusions)
    else {
      return "cairn-reconcile matched it by name and time to a file cairn-observe watch saw "
        + "but never hashed, and nobody approved it (cairn-gate --approve)"
    }
    if exclusions.contains(candidate.checksum) { return "excluded (a person asked to keep it)" }
    if scan.lists(checksum: candidate.checksum) { return "it is present in the latest scan" }
    return nil
  }

  private func isIgnored(_ path: String) -> Bool {
    !ignoredPaths.isEmpty && scan.roots.contains { ignoredPaths.covers(path: path, root: $0) }
  }

  /// Why the motion video with `checksum` must not go to the trash with its still, or nil.
  package mutating func refusal(forVideo checksum: String) -> String? {
    if exclusions.contains(checksum) { return "its motion video is excluded" }
    if scanned == nil { scanned = scan.checksums() }
    if scanned?.contains(ByteKey(checksum)) == true {
      return "its motion video is present in the latest scan"
    }
    return nil
  }

  /// The paths `checksum` was last seen at; nil when it was never observed. (Its row alone:
  /// `ObservedStore.entry` reads the whole snapshot again to date it, for every item.)
  private func observedPaths(_ checksum: String) throws(CairnError) -> [String]? {
    if let paths = pathsRead[checksum] { return paths }
    return try store.database.read { db in
      guard
        try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM observed WHERE checksum = ?)",
          arguments: [checksum]) == true
      else { return nil }
      return try String.fetchAll(
        db, sql: "SELECT path FROM observedPath WHERE checksum = ?", arguments: [checksum])
    }
  }

  private func underScannedRoot(_ path: String) -> Bool {
    scan.roots.contains { root in
      path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
  }
}

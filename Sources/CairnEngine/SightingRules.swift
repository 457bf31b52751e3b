import CairnJSON
import CairnRecords
import Foundation

/// The files the watcher saw arrive and could not hash (`UnhashedSighting`), matched against
/// the server by name and time: the photo deleted within a second of arriving, or one still
/// being written when it was deleted, which no scan ever hashed.
///
/// A sighting is judged at a complete scan of its root (its path in scope as `gone` has it):
/// the caller passes only the sightings seen before that scan began whose path it did not find
/// and no scan or arrival hashed since. It matches the assets, not trashed and not in an
/// external library, whose `originalFileName` is its name byte for byte, whose checksum was
/// never observed in the library (one observed is judged by its bytes, as any other), and
/// whose `fileCreatedAt` lies within `sightingTolerance` of its modification time when both
/// are known. Exactly one match is a candidate, always `pending` (`seen-unhashed`): with no
/// checksum nothing proves the bytes were the library's, so only a person decides. The
/// sighting then stays, to be judged again at the next complete scan, until its asset goes (a
/// person trashed it, or approved it and cairn did) or is excluded: then, or when it matches
/// no asset or several, it is forgotten (`ReconciliationOutput.forgottenSightings`).
extension ReconciliationEngine {
  /// How far apart Immich's taken date (`fileCreatedAt`) and the file's modification time may
  /// be. The taken date comes from the photo's metadata and may be read in another time zone
  /// than the file's clock (offsets reach 14 hours); a phone or a sync tool writes the file
  /// some time after the shot. A day either way covers both, and a second photo of the same
  /// name within a day of the first is rare; when there is one, the sighting matches several
  /// assets and proposes nothing.
  package static let sightingTolerance: TimeInterval = 24 * 3_600

  /// What the sightings judged this run came to.
  struct SightingOutcome {
    var candidates: [CandidateRecord] = []
    /// The store's keys of the sightings to forget.
    var forgotten: [Int64] = []
    /// For each sighting that matched several assets, how many.
    var ambiguous: [Int] = []
  }

  /// Judges the sightings whose path is in scope (`inScope`); `present` tells, per asset,
  /// whether this scan has its checksum.
  static func sightingCandidates(
    _ input: ReconciliationInput, present: [Bool], inScope: (String) -> Bool
  ) throws(ListingReadBackError) -> SightingOutcome {
    let judged = input.unhashed.filter { inScope($0.path) }
    var outcome = SightingOutcome()
    guard !judged.isEmpty else { return outcome }
    let byName = try sightable(input, present: present, names: Set(judged.map(\.name)))
    var proposed: Set<String> = []
    for sighting in judged {
      let matches = (byName[Array(sighting.name.utf8)] ?? []).filter {
        withinTolerance($0, sighting)
      }
      guard matches.count == 1, let asset = matches.first,
        !input.exclusions.contains(asset.checksum)
      else {
        if matches.count > 1 { outcome.ambiguous.append(matches.count) }
        outcome.forgotten.append(sighting.key)
        continue
      }
      // Two sightings of one file (seen twice before it went) make one candidate.
      guard proposed.insert(asset.id.lowercased()).inserted else { continue }
      outcome.candidates.append(sightingCandidate(asset, sighting))
    }
    return outcome
  }

  /// The assets a sighting named one of `names` may match, by the bytes of their name: not
  /// trashed, not an external library's, and with bytes no scan ever had.
  static func sightable(
    _ input: ReconciliationInput, present: [Bool], names: Set<String>
  ) throws(ListingReadBackError) -> [[UInt8]: [AssetRecord]] {
    var byName: [[UInt8]: [AssetRecord]] = [:]
    for index in try input.assets.indices(ofFileNames: names)
    where !input.assets.isTrashed(index) && !present[index] {
      let asset = try input.assets.record(index)
      guard asset.libraryId == nil, input.observed[asset.checksum] == nil else { continue }
      byName[Array(asset.originalFileName.utf8), default: []].append(asset)
    }
    return byName
  }

  /// Whether `asset`'s taken date agrees with when the file was written: within the tolerance
  /// of its modification time; with that unknown (the file was gone when it was looked at),
  /// taken no later than the tolerance after it was seen; with no taken date, by name alone.
  static func withinTolerance(_ asset: AssetRecord, _ sighting: UnhashedSighting) -> Bool {
    guard let taken = asset.fileCreatedAt else { return true }
    guard let modified = sighting.modifiedAt else {
      return taken.timeIntervalSince(sighting.seenAt) <= sightingTolerance
    }
    return abs(taken.timeIntervalSince(modified)) <= sightingTolerance
  }

  /// The candidate for the one asset a sighting matched: pending, whatever else the asset is
  /// (a favourite, in an album, old: each said in the words, none needed to make it wait).
  static func sightingCandidate(_ asset: AssetRecord, _ sighting: UnhashedSighting)
    -> CandidateRecord
  {
    var detail =
      "a file of this name arrived in the library on \(sighting.seenAt.iso8601) and was gone "
      + "before cairn could read it (\(sighting.reason)); this asset has its name"
      + (asset.fileCreatedAt == nil || sighting.modifiedAt == nil ? "" : " and time")
      + ", but cairn never saw its bytes, so a person decides"
    if asset.isFavorite { detail += "; marked favourite on Immich" }
    if asset.inAlbum { detail += "; in an album on Immich" }
    return CandidateRecord(
      assetId: asset.id.lowercased(), checksum: asset.checksum, bucket: .pending,
      reason: CandidateReason.seenUnhashed.rawValue, detail: detail, paths: [sighting.path],
      originalFileName: asset.originalFileName, assetType: asset.assetType,
      visibility: asset.visibility, ownerId: asset.ownerId, fileCreatedAt: asset.fileCreatedAt,
      livePhotoVideoId: asset.livePhotoVideoId?.lowercased(),
      isFavorite: asset.isFavorite ? true : nil)
  }
}

import CairnRecords

/// The Live Photos among a set of candidates: for each still whose motion video is a candidate
/// too, each half's other half. A person's decision about one half is a decision about the
/// Live Photo (see `LivePhotoPairs`): the gate, the trash stage's check at the point of action
/// and the review marks all read approvals through this one rule.
package struct LivePhotoHalves: Sendable {
  /// One half as a decision is stored under it.
  package struct Half: Sendable, Equatable {
    package var assetId: String
    package var checksum: String
    /// True for the motion video.
    package var isVideo: Bool
  }

  private var others: [String: Half] = [:]
  private var othersByChecksum: [String: Half] = [:]

  /// `members`: each candidate's asset id, checksum and (for a still) its motion video's id.
  package init(_ members: [(assetId: String, checksum: String, livePhotoVideoId: String?)]) {
    var byId: [String: (assetId: String, checksum: String)] = [:]
    for member in members {
      byId[member.assetId.lowercased()] = (member.assetId.lowercased(), member.checksum)
    }
    for member in members {
      let still = member.assetId.lowercased()
      guard let videoId = member.livePhotoVideoId?.lowercased(), videoId != still,
        let video = byId[videoId]
      else { continue }
      let videoHalf = Half(assetId: video.assetId, checksum: video.checksum, isVideo: true)
      let stillHalf = Half(assetId: still, checksum: member.checksum, isVideo: false)
      others[still] = videoHalf
      others[videoId] = stillHalf
      othersByChecksum[member.checksum] = videoHalf
      othersByChecksum[video.checksum] = stillHalf
    }
  }

  package init(_ candidates: [CandidateRecord]) {
    self.init(candidates.map { ($0.assetId, $0.checksum, $0.livePhotoVideoId) })
  }

  /// The still of each motion video whose still is a candidate too, by lower-case asset id.
  package var stillsOfVideos: [String: String] {
    others.filter { !$0.value.isVideo }.mapValues(\.assetId)
  }

  /// The other half of the candidate `assetId`, when both halves are candidates.
  package func other(of assetId: String) -> Half? { others[assetId.lowercased()] }

  /// Whether `approvals` (checksums and lower-case asset ids) approve the candidate: its own
  /// approval, or its other half's, unless that half is excluded (a person kept it, so its
  /// approval no longer speaks for the pair).
  package func isApproved(
    assetId: String, checksum: String, approvals: Set<String>, exclusions: Set<String>
  ) -> Bool {
    if approvals.contains(checksum) || approvals.contains(assetId.lowercased()) { return true }
    guard let other = other(of: assetId), !exclusions.contains(other.checksum) else {
      return false
    }
    return approvals.contains(other.checksum) || approvals.contains(other.assetId)
  }

  /// `checksums` with, for each that is one half's, the other half's: what a person keeps,
  /// they keep whole.
  package func whole(_ checksums: [String]) -> [String] {
    var result = checksums
    var seen = Set(checksums)
    for checksum in checksums {
      if let other = othersByChecksum[checksum], seen.insert(other.checksum).inserted {
        result.append(other.checksum)
      }
    }
    return result
  }
}

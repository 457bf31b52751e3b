import CairnEngine
import CairnRecords
import CairnReviewPage
import CairnSafety
import Foundation
import ImmichTestServer

/// A plan with every bucket, a Live Photo whose video is a candidate too, a favourite, a held
/// pair in one folder and day, and a file whose name and folder are HTML.
struct ReviewFixture {
  static let hostileName = #"<img src=x onerror="document.title='pwned'">.jpg"#
  static let hostileFolder = #"/photos/"><script>document.title='pwned'</script>"#

  let day = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01
  let ids = (0..<10).map { String(format: "00000000-0000-4000-8000-%012d", $0) }

  func candidate(
    _ index: Int, _ bucket: Bucket, name: String, folder: String = "/photos/2024/06",
    days: Double = 0, video: Int? = nil
  ) -> CandidateRecord {
    CandidateRecord(
      assetId: ids[index], checksum: "checksum-\(index)", bucket: bucket, reason: "gone",
      detail: "gone from a complete scan", paths: ["\(folder)/\(name)"], originalFileName: name,
      fileCreatedAt: day.addingTimeInterval(days * 86_400),
      livePhotoVideoId: video.map { ids[$0] },
      livePhotoVideoChecksum: video.map { "checksum-\($0)" })
  }

  var candidates: [CandidateRecord] {
    var favourite = candidate(3, .pending, name: "FAV.JPG", folder: "/photos/2024/07")
    favourite.isFavorite = true
    var held = [
      candidate(5, .held, name: "H1.JPG", folder: "/photos/held"),
      candidate(6, .held, name: "H2.JPG", folder: "/photos/held"),
    ]
    for i in held.indices {
      held[i].eligibleAt = Date().addingTimeInterval(3 * 86_400 - 60)
      held[i].confirmedAt = day
    }
    // One deletion the watcher saw happen, one a trash folder confirmed.
    held[0].confirmedBy = DeletionConfirmation.watcherSource
    held[1].confirmedBy = "freedesktop"
    return [
      candidate(0, .delete, name: "IMG_1.JPG"),
      candidate(1, .delete, name: "LIVE.HEIC", days: 1, video: 2),
      candidate(2, .delete, name: "LIVE.MOV", days: 1),
      favourite,
      candidate(4, .pending, name: Self.hostileName, folder: Self.hostileFolder),
      candidate(7, .delete, name: "KEPT.JPG", folder: "/photos/kept"),
      CandidateRecord(
        assetId: ids[8], checksum: "checksum-8", bucket: .restore, reason: "put-back",
        paths: ["/photos/back/BACK.JPG"], originalFileName: "BACK.JPG"),
    ] + held
  }

  var plan: GatePlan {
    GatePlan(candidates: candidates, exclusions: ["checksum-7"], approvals: [])
  }

  /// Real JPEGs (the test server's) for every asset but the video, which has none, and the
  /// favourite, whose key lacks the permission.
  var thumbnails: [String: ThumbnailOutcome] {
    var out: [String: ThumbnailOutcome] = [:]
    for (index, id) in ids.enumerated() {
      let image = AssetImage.drawn(from: [UInt8(index * 25), 90, 200]).jpeg()
      out[id] = .served(contentType: "image/jpeg", bytes: image)
    }
    out[ids[2]] = .missing(.noImage)
    out[ids[3]] = .missing(.noPermission)
    return out
  }

  var input: ReviewInput {
    ReviewInput(
      plan: plan, streamDigest: PlanDigest.of(candidates),
      webBase: HTMLText.webBase(apiBase: "https://photos.example.net/api"), refusal: nil,
      thumbnails: thumbnails, generatedAt: Date())
  }
}

import CairnRecords
import CairnTestSupport
import Foundation
import Testing

/// cairn-reconcile on a listing file (`--server FILE`) whose `asset` records carry what the
/// engine's per-asset rules read: `isFavorite`, `libraryId`, and a Live Photo's hidden video,
/// found in the file by its id.
@Suite struct ListingFieldsReconcileTests {
  @Test func favouritesWaitExternalLibrariesAreLeftAloneAndAKeptVideoHoldsItsStill()
    async throws
  {
    let fixture = StateToolFixture()
    let names = ["plain.jpg", "fav.jpg", "ext.jpg", "IMG_2.HEIC", "IMG_2.MOV"]
    var sums: [String: String] = [:]
    for name in names { try fixture.photo(name, "bytes of \(name)") }
    for name in names { sums[name] = try await fixture.checksum(of: name) }
    func asset(
      _ id: String, _ name: String, type: String = "IMAGE", visibility: String = "timeline",
      video: String? = nil, favorite: Bool = false, library: String? = nil
    ) -> String {
      AssetRecord(
        id: id, checksum: sums[name] ?? "", originalFileName: name, assetType: type,
        visibility: visibility, livePhotoVideoId: video, ownerId: fixture.userId,
        isFavorite: favorite, libraryId: library
      ).jsonString()
    }
    // The video is listed after a line whose nested object names its id, as a listing with
    // fields cairn does not know might.
    let decoy =
      #"{"type":"asset","id":"asset-decoy","checksum":"ZGVjb3ktY2hlY2tzdW0tMTIzNDU2Nzg=","#
      + #""ownerId":"\#(fixture.userId)","extra":{"id":"asset-video"}}"#
    let lines = [
      HeaderRecord(
        tool: "cairn-fetch", roots: [],
        server: ServerIdentity(
          url: "http://immich.test/api", userId: fixture.userId, version: "3.1.0")
      ).jsonString(),
      asset("asset-plain", "plain.jpg"),
      asset("asset-fav", "fav.jpg", favorite: true),
      // Contrived (an external library's checksum hashes a path): the same bytes as ext.jpg.
      asset("asset-ext", "ext.jpg", library: "6f1c2a3b-0000-4000-8000-00000000abcd"),
      asset("asset-still", "IMG_2.HEIC", video: "asset-video"),
      decoy,
      asset("asset-video", "IMG_2.MOV", type: "VIDEO", visibility: "hidden"),
      EndRecord(tool: "cairn-fetch", complete: true, counts: ["assets": 6]).jsonString(),
    ]
    try fixture.directory.file(
      "server.ndjson", StreamText.counted(lines.joined(separator: "\n") + "\n"))

    let seed = try await fixture.pipeline("", observe: false)
    #expect(seed.status == 0, "\(seed.stderr)")

    for name in ["plain.jpg", "fav.jpg", "ext.jpg", "IMG_2.HEIC"] {
      try FileManager.default.removeItem(atPath: fixture.library + "/" + name)
    }
    let run = try await fixture.pipeline("", observe: false)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try run.buckets() == [
        "asset-plain": "delete", "asset-fav": "pending", "asset-still": "pending",
      ])
    let candidates = try run.records(ofType: "candidate")
    let favourite = try #require(candidates.first { $0["assetId"] as? String == "asset-fav" })
    #expect(favourite["reason"] as? String == "favorite")
    #expect(favourite["isFavorite"] as? Bool == true)
    let still = try #require(candidates.first { $0["assetId"] as? String == "asset-still" })
    #expect(still["reason"] as? String == "live-video-kept")
    #expect(still["livePhotoVideoChecksum"] as? String == sums["IMG_2.MOV"])
    #expect(still["livePhotoVideoKept"] as? Bool == true)
    // Plain, favourite, still and video: the external asset, once looked at, is not matched.
    #expect(try run.endCounts()["matched"] == 4)

    // Strict mode: the favourite keeps its reason.
    let strict = try await fixture.pipeline("--strictness strict", observe: false)
    let strictFavourite = try #require(
      try strict.records(ofType: "candidate").first { $0["assetId"] as? String == "asset-fav" })
    #expect(strictFavourite["bucket"] as? String == "pending")
    #expect(strictFavourite["reason"] as? String == "favorite")
  }
}

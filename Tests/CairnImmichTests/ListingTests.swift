import CairnImmich
import CairnRecords
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The paginated listing: what is in it, what is kept out, and how it pages.
@Suite struct ListingTests {
  @Test(arguments: ImmichVersion.both)
  func ownedAssetsOfEveryVisibilityAndNothingElse(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      let connection = try await h.connect()
      let listing = try await SearchLister(
        client: connection.client, ownerId: connection.identity.userId
      ).list()
      #expect(listing.assets.map(\.id) == library.expectedIds)
      #expect(listing.assets.allSatisfy { $0.ownerId == library.alice.id })
      #expect(listing.partnerSkipped == 1)  // Bob shares into Alice's timeline; Carol does not
      #expect(listing.lockedSkipped == 0)
      #expect(listing.trashed == 1)
      let byId = Dictionary(uniqueKeysWithValues: listing.assets.map { ($0.id, $0) })
      #expect(byId[library.trashed.id]?.isTrashed == true)
      #expect(byId[library.archived.id]?.visibility == "archive")
      #expect(byId[library.liveVideo.id]?.visibility == "hidden")
      #expect(byId[library.liveVideo.id]?.assetType == "VIDEO")
      #expect(byId[library.liveStill.id]?.livePhotoVideoId == library.liveVideo.id)
      #expect(byId[library.timeline.id]?.checksum == library.timeline.checksum)
      #expect(byId[library.timeline.id]?.fileCreatedAt == Library.hours(1))
      #expect(byId[library.locked.id] == nil)

      // Each visibility asked for by name, deleted ones included, never `locked`: 3.2 by the
      // structured filter (no trash condition lists the trash), older versions by flat fields.
      let searches = h.server.log.requests(method: "POST", path: "/api/search/metadata")
      for visibility in ["timeline", "archive", "hidden"] {
        let asked =
          version.hasStructuredSearch
          ? "\"visibility\":{\"eq\":\"\(visibility)\"}" : "\"visibility\":\"\(visibility)\""
        #expect(searches.contains { $0.body.contains(asked) })
      }
      if version.hasStructuredSearch {
        #expect(!searches.contains { $0.body.contains("trashedAt") || $0.body.contains("page") })
      } else {
        #expect(searches.allSatisfy { $0.body.contains("\"withDeleted\":true") })
      }
      #expect(!searches.contains { $0.body.contains("locked") })
    }
  }

  @Test(arguments: ImmichVersion.both)
  func pagesOfAThousandCoverMoreThanOnePage(version: ImmichVersion) async throws {
    let library = Library(version, extraAliceAssets: 2_100)
    try await withServer(library.scenario) { h in
      let connection = try await h.connect()
      h.server.log.clear()
      let listing = try await SearchLister(
        client: connection.client, ownerId: connection.identity.userId
      ).list()
      #expect(listing.assets.count == library.expectedIds.count)
      #expect(listing.assets.map(\.id) == library.expectedIds)
      let searches = h.server.log.requests(method: "POST", path: "/api/search/metadata")
      // timeline: 2,103 assets → 3 pages; archive and hidden: 1 page each. Distinct bodies: on
      // a loaded machine a page whose answer came too late is asked again, which is no new page.
      #expect(Set(searches.map(\.body)).count == 5)
      #expect(searches.allSatisfy { $0.body.contains("\"size\":1000") })
    }
  }

  @Test func livePhotoReportFindsDanglingStillsAndOrphanVideos() {
    func asset(_ id: String, _ type: String, _ visibility: String, video: String? = nil)
      -> AssetRecord
    {
      AssetRecord(
        id: id, checksum: "c-\(id)", originalFileName: id, assetType: type,
        visibility: visibility, livePhotoVideoId: video, ownerId: "u")
    }
    let assets = [
      asset("s1", "IMAGE", "timeline", video: "v1"), asset("v1", "VIDEO", "hidden"),
      asset("s2", "IMAGE", "timeline", video: "gone"), asset("v3", "VIDEO", "hidden"),
      asset("v4", "VIDEO", "timeline"),
    ]
    let report = LivePhotoReport(assets)
    #expect(report.pairs == 1)
    #expect(report.dangling.map(\.id) == ["s2"])
    #expect(report.orphans.map(\.id) == ["v3"])
    #expect(LivePhotoReport.linkedVideos(of: ["S1", "s2", "v4"], in: assets) == ["v1"])
  }

  @Test func urlsAreNormalisedWithoutAServer() throws {
    #expect(
      try ServerAddress.normalise(" HTTPS://Photos.Example.NET:443/ ")
        == "https://photos.example.net")
    #expect(try ServerAddress.normalise("http://h:80/api/") == "http://h/api")
    #expect(try ServerAddress.normalise("http://h:2283/immich/api") == "http://h:2283/immich/api")
    #expect(throws: ImmichError.self) { try ServerAddress.normalise("photos.example.net") }
    let userinfo = try #require(throws: ImmichError.self) {
      try ServerAddress.normalise("https://me:hunter2@photos.example.net")
    }
    #expect(!userinfo.message.contains("hunter2"))
  }
}

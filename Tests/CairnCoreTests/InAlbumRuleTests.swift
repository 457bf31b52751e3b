import CairnEngine
import CairnJSON
import CairnRecords
import CairnSafety
import CairnSettings
import CairnTestSupport
import Foundation
import Testing

/// Album protection: a gone photo that `cairn-fetch` found in one of the user's albums waits
/// for a person (bucket `pending`, reason `in-album`), in either strictness; the age window's
/// `kept` outranks it, and an approval trashes it like any pending candidate.
@Suite struct InAlbumRuleTests {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)

  static func candidate(
    inAlbum: Bool, favorite: Bool = false, ageDays: Int = 1, window: Int? = nil,
    strictness: Strictness = .trusting
  ) throws -> CandidateRecord? {
    let observed = ObservedEntry(
      checksum: "P", roots: ["/lib"], paths: ["/lib/p.jpg"], firstSeen: now, lastSeen: now)
    var asset = AssetRecord(
      id: "p", checksum: "P", originalFileName: "p.jpg", assetType: "IMAGE",
      visibility: "timeline", ownerId: "u",
      fileCreatedAt: now.addingTimeInterval(-TimeInterval(ageDays) * 86_400),
      isFavorite: favorite)
    asset.inAlbum = inAlbum
    var settings = ReconciliationSettings()
    settings.maxAgeDays = window
    settings.strictness = strictness
    let input = ReconciliationInput(
      scan: PlainScan([]), roots: [RootStatus(path: "/lib", complete: true, files: 0)],
      observed: ["P": observed], assets: PlainListing([asset]), settings: settings, now: now)
    return try ReconciliationEngine.reconcile(input).candidates.first
  }

  @Test func anAlbumPhotoWaitsAndAnotherGoes() throws {
    let waiting = try #require(try Self.candidate(inAlbum: true))
    #expect(waiting.bucket == .pending)
    #expect(waiting.reason == "in-album")
    #expect(waiting.detail?.contains("in an album on Immich") == true)
    #expect(try Self.candidate(inAlbum: false)?.bucket == .delete)
  }

  @Test func strictModeSaysInAlbumAndAFavouriteKeepsItsReason() throws {
    #expect(try Self.candidate(inAlbum: true, strictness: .strict)?.reason == "in-album")
    let favourite = try #require(try Self.candidate(inAlbum: true, favorite: true))
    #expect(favourite.bucket == .pending)
    #expect(favourite.reason == "favorite")
  }

  @Test func theAgeWindowOutranksIt() throws {
    let kept = try #require(try Self.candidate(inAlbum: true, ageDays: 400, window: 30))
    #expect(kept.bucket == .kept)
    #expect(kept.reason == "age-window")
  }

  @Test func anApprovalTrashesIt() throws {
    let waiting = try #require(try Self.candidate(inAlbum: true))
    let plain = GatePlan(candidates: [waiting], exclusions: [], approvals: [])
    #expect(plain.toTrash.isEmpty && plain.pending.map(\.assetId) == ["p"])
    let approved = GatePlan(candidates: [waiting], exclusions: [], approvals: ["p"])
    #expect(approved.toTrash.map(\.assetId) == ["p"])
  }

  @Test func theFieldRoundTripsAndIsWrittenOnlyWhenTrue() throws {
    var asset = AssetRecord(
      id: "p", checksum: "P", originalFileName: "p.jpg", assetType: "IMAGE",
      visibility: "timeline", ownerId: "u")
    asset.inAlbum = true
    let bytes = asset.jsonBytes()
    #expect(String(decoding: bytes, as: UTF8.self).contains(#""inAlbum":true"#))
    #expect(try AssetRecord(JSONObject(parsing: bytes)) == asset)
    var plain = asset
    plain.inAlbum = false
    #expect(!String(decoding: plain.jsonBytes(), as: UTF8.self).contains("inAlbum"))
  }
}

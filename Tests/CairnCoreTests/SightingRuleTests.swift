import CairnEngine
import CairnRecords
import Foundation
import Testing

/// A file the watcher saw arrive and never hashed, gone from a complete scan, against the
/// server's assets: by name and time, one match only, and never but pending.
@Suite struct SightingRuleTests {
  let now = Date(timeIntervalSince1970: 1_790_000_000)
  var taken: Date { now.addingTimeInterval(-3_600) }
  let root = RootStatus(path: "/lib", complete: true, files: 0)

  func asset(
    _ id: String, name: String = "IMG_1.JPG", checksum: String? = nil, taken: Date? = nil,
    trashed: Bool = false
  ) -> AssetRecord {
    AssetRecord(
      id: id, checksum: checksum ?? "C-\(id)", originalFileName: name, assetType: "IMAGE",
      visibility: "timeline", isTrashed: trashed, ownerId: "u", fileCreatedAt: taken ?? self.taken)
  }

  func sighting(
    _ key: Int64 = 1, path: String = "/lib/DCIM/IMG_1.JPG", modified: Date? = nil
  ) -> UnhashedSighting {
    UnhashedSighting(
      key: key, root: "/lib", path: path, name: (path as NSString).lastPathComponent,
      modifiedAt: modified, seenAt: now.addingTimeInterval(-600))
  }

  func reconcile(
    _ assets: [AssetRecord], _ sightings: [UnhashedSighting], roots: [RootStatus]? = nil,
    scan: PlainScan = PlainScan(), observed: [String: ObservedEntry] = [:],
    exclusions: Set<String> = []
  ) throws -> ReconciliationOutput {
    try ReconciliationEngine.reconcile(
      ReconciliationInput(
        scan: scan, roots: roots ?? [root], observed: observed, exclusions: exclusions,
        assets: PlainListing(assets), now: now, unhashed: sightings))
  }

  @Test func theOneAssetOfItsNameAndTimeIsPendingWithItsOwnReason() throws {
    let output = try reconcile(
      [asset("a"), asset("b", name: "IMG_2.JPG"), asset("c", name: "img_1.jpg")],
      [sighting(modified: taken.addingTimeInterval(5))])
    let candidate = try #require(output.candidates.first)
    #expect(output.candidates.count == 1)
    #expect(candidate.assetId == "a")
    #expect(candidate.bucket == .pending)
    #expect(candidate.reason == CandidateReason.seenUnhashed.rawValue)
    #expect(candidate.paths == ["/lib/DCIM/IMG_1.JPG"])
    #expect(candidate.detail?.contains("never saw its bytes") == true)
    #expect(output.sightedAssets == ["a"])
    #expect(output.forgottenSightings.isEmpty)
    #expect(output.summary.pending == 1)
  }

  /// The taken date may be a time zone away from the file's clock: a day either way.
  @Test(arguments: [
    (-23.0, true), (23.0, true), (-25.0, false), (25.0, false),
  ])
  func theTakenDateMustLieWithinADayOfTheModificationTime(hours: Double, matches: Bool) throws {
    let output = try reconcile(
      [asset("a")], [sighting(modified: taken.addingTimeInterval(hours * 3_600))])
    #expect(output.candidates.map(\.assetId) == (matches ? ["a"] : []))
    #expect(output.forgottenSightings == (matches ? [] : [1]))
  }

  @Test func withoutAModificationTimeAPhotoTakenAfterItWasSeenIsNotIt() throws {
    let later = now.addingTimeInterval(2 * 86_400)
    #expect(try reconcile([asset("a", taken: later)], [sighting()]).candidates.isEmpty)
    #expect(try reconcile([asset("a")], [sighting()]).candidates.map(\.assetId) == ["a"])
  }

  @Test func noMatchOrSeveralProposeNothingAndAreForgotten() throws {
    let none = try reconcile([asset("a", name: "IMG_2.JPG")], [sighting(modified: taken)])
    #expect(none.candidates.isEmpty)
    #expect(none.forgottenSightings == [1])
    let several = try reconcile(
      [asset("a"), asset("b", taken: taken.addingTimeInterval(60))], [sighting(modified: taken)])
    #expect(several.candidates.isEmpty)
    #expect(several.forgottenSightings == [1])
    #expect(several.ambiguousSightings == [2])
  }

  /// Trashed, an external library's, bytes the scan has or the store observed, excluded: none
  /// is the sighted file's to propose.
  @Test func onlyAnAssetCairnNeverSawTheBytesOfIsMatched() throws {
    var external = asset("e")
    external.libraryId = "lib"
    let observed = ObservedEntry(
      checksum: "C-o", roots: ["/lib"], paths: ["/lib/x.jpg"], firstSeen: now, lastSeen: now)
    let file = ScannedFile(
      root: "/lib", path: "/lib/moved.jpg", checksum: "C-p",
      identity: FileIdentity(device: 1, inode: 2, path: "/lib/moved.jpg"))
    for (assets, scan, store) in [
      ([asset("t", trashed: true)], PlainScan(), [String: ObservedEntry]()),
      ([external], PlainScan(), [:]),
      ([asset("p")], PlainScan([file]), [:]),
      ([asset("o")], PlainScan(), ["C-o": observed]),
    ] {
      let output = try reconcile(assets, [sighting()], scan: scan, observed: store)
      #expect(output.candidates.filter { $0.reason == "seen-unhashed" }.isEmpty)
    }
    let excluded = try reconcile([asset("x")], [sighting()], exclusions: ["C-x"])
    #expect(excluded.candidates.isEmpty)
    #expect(excluded.forgottenSightings == [1])
  }

  /// Judged only where a complete scan could prove it gone; otherwise it waits, kept.
  @Test func aSightingOutsideEveryCompleteRootWaits() throws {
    let incomplete = RootStatus(path: "/lib", complete: false, files: 0)
    let output = try reconcile([asset("a")], [sighting()], roots: [incomplete])
    #expect(output.candidates.isEmpty)
    #expect(output.forgottenSightings.isEmpty)
    let elsewhere = try reconcile([asset("a")], [sighting(path: "/other/IMG_1.JPG")])
    #expect(elsewhere.candidates.isEmpty && elsewhere.forgottenSightings.isEmpty)
  }

  /// A favourite's or an album's asset is pending all the same, with its reason; two sightings
  /// of one file propose it once.
  @Test func aFavouriteStaysSeenUnhashedAndTwoSightingsMakeOneCandidate() throws {
    var favourite = asset("a")
    favourite.isFavorite = true
    let output = try reconcile([favourite], [sighting(1), sighting(2)])
    #expect(output.candidates.map(\.reason) == ["seen-unhashed"])
    #expect(output.candidates.first?.detail?.contains("favourite") == true)
  }

  /// The plain listing finds names byte for byte: another spelling of the same name (NFD for
  /// NFC) is another name.
  @Test func namesAreComparedByteForByte() throws {
    let nfc = "caf\u{E9}.jpg"
    let nfd = "cafe\u{301}.jpg"
    let listing = PlainListing([asset("a", name: nfc), asset("b", name: nfd)])
    #expect(listing.indices(ofFileNames: [nfc]) == [0])
    #expect(listing.indices(ofFileNames: [nfd]) == [1])
  }
}

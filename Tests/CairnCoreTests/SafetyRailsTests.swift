import CairnRecords
import CairnSafety
import Foundation
import Testing

struct SafetyRailsTests {
  let header = HeaderRecord(tool: "cairn-reconcile", roots: ["/photos"])
  let goodRoots = [RootStatus(path: "/photos", complete: true, files: 1000)]

  func inputs(
    end: EndRecord?, errors: Int = 0, planned: Int = 1, matched: Int = 1000,
    server: Int = 1000, last: Int? = nil, override: String? = nil,
    settings: SafetyRails.Settings = .init()
  ) -> SafetyRails.Inputs {
    SafetyRails.Inputs(
      header: header, end: end, errorRecords: errors, planned: planned, matched: matched,
      serverAssets: server, lastMatched: last, settings: settings, planDigest: "d1",
      overrideDigest: override)
  }

  var goodEnd: EndRecord { EndRecord(tool: "cairn-reconcile", complete: true, roots: goodRoots) }

  @Test func aCompleteSmallPlanPasses() {
    #expect(SafetyRails.check(inputs(end: goodEnd, planned: 10)) == nil)
  }

  @Test func aMissingTrailerRefuses() {
    #expect(SafetyRails.check(inputs(end: nil))?.rail == .incompleteStream)
  }

  @Test func anIncompleteTrailerRefuses() {
    let end = EndRecord(tool: "cairn-hash", complete: false, roots: goodRoots)
    #expect(SafetyRails.check(inputs(end: end))?.rail == .incompleteStream)
  }

  @Test func errorRecordsRefuseEvenWhenTheTrailerForgotThem() {
    #expect(SafetyRails.check(inputs(end: goodEnd, errors: 2))?.rail == .errorRecords)
  }

  @Test(arguments: [
    RootStatus(path: "/photos", complete: true, files: 0, problem: "empty"),
    RootStatus(path: "/photos", complete: false, files: 10, problem: "ENOENT"),
  ])
  func anEmptyOrVanishedRootRefuses(_ root: RootStatus) {
    let end = EndRecord(tool: "cairn-hash", complete: true, roots: [root])
    let refusal = SafetyRails.check(inputs(end: end))
    #expect(refusal?.rail == .root)
    #expect(refusal?.description.contains("/photos") == true)
  }

  @Test func aRootWithoutStatusRefuses() {
    let end = EndRecord(
      tool: "cairn-hash", complete: true,
      roots: [RootStatus(path: "/other", complete: true, files: 3)])
    #expect(SafetyRails.check(inputs(end: end))?.rail == .root)
  }

  @Test func overThresholdRefusesNamingTheDigestToOverride() throws {
    // 11 of 1000 is 1.1% > 1%.
    let refusal = try #require(SafetyRails.check(inputs(end: goodEnd, planned: 11)))
    #expect(refusal.rail == .threshold)
    #expect(refusal.description.contains("--override-threshold d1"))
    #expect(SafetyRails.check(inputs(end: goodEnd, planned: 10)) == nil)
  }

  @Test func underTheFloorPassesWhateverThePercent() {
    #expect(SafetyRails.check(inputs(end: goodEnd, planned: 4, matched: 10)) == nil)
    #expect(SafetyRails.check(inputs(end: goodEnd, planned: 5, matched: 10))?.rail == .threshold)
  }

  @Test func theRightDigestOverridesAndAWrongOneIsRefused() {
    #expect(SafetyRails.check(inputs(end: goodEnd, planned: 500, override: "d1")) == nil)
    let wrong = SafetyRails.check(inputs(end: goodEnd, planned: 500, override: "d0"))
    #expect(wrong?.rail == .threshold)
    #expect(wrong?.reason.contains("d0") == true)
  }

  @Test func settingsMoveTheThreshold() {
    let loose = SafetyRails.Settings(thresholdPercent: 5, floor: 5)
    #expect(SafetyRails.check(inputs(end: goodEnd, planned: 50, settings: loose)) == nil)
    #expect(
      SafetyRails.check(inputs(end: goodEnd, planned: 51, settings: loose))?.rail == .threshold)
  }

  @Test func anEmptyServerAfterAFullOneRefuses() {
    let refusal = SafetyRails.check(
      inputs(end: goodEnd, planned: 0, matched: 0, server: 0, last: 800))
    #expect(refusal?.rail == .emptyServer)
    #expect(
      SafetyRails.check(inputs(end: goodEnd, planned: 0, matched: 0, server: 0, last: nil)) == nil)
  }

  @Test func disabledOrZeroDayTrashRefuses() {
    #expect(SafetyRails.trash(enabled: false, days: 30)?.rail == .trashDisabled)
    #expect(SafetyRails.trash(enabled: true, days: 0)?.rail == .trashDisabled)
    #expect(SafetyRails.trash(enabled: true, days: 30) == nil)
  }

  @Test func aPlanThatDoesNotMatchItsDigestRefuses() {
    #expect(SafetyRails.planDigest(stated: nil, computed: "a")?.rail == .planMismatch)
    #expect(SafetyRails.planDigest(stated: "b", computed: "a")?.rail == .planMismatch)
    #expect(SafetyRails.planDigest(stated: "a", computed: "a") == nil)
  }

  @Test func refusalsAreOneLineNamingTheRail() throws {
    for rail in [SafetyRails.check(inputs(end: nil)), SafetyRails.trash(enabled: false, days: 1)] {
      let text = try #require(rail).description
      #expect(!text.contains("\n"))
      #expect(text.hasPrefix("refused by the "))
    }
  }
}

struct PlanDigestTests {
  func candidate(_ id: String, _ sum: String, _ bucket: Bucket = .delete) -> CandidateRecord {
    CandidateRecord(assetId: id, checksum: sum, bucket: bucket, reason: "gone")
  }

  @Test func orderAndCaseOfIdsDoNotMatter() {
    let a = PlanDigest.of([candidate("A1", "x"), candidate("b2", "y")])
    let b = PlanDigest.of([candidate("b2", "y"), candidate("a1", "x")])
    #expect(a == b)
    #expect(PlanDigest.isWellFormed(a))
  }

  @Test func anyChangeChangesIt() {
    let base = PlanDigest.of([candidate("a1", "x")])
    #expect(base != PlanDigest.of([candidate("a1", "z")]))
    #expect(base != PlanDigest.of([candidate("a1", "x", .pending)]))
    #expect(base != PlanDigest.of([candidate("a1", "x"), candidate("a2", "x")]))
  }

  @Test func isAKnownSHA256OfTheCanonicalLines() {
    // sha256("a1\tx\tdelete\n")
    #expect(
      PlanDigest.of([candidate("a1", "x")])
        == "69004281380b319a2ca1c0691e955ceceb3a472e4d010c774ef51205c563f662")
  }
}

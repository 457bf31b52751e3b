import CairnRecords
import CairnReviewPage
import CairnSafety
import Foundation
import Testing

/// The review page shows what the age window kept, in a section of its own whose tiles can be
/// approved (trashing one through every rail) or excluded.
struct AgeWindowReviewTests {
  @Test func keptPhotosHaveASectionOfTheirOwn() {
    let fixture = ReviewFixture()
    var kept = fixture.candidate(9, .kept, name: "OLD.JPG", folder: "/photos/2009")
    kept.reason = CandidateReason.ageWindow.rawValue
    let candidates = fixture.candidates + [kept]
    let input = ReviewInput(
      plan: GatePlan(candidates: candidates, exclusions: ["checksum-7"], approvals: []),
      streamDigest: PlanDigest.of(candidates),
      webBase: HTMLText.webBase(apiBase: "https://photos.example.net/api"), refusal: nil,
      thumbnails: fixture.thumbnails, generatedAt: Date())
    let page = ReviewPage.html(input)
    #expect(page.contains(#"id="kept""#))
    #expect(page.contains("Kept by the age window"))
    #expect(page.contains("<strong>1</strong> kept by the age window"))
    #expect(page.contains(#"data-asset="\#(fixture.ids[9])""#))
    #expect(input.pageOrder.contains(fixture.ids[9]))
  }
}

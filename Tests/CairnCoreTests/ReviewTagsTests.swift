import CairnMarks
import CairnSettings
import CairnStream
import CairnTestSupport
import Testing

/// Reading the decision tags a person set in Immich, and the marks a run sets.
struct ReviewTagsTests {
  let waiting: [String: ReviewDecisions.Candidate] = [
    "a": .init(assetId: "a", checksum: "ca"), "b": .init(assetId: "b", checksum: "cb"),
  ]

  @Test func anApproveTagOnAWaitingCandidateApprovesIt() {
    let decisions = ReviewDecisions.read(approveTagged: ["A"], keepTagged: [], waiting: waiting)
    #expect(decisions == ReviewDecisions(approvals: [.init(assetId: "a", checksum: "ca")]))
  }

  @Test func aKeepTagWinsOverAnApproveTagOnTheSameAsset() {
    let decisions = ReviewDecisions.read(
      approveTagged: ["a", "b"], keepTagged: ["a"], waiting: waiting)
    #expect(decisions.keeps == [.init(assetId: "a", checksum: "ca")])
    #expect(decisions.approvals == [.init(assetId: "b", checksum: "cb")])
    #expect(decisions.ignored.isEmpty)
  }

  @Test func aDecisionTagOnAnythingElseChangesNothingAndIsReported() {
    let decisions = ReviewDecisions.read(
      approveTagged: ["x"], keepTagged: ["y", "x"], waiting: waiting)
    #expect(decisions.approvals.isEmpty && decisions.keeps.isEmpty)
    #expect(decisions.ignored == ["x", "y"])
  }

  @Test func aDecisionTheStateAlreadyHoldsIsNeitherRecordedAgainNorReported() {
    let decisions = ReviewDecisions.read(
      approveTagged: ["z", "b"], keepTagged: ["y", "a"], waiting: waiting,
      keptAlready: ["Y", "a"], approvedAlready: ["z", "b"])
    #expect(decisions == ReviewDecisions())
  }

  @Test func aKeepTagStillWinsOverAnApprovalRecordedEarlier() {
    let decisions = ReviewDecisions.read(
      approveTagged: ["a"], keepTagged: ["a"], waiting: waiting, approvedAlready: ["a"])
    #expect(decisions == ReviewDecisions(keeps: [.init(assetId: "a", checksum: "ca")]))
  }

  @Test func marksFollowWhatWaits() {
    let marks = ReviewMarks.plan(waiting: ["a", "B"], marked: ["b", "c"])
    #expect(marks == ReviewMarks(mark: ["a"], unmark: ["c"]))
    #expect(ReviewMarks.plan(waiting: ["a"], marked: ["A"]).isEmpty)
  }

  @Test(arguments: [
    ("https://photos.example/api", "https://photos.example/tags?path=cairn/v1/review"),
    ("https://photos.example/api/", "https://photos.example/tags?path=cairn/v1/review"),
    ("http://nas:2283/immich", "http://nas:2283/immich/tags?path=cairn/v1/review"),
  ])
  func theWebPageOfTheReviewTag(server: String, page: String) {
    #expect(ReviewTags.webPage(ReviewTags.review, serverURL: server) == page)
  }

  @Test(arguments: [
    ([:], false), (["CAIRN_REVIEW_IN_IMMICH": "on"], true),
    (["CAIRN_REVIEW_IN_IMMICH": "Yes"], true), (["CAIRN_REVIEW_IN_IMMICH": "off"], false),
  ])
  func theSettingIsOffUnlessTurnedOn(environment: [String: String], on: Bool) throws {
    let configuration = try load(environment)
    #expect(try ReviewInImmich.isOn(configuration) == on)
  }

  @Test func aValueThatIsNeitherOnNorOffIsAConfigurationError() throws {
    let configuration = try load(["CAIRN_REVIEW_IN_IMMICH": "maybe"])
    #expect(throws: CairnError.self) { try ReviewInImmich.isOn(configuration) }
  }

  private func load(_ settings: [String: String]) throws -> Configuration {
    let folder = TemporaryDirectory()
    return try Configuration.load(
      environment: folder.isolatedEnvironment(settings), workingDirectory: folder.path)
  }
}

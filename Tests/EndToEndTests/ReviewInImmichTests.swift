import CairnMarks
import CairnRecords
import CairnRuns
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Review inside Immich (`CAIRN_REVIEW_IN_IMMICH=on`): cairn-trash marks what waits for a
/// decision with `cairn/v1/review`, a person tags it `cairn/v1/approve` or `cairn/v1/keep` in
/// the web app, and the next run's cairn-gate reads that as `--approve` or `--exclude`.
@Suite(.serialized)
struct ReviewInImmichTests {
  static let on = ["CAIRN_REVIEW_IN_IMMICH": "on"]

  @Test(arguments: [ImmichVersion.v2_7, .v3_1, .v3_2, .v3_3])
  func marksFollowThePendingAndHeldCandidatesAndADryRunSendsNone(version: ImmichVersion)
    async throws
  {
    let f = try await ActFixture(version: version, photoCount: 4)
    defer { Task { await f.stop() } }
    let waiting = [f.candidate(f.photos[0], .pending), f.candidate(f.photos[1], .held)]

    // The first run is a dry run whatever the flags: it says what it would mark, sends nothing.
    let dry = try await run(f, waiting + [f.candidate(f.photos[2])])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("would mark 2 and unmark 0 candidate(s) for review in Immich"))
    #expect(f.mutations.isEmpty, "\(f.mutations.map(\.path))")

    let real = try await run(f, waiting + [f.candidate(f.photos[2])])
    #expect(real.status == 0, "\(real.stderr)")
    #expect(marked(f) == [f.photos[0].id, f.photos[1].id])
    let base = String(f.apiBase.dropLast("/api".count))
    #expect(
      real.stderr.contains("2 candidate(s) wait for a decision: \(base)/tags?path=cairn/v1/review"))
    #expect(f.isTrashed(f.photos[2]) && !f.isTrashed(f.photos[0]) && !f.isTrashed(f.photos[1]))
    #expect(!f.server.log.requests(method: "PUT", path: "/api/tags/assets").isEmpty)

    // The held photo's file came back: it waits for nothing now, and its mark goes.
    let later = try await run(f, [f.candidate(f.photos[0], .pending)])
    #expect(later.status == 0, "\(later.stderr)")
    #expect(marked(f) == [f.photos[0].id])
    #expect(
      f.mutations.contains {
        $0.method == "DELETE" && $0.path.hasPrefix("/api/tags/") && $0.path.hasSuffix("/assets")
      })
  }

  @Test func withTheSettingOffNoMarkIsSetAndNoTagRead() async throws {
    let f = try await ActFixture(photoCount: 3)
    defer { Task { await f.stop() } }
    let stream = [f.candidate(f.photos[0], .pending), f.candidate(f.photos[2])]
    _ = try await run(f, stream, extra: [:])
    let real = try await run(f, stream, extra: [:])
    #expect(real.status == 0, "\(real.stderr)")
    #expect(f.server.state.tag(value: ReviewTags.review) == nil)
    #expect(f.server.log.requests(method: "GET", path: "/api/tags").isEmpty)

    // A value that is neither on nor off is refused in one line (78), nothing sent.
    let before = f.mutations.count
    let wrong = try await run(f, stream, extra: ["CAIRN_REVIEW_IN_IMMICH": "perhaps"])
    #expect(wrong.status == 78, "\(wrong.stderr)")
    #expect(wrong.stderr.contains("CAIRN_REVIEW_IN_IMMICH=perhaps is not on or off"))
    #expect(f.mutations.count == before)
  }

  @Test(arguments: [ImmichVersion.v2_7, .v3_1, .v3_2, .v3_3])
  func decisionsTaggedInTheWebAppGoThroughTheNextRun(version: ImmichVersion) async throws {
    let f = try await ActFixture(version: version, photoCount: 4)
    defer { Task { await f.stop() } }
    let waiting = [
      f.candidate(f.photos[0], .pending), f.candidate(f.photos[1], .pending),
      f.candidate(f.photos[2], .held),
    ]
    _ = try await run(f, waiting + [f.candidate(f.photos[3])])  // the first run: dry
    let marking = try await run(f, waiting + [f.candidate(f.photos[3])])
    #expect(marking.status == 0, "\(marking.stderr)")
    #expect(marked(f) == Set(waiting.map(\.assetId)))
    // The decision tags are in the user's tag list, to pick in the web app.
    #expect(f.server.state.tag(value: ReviewTags.approve, userId: f.me.id) != nil)
    #expect(f.server.state.tag(value: ReviewTags.keep, userId: f.me.id) != nil)

    // In the web app: approve one, keep one, tag one both ways, and approve a photo that was
    // never a candidate.
    try await webTag(f, ReviewTags.approve, [f.photos[0], f.photos[2], f.neverLocal])
    try await webTag(f, ReviewTags.keep, [f.photos[1], f.photos[2]])

    let decided = try await run(f, waiting)
    #expect(decided.status == 0, "\(decided.stderr)")
    #expect(decided.stderr.contains("approved 1 candidate(s) (tagged cairn/v1/approve in Immich)"))
    #expect(decided.stderr.contains("kept 2 candidate(s) for good"))
    #expect(decided.stderr.contains("1 asset(s) carry a decision tag but are no pending"))
    #expect(decided.stderr.contains(f.neverLocal.id))
    // Approved: trashed as one of cairn's runs, through the rails; its approve tag consumed.
    #expect(f.isTrashed(f.photos[0]))
    #expect(f.tagValues(f.photos[0]).contains { RunTag(value: $0) != nil })
    #expect(!f.tagValues(f.photos[0]).contains(ReviewTags.approve))
    // Kept (keep wins over approve): excluded for good, never trashed, unmarked, tag kept.
    for kept in [f.photos[1], f.photos[2]] {
      #expect(!f.isTrashed(kept))
      #expect(f.tagValues(kept).contains(ReviewTags.keep))
    }
    #expect(
      try f.withState { try $0.exclusions.checksums() } == [
        f.photos[1].checksum, f.photos[2].checksum,
      ])
    #expect(marked(f).isEmpty)
    // Never a candidate: nothing changed, its tag stays.
    #expect(!f.isTrashed(f.neverLocal))
    #expect(f.tagValues(f.neverLocal) == [ReviewTags.approve])

    // Kept ones stay kept, and are not reported again. The tag that changed nothing still is,
    // even under -q (as cairn-nightly runs the stages): the person is owed an answer.
    let again = try await run(f, [f.candidate(f.photos[1], .pending)], quiet: true)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(!f.isTrashed(f.photos[1]))
    #expect(again.stderr.contains("1 asset(s) carry a decision tag"))
    #expect(!again.stderr.contains("kept 1 candidate(s)"))
  }

  @Test func checkListsWhatReviewNeedsAndARunWithoutItChangesNothing() async throws {
    // A key with what the pipeline needs, but not tag.read.
    let f = try await ActFixture(
      permissions: ["asset.read", "asset.delete", "tag.create", "tag.asset", "user.read"])
    defer { Task { await f.stop() } }
    let off = try await f.shell("cairn-fetch check")
    #expect(off.stderr.contains("review in Immich: off (default)"), "\(off.stderr)")
    #expect(off.stderr.contains("permission tag.read missing (optional"))

    let check = try await f.shell("cairn-fetch check", extra: Self.on)
    #expect(check.status == 77, "\(check.stderr)")
    #expect(
      check.stderr.contains(
        "[FAIL] permission tag.read missing (needed with CAIRN_REVIEW_IN_IMMICH=on to find the "
          + "review, approve and keep tags)"), "\(check.stderr)")
    #expect(check.stderr.contains("permission tag.asset: mark candidates for review"))
    #expect(check.stderr.contains("review in Immich: on (marks waiting candidates"))

    let stream = [f.candidate(f.photos[0], .pending), f.candidate(f.photos[2])]
    let refused = try await run(f, stream)
    #expect(refused.status == 77, "\(refused.stderr)")
    #expect(f.mutations.isEmpty && !f.isTrashed(f.photos[2]))
  }

  // MARK: Helpers

  /// One nightly-like run: a fresh reconcile stream, `cairn-gate | cairn-trash --yes`.
  private func run(
    _ f: ActFixture, _ candidates: [CandidateRecord], extra: [String: String] = on,
    quiet: Bool = false
  ) async throws -> ToolResult {
    let input = try f.write(
      "reconcile-\(UUID().uuidString).ndjson", try f.reconcileStream(candidates))
    let q = quiet ? " -q" : ""
    return try await f.shell(
      "cairn-gate\(q) < '\(input)' | setsid cairn-trash\(q) --yes", extra: extra)
  }

  /// The ids of my assets that carry cairn's review mark.
  private func marked(_ f: ActFixture) -> Set<String> {
    Set(
      ([f.live.still, f.neverLocal] + f.photos).map(\.id).filter { id in
        f.server.state.tagIDs(onAsset: id).contains {
          $0 == f.server.state.tag(value: ReviewTags.review)?.id
        }
      })
  }

  /// Tags `assets` as Immich's web app does: the tag made with `PUT /api/tags` (its
  /// create-tag box), then `PUT /api/tags/assets` (`tagAssets` in
  /// `web/src/lib/utils/asset-utils.ts`), docs/IMMICH-API.md §6.5.
  private func webTag(_ f: ActFixture, _ value: String, _ assets: [Scenario.Asset]) async throws {
    let curl =
      "curl -sSf -H 'x-api-key: \(ActFixture.secret)' -H 'Content-Type: application/json' -X PUT"
    let made = try await f.shell(
      "\(curl) --data '{\"tags\":[\"\(value)\"]}' \"$IMMICH_URL/tags\"")
    let tags = try #require(
      try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [[String: Any]])
    let id = try #require(tags.first?["id"] as? String)
    let ids = assets.map { "\"\($0.id)\"" }.joined(separator: ",")
    let tagged = try await f.shell(
      "\(curl) --data '{\"tagIds\":[\"\(id)\"],\"assetIds\":[\(ids)]}' \"$IMMICH_URL/tags/assets\"")
    #expect(tagged.status == 0, "\(tagged.stderr)")
  }
}

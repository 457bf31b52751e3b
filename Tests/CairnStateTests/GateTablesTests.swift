import CairnStateTestSupport
import CairnStream
import CairnTestSupport
import Foundation
import Testing

@testable import CairnState

@Suite struct GateTablesTests {
  @Test func exclusionsKeepTheirFirstReason() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    #expect(try store.exclusions.add(["AAA", "BBB"], reason: "restored", at: t0) == 2)
    #expect(try store.exclusions.add(["AAA"], reason: "manual", at: t0 + day) == 0)
    #expect(try store.exclusions.all().map(\.reason) == ["restored", "restored"])
    #expect(try store.exclusions.contains("AAA"))
    #expect(try store.exclusions.remove(["AAA", "CCC"]) == 1)
    #expect(try store.exclusions.checksums() == ["BBB"])
  }

  @Test func approvalsBelongToOnePlan() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.approvals.add([
      Approval(assetId: "ABC-1", checksum: "AAA", plan: "plan-1", approvedAt: t0)
    ])
    #expect(try store.approvals.isApproved(assetId: "abc-1", plan: "plan-1"))
    #expect(try !store.approvals.isApproved(assetId: "abc-1", plan: "plan-2"))
    #expect(try store.approvals.forPlan("plan-1").map(\.assetId) == ["abc-1"])
    #expect(try store.approvals.removeAll(except: "plan-2") == 1)
    #expect(try store.approvals.all().isEmpty)
  }

  @Test func runsRecordStartAndOutcome() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.runs.start(RunEntry(id: "r1", tool: "cairn-gate", startedAt: t0, dryRun: true))
    try store.runs.finish(
      "r1", status: .finished, counts: ["delete": 3], plan: "p1", at: t0 + 60)
    try store.runs.start(
      RunEntry(id: "r2", tool: "cairn-trash", startedAt: t0 + day, dryRun: false))
    let r1 = try #require(try store.runs.run("r1"))
    #expect(r1.counts == ["delete": 3])
    #expect(r1.plan == "p1")
    #expect(r1.finishedAt == t0 + 60)
    #expect(try store.runs.all().map(\.id) == ["r2", "r1"])
    #expect(try store.runs.lastFinished(dryRun: true)?.id == "r1")
    #expect(try store.runs.lastFinished(dryRun: false) == nil)
    #expect(throws: CairnError.self) {
      try store.runs.finish("nope", status: .failed, counts: [:], at: t0)
    }
  }

  @Test func metaHoldsTypedValues() throws {
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    try store.meta.set(.lastMatchedCount, 1234)
    try store.meta.set(.firstDryRunReviewedAt, t0)
    #expect(try store.meta.int(.lastMatchedCount) == 1234)
    #expect(try store.meta.date(.firstDryRunReviewedAt) == t0)
    try store.meta.set(.lastMatchedCount, nil as Int?)
    #expect(try store.meta.int(.lastMatchedCount) == nil)
  }
}

import CairnRecords
import CairnStateTestSupport
import CairnStream
import Foundation
import Testing

@testable import CairnState

/// The scan a plan is bound to, what reconcile and the gate record for it, and the check made
/// at the point of action.
struct ScanBindingTests {
  func candidate(_ id: String, _ checksum: String, _ bucket: Bucket = .delete) -> CandidateRecord {
    CandidateRecord(
      assetId: id, checksum: checksum, bucket: bucket, reason: "gone", paths: [],
      ownerId: "U-1")
  }

  /// /lib holding a, b and c, then a scan without c.
  func recordedLibrary(_ store: PartitionStore) throws -> String {
    try store.recordScan(
      [
        file("/lib/a", "A", inode: 1), file("/lib/b", "B", inode: 2), file("/lib/c", "C", inode: 3),
      ],
      completeRoots: ["/lib"], at: t0)
    try store.recordScan(
      [file("/lib/a", "A", inode: 1), file("/lib/b", "B", inode: 2)], completeRoots: ["/lib"],
      at: t0 + day)
    return try #require(try store.binding.latestScan())
  }

  @Test func everyRecordedScanGetsANewIdAndVoidsWhatWasRecordedForTheLastOne() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    #expect(try store.binding.latestScan() == nil)
    let scan = try recordedLibrary(store)
    try store.binding.recordReconciliation(
      scan: scan, matched: 3, serverAssets: 4, candidates: [candidate("ID-C", "C")])
    try store.binding.recordGatePass(.init(scan: scan, plan: "p", overrideDigest: nil))
    #expect(try store.binding.reconciled()?.matched == 3)
    #expect(try store.binding.proposals()["id-c"]?.checksum == "C")
    #expect(try store.binding.gatePass()?.plan == "p")
    // The same library, scanned again: a new scan, and nothing recorded for it yet.
    try store.recordScan(
      [file("/lib/a", "A", inode: 1), file("/lib/b", "B", inode: 2)], completeRoots: ["/lib"],
      at: t0 + 2 * day)
    let next = try #require(try store.binding.latestScan())
    #expect(next != scan)
    #expect(try store.binding.reconciled() == nil)
    #expect(try store.binding.proposals().isEmpty)
    #expect(try store.binding.gatePass() == nil)
    // A reconciliation of the old scan can't be recorded as the new one's.
    #expect(throws: CairnError.self) {
      try store.binding.recordReconciliation(
        scan: scan, matched: 3, serverAssets: 4, candidates: [])
    }
  }

  @Test func thePassedPlansItemsAreKeptForTheLatestScanOnly() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    let scan = try recordedLibrary(store)
    try store.binding.recordGatePass(
      .init(scan: scan, plan: "p", overrideDigest: nil),
      members: [candidate("ID-C", "C"), candidate("ID-D", "D", .pending)])
    let passed = try store.binding.passedPlan()
    #expect(passed.keys.sorted() == ["id-c", "id-d"])
    #expect(passed["id-d"]?.bucket == "pending" && passed["id-d"]?.checksum == "D")
    // A new pass replaces the items; a new scan voids them.
    try store.binding.recordGatePass(
      .init(scan: scan, plan: "q", overrideDigest: nil), members: [candidate("ID-C", "C")])
    #expect(try store.binding.passedPlan().keys.sorted() == ["id-c"])
    try store.recordScan([file("/lib/a", "A", inode: 1)], completeRoots: ["/lib"], at: t0 + 3 * day)
    #expect(try store.binding.passedPlan().isEmpty)
  }

  @Test func aShapedPlanIsRememberedForTheNewestPagesOnly() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    try store.planShapes.record(reviewed: "page", shaped: "one", at: t0)
    try store.planShapes.record(reviewed: "page", shaped: "two", at: t0 + 1)
    #expect(try store.planShapes.shaped("page") == "two")
    #expect(try store.planShapes.shaped("other") == nil)
    for n in 0..<PlanShapeStore.kept {
      try store.planShapes.record(reviewed: "later-\(n)", shaped: "s", at: t0 + 10 + Double(n))
    }
    #expect(try store.planShapes.shaped("page") == nil)
    #expect(try store.planShapes.shaped("later-0") == "s")
  }

  @Test func theCheckPassesOnlyProposedObservedGoneAndApprovedItems() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    let scan = try recordedLibrary(store)
    try store.binding.recordReconciliation(
      scan: scan, matched: 3, serverAssets: 4,
      candidates: [
        candidate("ID-C", "C"), candidate("ID-B", "B"), candidate("ID-N", "N"),
        candidate("ID-P", "C", .pending),
      ])
    var check = try ActionCheck(store: store)
    #expect(try check.refusal(for: candidate("ID-C", "C")) == nil)
    #expect(try check.refusal(for: candidate("ID-X", "C"))?.contains("not a candidate") == true)
    #expect(try check.refusal(for: candidate("ID-C", "B"))?.contains("checksum is not") == true)
    #expect(try check.refusal(for: candidate("ID-B", "B")) == "it is present in the latest scan")
    #expect(try check.refusal(for: candidate("ID-N", "N"))?.contains("never observed") == true)
    #expect(try check.refusal(for: candidate("ID-P", "C"))?.contains("pending bucket") == true)
    #expect(check.refusal(forVideo: "A") == "its motion video is present in the latest scan")
    #expect(check.refusal(forVideo: "V") == nil)
    try store.approvals.add([
      Approval(assetId: "ID-P", checksum: "C", plan: "p", approvedAt: t0)
    ])
    try store.exclusions.add(["V"], reason: "kept", at: t0)
    check = try ActionCheck(store: store)
    #expect(try check.refusal(for: candidate("ID-P", "C")) == nil)
    #expect(check.refusal(forVideo: "V") == "its motion video is excluded")
  }

  /// A candidate matched to a file the watcher never hashed has no observed checksum: it
  /// passes only once a person approved it, even when a stream puts it in the delete bucket
  /// (the proposal kept in the state says it was sighted), and never while its bytes are in
  /// the scan or it is excluded.
  @Test func aSightedCandidatePassesOnlyWithAnApproval() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    let scan = try recordedLibrary(store)
    try store.binding.recordReconciliation(
      scan: scan, matched: 3, serverAssets: 5,
      candidates: [
        candidate("ID-S", "S", .pending), candidate("ID-T", "B", .pending),
        candidate("ID-N", "N", .pending),
      ], sighted: ["id-s", "id-t"])
    #expect(try store.binding.proposals()["id-s"]?.sighted == true)
    #expect(try store.binding.proposals()["id-n"]?.sighted == false)
    var check = try ActionCheck(store: store)
    #expect(try check.refusal(for: candidate("ID-S", "S"))?.contains("never hashed") == true)
    try store.approvals.add([
      Approval(assetId: "ID-S", checksum: "S", plan: "p", approvedAt: t0),
      Approval(assetId: "ID-T", checksum: "B", plan: "p", approvedAt: t0),
      Approval(assetId: "ID-N", checksum: "N", plan: "p", approvedAt: t0),
    ])
    check = try ActionCheck(store: store)
    #expect(try check.refusal(for: candidate("ID-S", "S")) == nil)
    #expect(try check.refusal(for: candidate("ID-T", "B")) == "it is present in the latest scan")
    // Not sighted: an approval does not make a checksum never observed one to trash.
    #expect(try check.refusal(for: candidate("ID-N", "N"))?.contains("never observed") == true)
    try store.exclusions.add(["S"], reason: "kept", at: t0)
    check = try ActionCheck(store: store)
    #expect(try check.refusal(for: candidate("ID-S", "S"))?.contains("excluded") == true)
  }

  /// The watcher's unhashed arrivals as the engine is given them: only those seen before the
  /// scan began; one whose path a later scan hashed is dropped; judged ones are forgotten.
  @Test func unhashedSightingsAreGivenOnceSeenBeforeTheScanAndForgottenWhenDone() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    func arrival(_ path: String, seen: Date) -> UnhashedArrival {
      UnhashedArrival(
        root: "/lib", path: path, name: (path as NSString).lastPathComponent, size: 10,
        modifiedAt: seen - 1, changedAt: seen - 1, seenAt: seen, reason: "ENOENT")
    }
    try store.recordArrivals(
      [],
      unhashed: [
        arrival("/lib/gone", seen: t0), arrival("/lib/a", seen: t0),
        arrival("/lib/late", seen: t0 + 2 * day),
      ], at: t0)
    _ = try recordedLibrary(store)  // /lib/a hashed at t0 and t0 + day
    let sightings = try store.unhashedSightings(before: t0 + day)
    #expect(sightings.map(\.path) == ["/lib/gone"])
    #expect(sightings.first?.modifiedAt == t0 - 1)
    #expect(try store.unhashedArrivals().map(\.path) == ["/lib/gone", "/lib/late"])
    try store.forgetSightings(sightings.map(\.key))
    #expect(try store.unhashedArrivals().map(\.path) == ["/lib/late"])
  }

  @Test func aScanThatLeftNoSnapshotCannotBeActedOn() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    defer { store.close() }
    _ = try recordedLibrary(store)
    // A scan with a root left out (not complete) leaves no snapshot to check against.
    try store.recordScan(
      [file("/lib/a", "A", inode: 1), file("/other/x", "X", root: "/other", inode: 9)],
      completeRoots: ["/lib"], at: t0 + 3 * day)
    #expect(throws: CairnError.self) { try ActionCheck(store: store) }
  }
}

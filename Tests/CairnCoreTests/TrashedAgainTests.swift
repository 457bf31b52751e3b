import CairnJSON
import CairnRuns
import CairnStream
import Foundation
import Testing

/// A server that knows when each asset went to the trash (Immich's `deletedAt`) and answers
/// `trashed(since:taggedWith:)` from it; nothing else is asked.
private struct TrashTimes: RunServer {
  var tag = "tag-R"
  var deletedAt: [String: Date] = [:]
  /// What its `Date` header says now.
  var now: Date?
  let asked = Asked()

  final class Asked: @unchecked Sendable {
    var times: [Date] = []
  }

  func trashed(since time: Date, taggedWith tagID: String) async throws(CairnError)
    -> Set<String>
  {
    asked.times.append(time)
    guard tagID == tag else { return [] }
    return Set(deletedAt.filter { $0.value >= time }.keys)
  }

  func clock() async throws(CairnError) -> Date? { now }

  func trashSettings() async throws(CairnError) -> TrashSettings { .init(enabled: true, days: 30) }
  func upsertTag(_ value: String) async throws(CairnError) -> String { tag }
  func tags() async throws(CairnError) -> [ServerTag] { [] }
  func tagAssets(tagID: String, assetIDs: [String]) async throws(CairnError) {}
  func untagAssets(tagID: String, assetIDs: [String]) async throws(CairnError) {}
  func trash(assetIDs: [String]) async throws(TrashFailure) {}
  func restore(assetIDs: [String]) async throws(RestoreFailure) {}
  func asset(id: String) async throws(CairnError) -> RunAsset? { nil }
  func assets(taggedWith tagID: String) async throws(CairnError) -> [RunAsset] { [] }
}

/// An asset a run trashed, restored and trashed again by someone with no look of cairn's
/// between, told by when the server says it went to the trash.
@Suite struct TrashedAgainTests {
  static let serverTime = Date(timeIntervalSince1970: 1_800_000_000)

  static func history(serverTime: Date? = serverTime) -> [RunHistory] {
    RunHistory.reconstruct([
      JournalEntry(.started, runID: "R"),
      JournalEntry(
        .planned, runID: "R", assets: ["a", "b", "c"].map { JournalAsset(id: $0, checksum: $0) }),
      JournalEntry(.tagged, runID: "R", tagID: "tag-R", assetIDs: ["a", "b", "c"]),
      JournalEntry(
        .trashed, runID: "R", tagID: "tag-R", assetIDs: ["a", "b", "c"], serverTime: serverTime),
      JournalEntry(.completed, runID: "R"),
    ])
  }

  @Test func aRunKnowsTheServersClockOnlyWhenEveryTrashedEntryRecordedIt() throws {
    let later = Self.serverTime.addingTimeInterval(5)
    let both = RunHistory.reconstruct([
      JournalEntry(.trashed, runID: "R", assetIDs: ["a"], serverTime: later),
      JournalEntry(.trashed, runID: "R", assetIDs: ["b"], serverTime: Self.serverTime),
    ])
    #expect(both.first?.trashedByServerTime == later)
    let older = RunHistory.reconstruct([
      JournalEntry(.trashed, runID: "R", assetIDs: ["a"], serverTime: later),
      JournalEntry(.trashed, runID: "R", assetIDs: ["b"]),
    ])
    #expect(older.first?.trashedByServerTime == nil)
    let entry = JournalEntry(.trashed, runID: "R", at: later, assetIDs: ["a"], serverTime: later)
    let line = String(decoding: entry.jsonBytes(), as: UTF8.self)
    #expect(line.contains("\"serverTime\":\"2027-01-15T08:00:05.000Z\""), "\(line)")
    #expect(try JournalEntry(JSONObject(parsing: entry.jsonBytes())) == entry)
  }

  @Test func onlyWhatWentToTheTrashWellAfterTheRunIsTheirs() async throws {
    let history = Self.history()
    var server = TrashTimes()
    server.deletedAt = [
      "a": Self.serverTime.addingTimeInterval(-0.4),  // cairn's own trash
      "b": Self.serverTime.addingTimeInterval(3600),  // restored and trashed again
      "c": Self.serverTime.addingTimeInterval(30),  // within the Date header's slack
    ]
    let again = try await TrashedAgain.read(
      ["a", "b", "c"], history: history, ledger: FateLedger(), on: server)
    #expect(again == ["b"])
    #expect(server.asked.times == [Self.serverTime.addingTimeInterval(TrashedAgain.slack)])

    var ledger = FateLedger()
    ledger.learn(
      ["a": .trashed, "b": .trashed, "c": .trashed], trashedAgain: again, history: history,
      at: Date())
    #expect(ledger.fate(of: "b", in: history[0]) == .trashedElsewhere)
    #expect(ledger.fate(of: "a", in: history[0]) == .inCairnTrash)
    #expect(ledger.cairnsTrash(history) == ["a": "R", "c": "R"])
    #expect(ledger.keptOnServer(history).isEmpty)

    // Known now: not asked about again.
    let next = TrashTimes()
    _ = try await TrashedAgain.read(["b"], history: history, ledger: ledger, on: next)
    #expect(next.asked.times.isEmpty)
  }

  @Test func aRunWithoutTheServersClockTellsNothing() async throws {
    var server = TrashTimes()
    server.deletedAt = ["b": Self.serverTime.addingTimeInterval(3600)]
    let again = try await TrashedAgain.read(
      ["b"], history: Self.history(serverTime: nil), ledger: FateLedger(), on: server)
    #expect(again.isEmpty)
    #expect(server.asked.times.isEmpty)
  }

  /// A `Date` header behind the server's own clock (cached under load, a proxy's) would make
  /// the run's own trash read as someone else's: the run records no bound then.
  @Test func aRunRecordsTheServersClockOnlyWhenTheServerAgrees() async {
    var server = TrashTimes()
    server.deletedAt = ["a": Self.serverTime, "b": Self.serverTime]
    server.now = Self.serverTime.addingTimeInterval(1)
    #expect(await server.trashBound(of: ["A", "b"], taggedWith: "tag-R") == server.now)
    server.now = Self.serverTime.addingTimeInterval(-TrashedAgain.slack - 5)
    #expect(await server.trashBound(of: ["A", "b"], taggedWith: "tag-R") == nil)
    #expect(await server.trashBound(of: ["c"], taggedWith: "tag-R") == server.now)
    server.now = nil
    #expect(await server.trashBound(of: ["a"], taggedWith: "tag-R") == nil)
  }
}

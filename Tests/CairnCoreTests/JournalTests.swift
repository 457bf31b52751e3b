import CairnRuns
import CairnTestSupport
import Foundation
import Testing

struct JournalTests {
  let run = "2026-11-22T10:15:00Z-3F2A9C1B"

  @Test func appendsOneParseableLinePerStepWithPrivateMode() throws {
    let dir = TemporaryDirectory()
    let journal = Journal(path: dir.path + "/p/journal.ndjson")
    try journal.append(JournalEntry(.started, runID: run, plan: "abc"))
    try journal.append(
      JournalEntry(.planned, runID: run, assets: [JournalAsset(id: "a", checksum: "c")]))
    try journal.append(JournalEntry(.trashed, runID: run, assetIDs: ["a"]))
    let text = try String(contentsOfFile: journal.path, encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 3)
    for line in lines {
      #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
    }
    let mode = try FileManager.default.attributesOfItem(atPath: journal.path)[.posixPermissions]
    #expect((mode as? Int) == 0o600)
  }

  @Test func aTornLastLineIsIgnoredAndCutBeforeTheNextAppend() throws {
    let dir = TemporaryDirectory()
    let path = dir.path + "/journal.ndjson"
    let journal = Journal(path: path)
    try journal.append(JournalEntry(.started, runID: run))
    // A crash in the middle of writing the next entry.
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data(#"{"event":"trashed","runId":"2026-11-22T10:15:00Z-3F2A9C1B","assetI"#.utf8))
    try handle.close()

    let torn = try Journal(path: path).read()
    #expect(torn.tornTail)
    #expect(torn.entries.map(\.event) == [.started])

    let next = Journal(path: path)
    try next.append(JournalEntry(.completed, runID: run))
    let repaired = try next.read()
    #expect(!repaired.tornTail)
    #expect(repaired.entries.map(\.event) == [.started, .completed])
    #expect(repaired.skipped.isEmpty)
  }

  @Test func aMissingJournalReadsAsEmpty() throws {
    let dir = TemporaryDirectory()
    #expect(try Journal(path: dir.path + "/none.ndjson").read().entries.isEmpty)
  }

  @Test func historyReconstructsEachRunsState() throws {
    let entries = [
      JournalEntry(.started, runID: run, plan: "p1"),
      JournalEntry(
        .planned, runID: run,
        assets: [JournalAsset(id: "s"), JournalAsset(id: "v", stillID: "s"), JournalAsset(id: "x")]),
      JournalEntry(.tagged, runID: run, tagID: "t1", assetIDs: ["s", "v"]),
      JournalEntry(.trashed, runID: run, assetIDs: ["s", "v"]),
      JournalEntry(.failed, runID: run, assetIDs: ["x"], step: "trash", message: "HTTP 500"),
    ]
    var history = RunHistory.reconstruct(entries)
    #expect(history.count == 1)
    #expect(history[0].isUnfinished)
    #expect(history[0].trashed == ["s", "v"])
    #expect(history[0].failed["x"] == "HTTP 500")
    #expect(history[0].tagID == "t1")
    history = RunHistory.reconstruct(
      entries + [
        JournalEntry(.completed, runID: run),
        JournalEntry(.restored, runID: run, assetIDs: ["v"]),
      ])
    #expect(!history[0].isUnfinished)
    #expect(history[0].inTrash == ["s"])
  }
}

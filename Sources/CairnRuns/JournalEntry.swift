import CairnJSON
import CairnRecords
import Foundation

/// One line of the journal: one step of one run.
///
/// The journal is a plain NDJSON file (`jq` reads it); each line says what happened, to which
/// assets, when. A run is `started`, `planned` (the assets it means to act on), then per batch
/// `tagged`, `sending` (the batch's ids, written before its `DELETE` is sent: until an outcome
/// is journalled, that request may still be in flight) and `trashed` (or `failed`), and
/// `completed`. A restore journals `restoring` (the ids, before each request is sent) and then
/// `restored` (or `failed`, step `restore`) under the run it undoes. `reviewed` records that a dry run's plan was shown to a person.
package struct JournalEntry: Sendable, Equatable {
  package enum Event: String, Sendable, CaseIterable {
    case started, planned, tagged, sending, trashed, failed, untagged, restoring, restored,
      completed
    case reviewed
  }

  package var event: Event
  package var runID: String
  package var at: Date
  /// `started`: the plan digest; `reviewed`: the dry run's plan digest.
  package var plan: String?
  /// `started`: the run tag's id on the server once it is known (also on `tagged`).
  package var tagID: String?
  /// `planned`: the assets the run means to act on (still and motion video each on their own).
  package var assets: [JournalAsset]
  /// `tagged`, `sending`, `trashed`, `failed`, `untagged`, `restoring`, `restored`: the assets
  /// concerned.
  package var assetIDs: [String]
  /// `failed`: which step and why: `tag`, `trash` (no answer: the request may have been
  /// applied), `trash-rejected` (the server answered with an error: nothing was applied),
  /// `verify` (answered, but the read-back found it not moved), `restore`; `completed`: a note.
  package var step: String?
  package var message: String?
  /// `completed`: what the run did, by name.
  package var counts: [String: Int]
  /// `completed`: the run stopped early (SIGINT) or was closed by a later run's recovery.
  package var interrupted: Bool?
  package var recovered: Bool?
  /// `trashed`: the server's clock (its HTTP `Date`) once the assets were found in the trash,
  /// so no later than Immich's `deletedAt` for them, to the second. A later `deletedAt` means
  /// someone restored them and trashed them again.
  package var serverTime: Date?

  package init(
    _ event: Event, runID: String, at: Date = Date(), plan: String? = nil, tagID: String? = nil,
    assets: [JournalAsset] = [], assetIDs: [String] = [], step: String? = nil,
    message: String? = nil, counts: [String: Int] = [:], interrupted: Bool? = nil,
    recovered: Bool? = nil, serverTime: Date? = nil
  ) {
    self.event = event
    self.runID = runID
    self.at = at
    self.plan = plan
    self.tagID = tagID
    self.assets = assets
    self.assetIDs = assetIDs
    self.step = step
    self.message = message
    self.counts = counts
    self.interrupted = interrupted
    self.recovered = recovered
    self.serverTime = serverTime
  }

  package init(_ object: JSONObject) throws(RecordError) {
    let name = try object.string("event")
    guard let event = Event(rawValue: name) else { throw .wrongKind("event", "a journal event") }
    self.event = event
    runID = try object.string("runId")
    at = try object.date("at")
    plan = try object.optionalString("plan")
    tagID = try object.optionalString("tagId")
    assets = []
    for item in try object.objectArray("assets") { assets.append(try JournalAsset(item)) }
    assetIDs = try object.stringArray("assetIds")
    step = try object.optionalString("step")
    message = try object.optionalString("message")
    counts = try object.intMap("counts")
    interrupted = try object.optionalBool("interrupted")
    recovered = try object.optionalBool("recovered")
    serverTime = try object.optionalDate("serverTime")
  }

  /// The entry as one line of JSON, without the newline.
  package func jsonBytes() -> [UInt8] {
    var w = JSONObjectWriter()
    w.field("event", event.rawValue)
    w.field("runId", runID)
    w.field("at", at)
    w.field("plan", plan)
    w.field("tagId", tagID)
    if !assets.isEmpty { w.objects("assets", assets) { $1.write(to: &$0) } }
    if !assetIDs.isEmpty { w.field("assetIds", assetIDs) }
    w.field("step", step)
    w.field("message", message)
    if !counts.isEmpty { w.field("counts", counts) }
    w.field("interrupted", interrupted)
    w.field("recovered", recovered)
    w.field("serverTime", serverTime)
    return w.finish()
  }
}

/// One asset a run planned to act on.
package struct JournalAsset: Sendable, Equatable, Hashable {
  package var id: String
  package var checksum: String?
  package var originalFileName: String?
  /// For the motion video of a Live Photo: the still it belongs to.
  package var stillID: String?

  package init(
    id: String, checksum: String? = nil, originalFileName: String? = nil,
    stillID: String? = nil
  ) {
    self.id = id
    self.checksum = checksum
    self.originalFileName = originalFileName
    self.stillID = stillID
  }

  package init(_ object: JSONObject) throws(RecordError) {
    id = try object.string("id")
    checksum = try object.optionalString("checksum")
    originalFileName = try object.optionalString("originalFileName")
    stillID = try object.optionalString("stillId")
  }

  package func write(to w: inout JSONObjectWriter) {
    w.field("id", id)
    w.field("checksum", checksum)
    w.field("originalFileName", originalFileName)
    w.field("stillId", stillID)
  }
}

import CairnRecords

/// The assets a stream names, for the stages that act on them (`cairn-tag`, `cairn-restore`):
/// the id of each asset, result or candidate record, lower-cased as the state keeps ids, and
/// the run a result record says it came from. Other records are passed over.
package struct AssetSelection: Sendable, Equatable {
  package let assetId: String
  /// The run of a result record; nil for an asset or candidate record.
  package let runId: String?

  /// Every asset `reader` names, in the stream's order, repeats kept. A filtered part of the
  /// asset, result or candidate records only names fewer (`CountRule.assetSelection`); a
  /// stream cut short, incomplete or carrying errors is refused, so it changes nothing on the
  /// server.
  package static func read(_ reader: RecordReader) throws(CairnError) -> [AssetSelection] {
    let stream = try RecordStream(reader: reader, countRule: .assetSelection)
    var selected: [AssetSelection] = []
    while let line = try stream.next() {
      switch line.type {
      case AssetRecord.recordType:
        selected.append(.init(try stream.decode(AssetRecord.self, line).id, run: nil))
      case ResultRecord.recordType:
        let result = try stream.decode(ResultRecord.self, line)
        selected.append(.init(result.assetId, run: result.runId))
      case CandidateRecord.recordType:
        selected.append(.init(try stream.decode(CandidateRecord.self, line).assetId, run: nil))
      default:
        continue
      }
    }
    try stream.requireComplete()
    return selected
  }

  private init(_ assetId: String, run: String?) {
    self.assetId = assetId.lowercased()
    self.runId = run
  }
}

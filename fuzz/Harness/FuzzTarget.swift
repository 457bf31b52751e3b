import CairnJSON
import CairnReconcile
import CairnRecords
import CairnSettings
import CairnState
import CairnStream
import Foundation

/// What the fuzzer feeds arbitrary bytes to: each case reads them as one kind of input cairn
/// reads, the way the tools read it. The libFuzzer driver (`fuzz/Driver`) and the corpus test
/// (`Tests/FuzzCorpusTests`) call the same `run`, so a crash the fuzzer finds is a test input
/// as it stands.
///
/// A reader may refuse its input (that is what most inputs are for); it must not crash, hang
/// or break an invariant, which `run` checks with `precondition` so the fuzzer sees a crash.
package enum FuzzTarget: String, CaseIterable, Sendable {
  /// One line: the JSON scanner, then every record type's decoder and encoder.
  case record
  /// A whole stream through the stream contract (`RecordStream`) and the scan reader.
  case stream
  /// A whole stream read as a server listing.
  case listing
  /// The state's cache files, sealed with their digest (see `StateFileFuzzing`).
  case scanSnapshot = "scan-snapshot"
  case patchedScanSnapshot = "patched-scan-snapshot"
  case listingSnapshot = "listing-snapshot"
  case presenceCache = "presence-cache"
  /// The `KEY=value` configuration files.
  case configuration

  /// Reads `data`; true when the reader accepted it whole.
  @discardableResult
  package func run(_ data: [UInt8]) -> Bool {
    switch self {
    case .record: return Self.record(data)
    case .stream: return Self.stream(data) { stream in _ = try ScanInput.read(stream) }
    case .listing: return Self.stream(data) { stream in _ = try ListingInput.read(stream) }
    case .scanSnapshot: return StateFileFuzzing.scanSnapshot(data)
    case .patchedScanSnapshot: return StateFileFuzzing.patchedScanSnapshot(data)
    case .listingSnapshot: return ReconcileFileFuzzing.listingSnapshot(data)
    case .presenceCache: return ReconcileFileFuzzing.presenceCache(data)
    case .configuration:
      return
        (try? Configuration.parseKeyValueLines(
          String(decoding: data, as: UTF8.self), source: "fuzz")) != nil
    }
  }

  /// Every record type that decodes the line must encode to a line that decodes to the same
  /// encoding again: what a stage passes on means what it read.
  private static func record(_ data: [UInt8]) -> Bool {
    guard let object = try? JSONObject(parsing: data) else { return false }
    touch(object)
    roundTrip(HeaderRecord.self, object)
    roundTrip(FileRecord.self, object)
    roundTrip(AssetRecord.self, object)
    roundTrip(CandidateRecord.self, object)
    roundTrip(ResultRecord.self, object)
    roundTrip(ErrorRecord.self, object)
    roundTrip(EndRecord.self, object)
    roundTrip(AbortRecord.self, object)
    return true
  }

  private static func roundTrip<R: Record>(_: R.Type, _ object: JSONObject) {
    guard let record = try? R(object) else { return }
    let encoded = record.jsonBytes()
    guard let reparsed = try? JSONObject(parsing: encoded) else {
      preconditionFailure("\(R.recordType): its encoding is not JSON: \(encoded)")
    }
    guard let again = try? R(reparsed) else {
      preconditionFailure("\(R.recordType): its encoding does not decode: \(encoded)")
    }
    precondition(
      again.jsonBytes() == encoded, "\(R.recordType): encoding is not stable: \(encoded)")
  }

  /// Every value of every field, decoded as a stage might.
  private static func touch(_ object: JSONObject) {
    for key in object.keys {
      guard let value = object[key] else {
        preconditionFailure("a key the object lists is not found: \(key)")
      }
      touch(value)
    }
  }

  private static func touch(_ value: JSONValue) {
    _ = value.string
    _ = value.int
    _ = value.double
    _ = value.bool
    if let items = value.array { items.forEach(touch) }
    if let object = value.object { touch(object) }
  }

  /// `data` as a stream on a file, read by `body` to its end as the stages read it.
  private static func stream(_ data: [UInt8], _ body: (RecordStream) throws -> Void) -> Bool {
    let path = NSTemporaryDirectory() + "/cairn-fuzz-stream-\(getpid())"
    defer { unlink(path) }
    guard FileManager.default.createFile(atPath: path, contents: Data(data)),
      let reader = try? RecordReader(path: path),
      let stream = try? RecordStream(reader: reader)
    else { return false }
    do {
      try body(stream)
      try stream.requireComplete()
      return true
    } catch {
      return false
    }
  }
}

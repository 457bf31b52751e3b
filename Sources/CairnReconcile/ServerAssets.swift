import CairnEngine
import CairnJSON
import CairnRecords
import CairnSupport

/// The server's assets as the engine reads them: every asset's checksum and trashed flag at
/// hand, the rest of its record decoded only for the few that become candidates.
///
/// A listing of a million assets read into `AssetRecord`s costs a second and several hundred
/// megabytes of strings the engine never looks at. Read from a stream, each asset is kept as
/// its line of JSON, checked when it is added to decode as an `AssetRecord` (so a malformed
/// listing is refused while it is read, exactly as decoding it would refuse it). Read from a
/// file (`ListingFile`), only each checksum is kept, with where its line lies and the line's
/// digest: the line is read again, and must be the same bytes, when its record is needed.
package struct ServerAssets: AssetListing {
  private var records: [AssetRecord] = []
  private var lines = LineArena()
  private var trashed: [Bool] = []
  /// With a file: `lines` holds checksums alone, and `places` where each line lies.
  private let file: ListingFile?
  private var places: [LinePlace] = []

  /// Assets already decoded (tests, small listings).
  package init(_ records: [AssetRecord] = []) {
    self.records = records
    trashed = records.map(\.isTrashed)
    file = nil
  }

  /// Assets whose lines are read back from `file` when decoded (see the type): each is added
  /// with its `LinePlace` there.
  package init(readingBackFrom file: ListingFile) {
    self.file = file
  }

  /// Where an asset's line lies in a `ListingFile`, and its digest.
  package struct LinePlace: Sendable {
    package var offset: Int
    package var length: Int
    package var digest: LineDigest

    package init(offset: Int, length: Int, digest: LineDigest) {
      self.offset = offset
      self.length = length
      self.digest = digest
    }
  }

  /// Adds the asset of a line of `cairn-fetch` output, after checking that it decodes (`place`:
  /// where the line lies, with a file). Returns where its checksum lies in the line (nil:
  /// escaped there) and whether it is trashed.
  @discardableResult
  package mutating func append(_ object: JSONObject, at place: LinePlace? = nil)
    throws(RecordError) -> (checksum: Range<Int>?, isTrashed: Bool)
  {
    try AssetRecord.check(object)
    let isTrashed = try object.optionalBool("isTrashed") ?? false
    // `check` found the checksum to be a string: its content lies inside the quotes.
    let checksum = object.rawValue("checksum") ?? []
    let inPlace = checksum.count >= 2 && !checksum.contains(UInt8(ascii: "\\"))
    let range = inPlace ? (checksum.startIndex + 1)..<(checksum.endIndex - 1) : nil
    object.bytes.withUnsafeBufferPointer {
      append(recognised: $0, checksum: range, isTrashed: isTrashed, at: place)
    }
    return (range, isTrashed)
  }

  /// Adds an asset line known to be, byte for byte, one that `append(_:)` accepted, with what
  /// it found then (a listing read with the last one at hand: `ListingSnapshot`).
  package mutating func append(
    recognised line: UnsafeBufferPointer<UInt8>, checksum: Range<Int>?, isTrashed: Bool,
    at place: LinePlace? = nil
  ) {
    precondition(records.isEmpty, "ServerAssets holds records or lines, not both")
    if file != nil {
      guard let place else { preconditionFailure("an asset read from a file needs its place") }
      // The checksum alone, unescaped when it is escaped in the line (never, from Immich):
      // the line is read again only for a record, so the checksum is known without it.
      if let checksum {
        lines.append(UnsafeBufferPointer(rebasing: line[checksum]), checksum: 0..<checksum.count)
      } else {
        var unescaped = Self.unescapedChecksum(line)
        unescaped.withUTF8 { lines.append($0, checksum: 0..<$0.count) }
      }
      places.append(place)
    } else {
      lines.append(line, checksum: checksum)
    }
    trashed.append(isTrashed)
  }

  package var count: Int { trashed.count }

  package func isTrashed(_ index: Int) -> Bool { trashed[index] }

  /// The checksum of asset `index`.
  package func checksum(_ index: Int) -> String {
    if !records.isEmpty { return records[index].checksum }
    return lines.withChecksum(index) { bytes in
      bytes.map { String(decoding: $0, as: UTF8.self) } ?? escapedChecksum(index)
    }
  }

  /// Calls `body` with the UTF-8 bytes of asset `index`'s checksum, in place where they can be.
  package func withChecksum<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if !records.isEmpty { return records[index].checksum.withBytes(body) }
    return lines.withChecksum(index) { bytes in
      if let bytes { return body(bytes) }
      return escapedChecksum(index).withBytes(body)
    }
  }

  /// The checksum of a kept line where it is escaped (none is, from Immich).
  private func escapedChecksum(_ index: Int) -> String {
    lines.withLine(index) { Self.unescapedChecksum($0) }
  }

  /// The checksum of an asset line that `append(_:)` accepted (so it has one, a string).
  private static func unescapedChecksum(_ line: UnsafeBufferPointer<UInt8>) -> String {
    do {
      return try JSONObject(parsing: Array(line)).string("checksum")
    } catch {
      preconditionFailure("an asset line that was checked has no checksum: \(error)")
    }
  }

  /// Asset `index`, decoded. Read back from a file, a line that is no longer there or no
  /// longer the same bytes throws: nothing about it is known any more.
  package func record(_ index: Int) throws(ListingReadBackError) -> AssetRecord {
    if !records.isEmpty { return records[index] }
    let line =
      try file.map { file throws(ListingReadBackError) in try file.line(places[index]) }
      ?? lines.line(index)
    do {
      return try AssetRecord(JSONObject(parsing: line))
    } catch {
      // `append` checked this very line (the same bytes) the way the decoder reads it.
      preconditionFailure("an asset line that was checked no longer decodes: \(error)")
    }
  }

  /// Calls `body` with each asset's index and line, in listing order (a decoded record's own
  /// JSON when the assets were given decoded). A line of a file that can no longer be read
  /// throws.
  func forEachLine(
    _ body: (Int, UnsafeBufferPointer<UInt8>) throws(ListingReadBackError) -> Void
  ) throws(ListingReadBackError) {
    if !records.isEmpty {
      for index in records.indices {
        let bytes = records[index].jsonBytes()
        try bytes.withUnsafeBufferPointer { (line) throws(ListingReadBackError) in
          try body(index, line)
        }
      }
    } else if let file {
      try file.forEachLine(places, body)
    } else {
      for index in 0..<count {
        try lines.withLine(index) { (line) throws(ListingReadBackError) in try body(index, line) }
      }
    }
  }
}

/// Lines of JSON kept end to end in 16 MB chunks (a chunk of its own for a longer line): a
/// million lines cost a few dozen allocations, and a growing array would copy them all, and
/// need twice their memory, each time it doubled.
private struct LineArena: Sendable {
  private static let chunkSize = 16 << 20
  private var chunks: [[UInt8]] = []
  private var spans: [Span] = []

  private struct Span: Sendable {
    var chunk: UInt32
    var start: UInt32
    var end: UInt32
    /// Where the checksum's bytes lie within the line; `UInt32.max` when escaped.
    var checksumStart: UInt32
    var checksumEnd: UInt32
  }

  mutating func append(_ line: UnsafeBufferPointer<UInt8>, checksum: Range<Int>?) {
    if chunks.isEmpty || chunks[chunks.count - 1].count + line.count > Self.chunkSize {
      var chunk: [UInt8] = []
      chunk.reserveCapacity(max(Self.chunkSize, line.count))
      chunks.append(chunk)
    }
    let chunk = chunks.count - 1
    let start = chunks[chunk].count
    chunks[chunk].append(contentsOf: line)
    spans.append(
      Span(
        chunk: UInt32(chunk), start: UInt32(start), end: UInt32(start + line.count),
        checksumStart: checksum.map { UInt32($0.lowerBound) } ?? .max,
        checksumEnd: checksum.map { UInt32($0.upperBound) } ?? .max))
  }

  func line(_ index: Int) -> [UInt8] {
    let span = spans[index]
    return Array(chunks[Int(span.chunk)][Int(span.start)..<Int(span.end)])
  }

  func withLine<R, E: Error>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R)
    throws(E) -> R
  {
    let span = spans[index]
    return try chunks[Int(span.chunk)].withUnsafeBufferPointer { (chunk) throws(E) in
      try body(UnsafeBufferPointer(rebasing: chunk[Int(span.start)..<Int(span.end)]))
    }
  }

  /// Calls `body` with the checksum's bytes, or nil when they are escaped in the line.
  func withChecksum<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
    let span = spans[index]
    guard span.checksumStart != .max else { return body(nil) }
    return chunks[Int(span.chunk)].withUnsafeBufferPointer { chunk in
      let start = Int(span.start + span.checksumStart)
      let end = Int(span.start + span.checksumEnd)
      return body(UnsafeBufferPointer(rebasing: chunk[start..<end]))
    }
  }
}

extension ServerAssets: ExpressibleByArrayLiteral {
  package init(arrayLiteral records: AssetRecord...) { self.init(records) }
}

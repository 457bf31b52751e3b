import CairnRecords

/// A stream of records as the contract defines it: a header first, an end record last.
///
/// Stages read their input through this so every one of them enforces the same rules
/// (`cairn-records(5)`): no header or a newer schema is malformed input; records after the
/// end, or a second header, are malformed; the end record's per-type counts must be those of
/// the records read (`CountRule`); a missing end means the stream was cut short; an `abort`
/// record anywhere stops the stage with the failed stage's status.
package final class RecordStream {
  package let reader: RecordReader
  package let header: HeaderRecord
  /// How this reader compares the end record's counts with what it read.
  package let countRule: CountRule
  /// Records of each type the end record counts but the stream did not carry: the lines a
  /// filter between stages dropped (only types the count rule allows fewer of). Known once the
  /// end record is read.
  package private(set) var filteredOut: [String: Int] = [:]
  package private(set) var end: EndRecord?
  /// The `error` records seen so far, in order.
  package private(set) var errors: [ErrorRecord] = []
  package private(set) var linesRead = 0
  /// The records read so far by type, header and end left out.
  private var tally = RecordTally()

  /// Reads and checks the header. `countRule` says which record types this reader accepts
  /// fewer of than the end record counts; by default every count must be exact.
  package init(reader: RecordReader, countRule: CountRule = .exact) throws(CairnError) {
    self.reader = reader
    self.countRule = countRule
    let first: InputLine?
    do {
      first = try reader.next()
    } catch {
      throw CairnError.malformed(error)
    }
    guard let first else {
      throw CairnError(
        .malformedInput, "empty input: expected a cairn stream (a header record first)",
        at: reader.sourceName)
    }
    // A stage that failed before it wrote anything leaves only its abort record.
    if first.type == AbortRecord.recordType {
      throw Self.aborted(first, source: reader.sourceName)
    }
    guard first.type == HeaderRecord.recordType else {
      throw CairnError(
        .malformedInput,
        "expected a header record first, found '\(first.type)' (is this cairn output?)",
        at: "\(reader.sourceName):\(first.number)")
    }
    let header: HeaderRecord
    do {
      header = try HeaderRecord(first.object)
    } catch {
      throw CairnError(
        .malformedInput, "invalid header record: \(error)", at: "\(reader.sourceName):1")
    }
    guard let major = header.schemaMajor else {
      throw CairnError(
        .malformedInput, "invalid schema '\(header.schema)'", at: "\(reader.sourceName):1")
    }
    guard major <= Schema.major else {
      throw CairnError(
        .malformedInput,
        "schema \(header.schema) is newer than this cairn understands (\(Schema.current)); "
          + "upgrade cairn", at: "\(reader.sourceName):1")
    }
    self.header = header
    linesRead = 1
  }

  /// The next record between the header and the end; nil once the end record (or EOF) is read.
  package func next() throws(CairnError) -> InputLine? {
    try next(skipping: nil, claimedAs: "")
  }

  /// As `next()`, passing over the lines `known` claims (see `RecordReader.next(skipping:)`):
  /// they must be records of type `claimedType` that this stream may carry before its end,
  /// which `known` vouches for (they are counted as such). After the end record nothing is
  /// passed over: any line there is an error.
  package func next(
    skipping known: ((UnsafeBufferPointer<UInt8>) -> Bool)?, claimedAs claimedType: String
  ) throws(CairnError) -> InputLine? {
    let line: InputLine?
    let claimedBefore = reader.linesClaimed
    do {
      line = try reader.next(skipping: end == nil ? known : nil)
    } catch {
      throw CairnError.malformed(error)
    }
    let claimed = reader.linesClaimed - claimedBefore
    if claimed > 0 { tally.add(claimedType, count: claimed) }
    linesRead = reader.lastLineNumber
    guard let line else { return nil }
    let location = "\(reader.sourceName):\(line.number)"
    if line.type == AbortRecord.recordType { throw Self.aborted(line, source: reader.sourceName) }
    if end != nil {
      throw CairnError(.malformedInput, "record after the end record", at: location)
    }
    switch line.type {
    case EndRecord.recordType:
      let end: EndRecord
      do {
        end = try EndRecord(line.object)
      } catch {
        throw CairnError(.malformedInput, "invalid end record: \(error)", at: location)
      }
      try checkCounts(end, at: location)
      self.end = end
      // Anything after the end is an error; read on to find it.
      return try next()
    case HeaderRecord.recordType:
      throw CairnError(
        .malformedInput, "a second header record (two streams concatenated?)", at: location)
    case ErrorRecord.recordType:
      do {
        errors.append(try ErrorRecord(line.object))
      } catch {
        throw CairnError(.malformedInput, "invalid error record: \(error)", at: location)
      }
    default:
      break
    }
    tally.add(line.type)
    return line
  }

  /// The end record must count, type by type, the records this stream carried: a line lost
  /// on the way (a filter in a script) or added would otherwise read as a file that is gone.
  /// Only where the count rule allows it may the stream carry fewer; never more.
  private func checkCounts(_ end: EndRecord, at location: String) throws(CairnError) {
    guard let stated = end.records else {
      throw CairnError(
        .malformedInput,
        "the end record has no 'records' counts (a stream older than schema \(Schema.current)? "
          + "make it again with this cairn)", at: location)
    }
    if let impossible = end.impossibleStatistic {
      throw CairnError(.malformedInput, "the end record is impossible: \(impossible)", at: location)
    }
    let read = tally.counts
    for type in Set(stated.keys).union(read.keys).sorted() {
      let says = stated[type] ?? 0
      let found = read[type] ?? 0
      if found < says && countRule.allowsFewer(type) {
        filteredOut[type] = says - found
        continue
      }
      guard says == found else {
        throw CairnError(
          .malformedInput,
          "the end record counts \(says) '\(type)' record(s), but the stream carried \(found) "
            + "(lines lost or added on the way?)", at: location)
      }
    }
    try checkErrorTotals(end, at: location)
  }

  /// Where the count rule holds them to it, the end record's error totals must be the `error`
  /// records read: a scan that says it had errors but carries none of them is malformed, not
  /// complete (and one that carries them is refused as incomplete, `requireComplete`).
  private func checkErrorTotals(_ end: EndRecord, at location: String) throws(CairnError) {
    guard countRule.errorTotalsExact else { return }
    let carried = errors.count
    let totals: [(String, Int?)] = [
      ("errors", end.errors), ("counts.errors", end.counts["errors"]),
    ]
    for (name, total) in totals {
      guard let total, total != carried else { continue }
      throw CairnError(
        .malformedInput,
        "the end record's \(name) is \(total), but the stream carried \(carried) error "
          + "record(s) (a scan with errors must carry them)", at: location)
    }
  }

  private static func aborted(_ line: InputLine, source: String) -> CairnError {
    let location = "\(source):\(line.number)"
    do {
      return CairnError(aborted: try AbortRecord(line.object), at: location)
    } catch {
      return CairnError(.malformedInput, "invalid abort record: \(error)", at: location)
    }
  }

  /// Decodes `line` as `R`, turning a bad field into a malformed-input error with its location.
  package func decode<R: Record>(_ type: R.Type, _ line: InputLine) throws(CairnError) -> R {
    do {
      return try R(line.object)
    } catch {
      throw CairnError(
        .malformedInput, "invalid \(line.type) record: \(error)",
        at: "\(reader.sourceName):\(line.number)")
    }
  }

  /// For stages that can lead to a deletion or change the server: the stream must have ended
  /// properly, complete, without errors. Call after `next()` returned nil.
  package func requireComplete() throws(CairnError) {
    guard let end else {
      throw CairnError(
        .malformedInput,
        "truncated stream: no end record after line \(linesRead) (did an upstream stage fail?)",
        at: reader.sourceName)
    }
    guard end.complete else {
      throw CairnError.refused(
        "the input is incomplete (\(end.tool) reported complete=false); refusing to act on it")
    }
    let errorCount = max(end.errors, errors.count)
    guard errorCount == 0 else {
      throw CairnError.refused(
        "the input carries \(errorCount) error record(s); fix them (see stderr) and run again")
    }
  }
}

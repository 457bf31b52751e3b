/// Records counted by type, as the end record's `records` states them (header and end left
/// out). Streams are long runs of one type, so a run is counted in an integer and goes into
/// the table only when the type changes: no hashing per record on the hot paths.
struct RecordTally: Sendable {
  private var table: [String: Int] = [:]
  private var runType = ""
  private var run = 0

  mutating func add(_ type: String, count: Int = 1) {
    if type != runType {
      if run > 0 { table[runType, default: 0] += run }
      runType = type
      run = 0
    }
    run += count
  }

  var counts: [String: Int] {
    var all = table
    if run > 0 { all[runType, default: 0] += run }
    return all
  }
}

import CairnJSON
import CairnRecords

/// Hand-written streams for tests, made valid the way `RecordWriter` makes real ones.
package enum StreamText {
  /// `text` with each end record that lacks them given the `records` counts of the lines
  /// before it since the last header: what a test writes by hand stays a valid stream, and a
  /// test that removes a line afterwards tests the count.
  package static func counted(_ text: String) -> String {
    var counts: [String: Int] = [:]
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      guard let type = try? JSONObject(parsing: Array(line.utf8)).type else {
        lines.append(line)
        continue
      }
      switch type {
      case HeaderRecord.recordType:
        counts = [:]
        lines.append(line)
      case EndRecord.recordType where !line.contains("\"records\""):
        lines.append(withRecords(line, counts))
      case EndRecord.recordType, AbortRecord.recordType:
        lines.append(line)
      default:
        counts[type, default: 0] += 1
        lines.append(line)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `lines` as by `counted(_:)`.
  package static func counted(_ lines: [String]) -> [String] {
    counted(lines.joined(separator: "\n")).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
  }

  private static func withRecords(_ endLine: String, _ counts: [String: Int]) -> String {
    let map = counts.keys.sorted().map { "\"\($0)\":\(counts[$0] ?? 0)" }.joined(separator: ",")
    guard let close = endLine.lastIndex(of: "}") else { return endLine }
    return endLine[..<close] + ",\"records\":{\(map)}" + endLine[close...]
  }
}

import Foundation

/// A freedesktop.org `.trashinfo` file: where a trashed file was, and when it was deleted.
package struct TrashInfo: Sendable, Equatable {
  /// The original path, percent-decoded: absolute, or relative to the trash's top directory.
  package var path: String
  /// `DeletionDate`, a local time without a zone, as the specification says.
  package var deletionDate: Date?

  /// Parses the `[Trash Info]` group; nil when it has no `Path`.
  package init?(_ text: String, timeZone: TimeZone = .current) {
    var inGroup = false
    var path: String?
    var date: Date?
    for rawLine in text.split(whereSeparator: \.isNewline) {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("[") {
        inGroup = line == "[Trash Info]"
        continue
      }
      guard inGroup, let equals = line.firstIndex(of: "=") else { continue }
      let key = line[..<equals]
      let value = String(line[line.index(after: equals)...])
      switch key {
      case "Path": path = value.removingPercentEncoding ?? value
      case "DeletionDate": date = Self.parseDate(value, timeZone: timeZone)
      default: continue
      }
    }
    guard let path, !path.isEmpty else { return nil }
    self.path = path
    self.deletionDate = date
  }

  /// `YYYY-MM-DDThh:mm:ss` in local time (some writers omit the dashes or add a zone).
  static func parseDate(_ text: String, timeZone: TimeZone) -> Date? {
    if let zoned = Date(iso8601: text) { return zoned }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyyMMdd'T'HH:mm:ss", "yyyyMMdd'T'HHmmss"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}

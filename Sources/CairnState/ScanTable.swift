import CairnCore
import GRDB

/// The current scan as a temporary table on the writing connection, so that comparing it with
/// a million remembered rows happens inside SQLite (b-tree walks in C) instead of in Swift sets
/// of strings (an allocation and a hash of every string on both sides).
///
/// `temp.scanFile(seq, checksum, root, path, identity)`: `seq` is the file's index in the scan,
/// so rows can be read back in scan order and mapped to `files[seq]`.
enum ScanTable {
  /// Files per JSON batch: bounds the text built in Swift and SQLite's parse of it.
  static let batchSize = 20_000

  /// Replaces the table's contents with `files` and indexes it.
  static func fill(_ db: Database, with files: [ScannedFile]) throws {
    try db.execute(
      sql: """
        CREATE TEMP TABLE IF NOT EXISTS scanFile (
          seq INTEGER PRIMARY KEY, checksum TEXT NOT NULL, root TEXT NOT NULL,
          path TEXT NOT NULL, identity TEXT NOT NULL);
        DROP INDEX IF EXISTS temp.scanFileByKey;
        DROP INDEX IF EXISTS temp.scanFileByIdentity;
        DELETE FROM temp.scanFile;
        """)
    // One statement per batch: a million executions from Swift would cost seconds; json_each
    // walks the array inside SQLite.
    let insert = try db.cachedStatement(
      sql: """
        INSERT INTO temp.scanFile
        SELECT ?2 + key, json_extract(value, '$[0]'), json_extract(value, '$[1]'),
          json_extract(value, '$[2]'), json_extract(value, '$[3]')
        FROM json_each(?1)
        """)
    var start = 0
    while start < files.count {
      let end = min(start + batchSize, files.count)
      var json = JSONText()
      json.open()
      for index in start..<end {
        let file = files[index]
        json.row(file.checksum, file.root, file.path, file.identity.key)
      }
      json.close()
      try insert.execute(arguments: [json.string, start])
      start = end
    }
    // Built after the rows (a sort), not maintained row by row.
    try db.execute(
      sql: """
        CREATE INDEX temp.scanFileByKey ON scanFile(checksum, root, path);
        CREATE INDEX temp.scanFileByIdentity ON scanFile(identity);
        """)
  }

  /// `temp.absentChecksum`: the observed checksums absent from the scan, the only ones that
  /// can be gone. Comparisons that concern only those look them up in this small table (one
  /// pass over the observed store in the scan's key order to fill it) rather than probing the
  /// scan for each of a million stored paths or anchors.
  static func collectAbsent(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TEMP TABLE IF NOT EXISTS absentChecksum (checksum TEXT PRIMARY KEY NOT NULL)
          WITHOUT ROWID;
        DELETE FROM temp.absentChecksum;
        INSERT INTO temp.absentChecksum SELECT checksum FROM observed
        WHERE checksum NOT IN (SELECT checksum FROM temp.scanFile);
        """)
  }
}

/// A JSON array of arrays of strings, escaping what JSON requires (checksums are base64 and
/// paths are whatever the file system holds, but input is input).
struct JSONText {
  private var bytes: [UInt8] = []
  private var rows = 0

  mutating func open() { bytes.append(UInt8(ascii: "[")) }
  mutating func close() { bytes.append(UInt8(ascii: "]")) }

  mutating func row(_ fields: String...) {
    if rows > 0 { bytes.append(UInt8(ascii: ",")) }
    rows += 1
    bytes.append(UInt8(ascii: "["))
    for (index, field) in fields.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      append(field)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  mutating func append(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      case 0..<0x20:
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      default:
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  var string: String { String(decoding: bytes, as: UTF8.self) }

  /// `["a","b",...]`.
  static func array(_ strings: some Sequence<String>) -> String {
    var text = JSONText()
    text.open()
    for (index, string) in strings.enumerated() {
      if index > 0 { text.bytes.append(UInt8(ascii: ",")) }
      text.append(string)
    }
    text.close()
    return text.string
  }
}

import CairnEngine
import CairnHashing
import CairnSQLite
import CairnSealedFiles
import CairnSupport
import Foundation
import GRDB

#if canImport(GRDBSQLite)
  import GRDBSQLite
#else
  import SQLite3
#endif

/// The current scan as temporary tables on the writing connection, so that comparing it with
/// a million remembered rows happens inside SQLite (b-tree walks in C) instead of in Swift sets
/// of strings (an allocation and a hash of every string on both sides).
///
/// - `temp.scanFile(seq, checksum, root, path, identity)`, indexed by identity: `seq` is the
///   file's index in the scan, so rows can be read back in scan order and mapped to
///   `files[seq]`. Walk order keeps joins with the anchors (keyed by identity, which mostly
///   follows it) close to sequential.
/// - `temp.scanKey(checksum, root, path)`, indexed by all three: what the comparisons with the
///   observed store walk. Its rows are inserted in that order, so building the index costs a
///   quarter of what sorting a million rows in walk order would.
enum ScanTable {
  /// Replaces the tables' contents with `files`.
  static func fill(_ db: Database, with files: ScanFiles) throws {
    try db.execute(
      sql: """
        CREATE TEMP TABLE IF NOT EXISTS scanFile (
          seq INTEGER PRIMARY KEY, checksum TEXT NOT NULL, root TEXT NOT NULL,
          path TEXT NOT NULL, identity TEXT NOT NULL);
        CREATE TEMP TABLE IF NOT EXISTS scanKey (
          checksum TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL);
        DROP INDEX IF EXISTS temp.scanFileByIdentity;
        DROP INDEX IF EXISTS temp.scanKeyByKey;
        DELETE FROM temp.scanFile;
        DELETE FROM temp.scanKey;
        """)
    // Bound and stepped through the SQLite API, the strings' bytes passed as they are: no
    // text to build and parse again, and no argument arrays per row. (Cached statements: the
    // database keeps them alive while their raw handles are used.)
    let fileInsert = try db.cachedStatement(
      sql: "INSERT INTO temp.scanFile VALUES (?, ?, ?, ?, ?)")
    let byFile = fileInsert.sqliteStatement
    for seq in files.indices {
      sqlite3_bind_int64(byFile, 1, Int64(seq))
      try files.withChecksum(seq) { try bindText(byFile, 2, $0) }
      try bindText(byFile, 3, files.root(seq))
      try files.withPath(seq) { try bindText(byFile, 4, $0) }
      try files.withIdentity(seq) { try bindText(byFile, 5, $0) }
      try db.stepBound(byFile)
    }
    let keyInsert = try db.cachedStatement(sql: "INSERT INTO temp.scanKey VALUES (?, ?, ?)")
    let byKey = keyInsert.sqliteStatement
    for seq in keyOrder(files) {
      try files.withChecksum(seq) { try bindText(byKey, 1, $0) }
      try bindText(byKey, 2, files.root(seq))
      try files.withPath(seq) { try bindText(byKey, 3, $0) }
      try db.stepBound(byKey)
    }
    // Built after the rows, not maintained row by row; from rows already in order, the key
    // index costs a quarter of the sort rows in walk order would need.
    try db.execute(
      sql: """
        CREATE INDEX temp.scanFileByIdentity ON scanFile(identity);
        CREATE INDEX temp.scanKeyByKey ON scanKey(checksum, root, path);
        """)
  }

  /// Indexes of `files` in (checksum, root, path) order, compared as bytes as SQLite's BINARY
  /// collation does; ties keep scan order. Sorted on each checksum's first eight bytes, which
  /// nearly always differ, so the full comparison (and a copy of the file) is rarely needed.
  static func keyOrder(_ files: ScanFiles) -> [Int] {
    var keys = files.indices.map { index in
      (prefix: files.withChecksum(index, prefix), index: index)
    }
    keys.sort { (a: (prefix: UInt64, index: Int), b: (prefix: UInt64, index: Int)) -> Bool in
      if a.prefix != b.prefix { return a.prefix < b.prefix }
      // Bytes, not `String` equality, which holds for canonically equivalent spellings.
      var order = files.withChecksum(a.index) { x in
        files.withChecksum(b.index) { Self.order(x, $0) }
      }
      if order == 0 { order = Self.order(files.root(a.index), files.root(b.index)) }
      if order == 0 {
        order = files.withPath(a.index) { x in files.withPath(b.index) { Self.order(x, $0) } }
      }
      return order == 0 ? a.index < b.index : order < 0
    }
    return keys.map(\.index)
  }

  /// Byte order: negative, zero or positive.
  private static func order(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    let common = min(a.count, b.count)
    if common > 0, let x = a.baseAddress, let y = b.baseAddress {
      let order = memcmp(x, y, common)
      if order != 0 { return Int(order) }
    }
    return a.count - b.count
  }

  private static func order(_ a: String, _ b: String) -> Int {
    a.withBytes { x in b.withBytes { order(x, $0) } }
  }

  /// The first eight bytes, big-endian and zero-padded: a smaller prefix means a smaller
  /// string; equal prefixes need the full comparison.
  private static func prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var value: UInt64 = 0
    var count: UInt64 = 0
    for byte in bytes.prefix(8) {
      value = value << 8 | UInt64(byte)
      count += 1
    }
    return count == 0 ? 0 : value << (8 * (8 - count))
  }

  /// Binds `text` as UTF-8, copied by SQLite (the Swift string's storage may not outlive
  /// the call); an empty string as empty text, not NULL.
  private static func bindText(_ handle: OpaquePointer?, _ index: Int32, _ text: String) throws {
    try text.withBytes { bytes in Result { try bindText(handle, index, bytes) } }.get()
  }

  /// Binds UTF-8 `bytes` (copied by SQLite); none as empty text, not NULL.
  private static func bindText(
    _ handle: OpaquePointer?, _ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>
  ) throws {
    let code = bytes.withMemoryRebound(to: CChar.self) {
      cairn_sqlite_bind_text_copy(handle, index, $0.baseAddress, Int32($0.count))
    }
    guard code == SQLITE_OK else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code), message: "cannot bind a scan field")
    }
  }

  /// `temp.absentChecksum`: the observed checksums absent from the scan, the only ones that
  /// can be gone. Comparisons that concern only those look them up in this small table (one
  /// pass over the observed store in the scan's key order to fill it) rather than probing the
  /// scan for each of a million stored paths or anchors.
  static func collectAbsent(_ db: Database) throws {
    try clearAbsent(db)
    try db.execute(
      sql: """
        INSERT INTO temp.absentChecksum SELECT checksum FROM observed
        WHERE checksum NOT IN (SELECT checksum FROM temp.scanKey);
        """)
  }

  /// Fills `temp.absentChecksum` with checksums found absent otherwise (`recordDelta`).
  static func replaceAbsent(_ db: Database, with checksums: [String]) throws {
    try clearAbsent(db)
    guard !checksums.isEmpty else { return }
    // One statement, in key order: thousands of single inserts cost more in statements.
    try db.execute(
      sql: "INSERT OR IGNORE INTO temp.absentChecksum SELECT value FROM json_each(?)",
      arguments: [JSONText.array(ByteKey.sorted(checksums))])
  }

  private static func clearAbsent(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TEMP TABLE IF NOT EXISTS absentChecksum (checksum TEXT PRIMARY KEY NOT NULL)
          WITHOUT ROWID;
        DELETE FROM temp.absentChecksum;
        """)
  }
}

/// A JSON array of arrays of strings, escaping what JSON requires (checksums are base64 and
/// paths are whatever the file system holds, but input is input).
struct JSONText {
  private var bytes: [UInt8] = []

  mutating func open() { bytes.append(UInt8(ascii: "[")) }
  mutating func close() { bytes.append(UInt8(ascii: "]")) }

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

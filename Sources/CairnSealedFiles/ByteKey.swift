import CairnSupport
import Foundation

/// A string compared and hashed by its UTF-8 bytes, as SQLite's BINARY collation compares
/// text. (`String` equality holds for canonically equivalent spellings: two paths that differ
/// only in Unicode normalisation are two files on Linux, and two rows in the store.)
package struct ByteKey: Hashable {
  package let string: String
  package init(_ string: String) { self.string = string }

  package static func == (a: ByteKey, b: ByteKey) -> Bool { a.string.sameBytes(as: b.string) }

  /// `strings` in byte order, as SQLite's BINARY collation sorts them.
  package static func sorted(_ strings: [String]) -> [String] {
    strings.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  package func hash(into hasher: inout Hasher) {
    string.withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

import Foundation

// Inlinable: called a million times from other modules, and unspecialized generic code
// looks up type metadata on every call.
extension String {
  /// Byte equality, as SQLite's BINARY collation compares text (`==` holds for canonically
  /// equivalent spellings too).
  @inlinable
  package func sameBytes(as other: String) -> Bool {
    withBytes { a in other.withBytes { b in a.sameBytes(as: b) } }
  }

  /// Calls `body` with the string's UTF-8 bytes, in place when they are stored contiguously
  /// (native strings), copied otherwise.
  @inlinable
  package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return copy.withUTF8(body)
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// Whether no byte has its high bit set, read a word at a time.
  @inlinable
  package var isASCII: Bool {
    guard let base = baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var high: UInt64 = 0
    var offset = 0
    while offset + 8 <= count {
      high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    while offset < count {
      high |= UInt64(self[offset])
      offset += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }

  @inlinable
  package func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard count == other.count else { return false }
    guard let a = baseAddress, let b = other.baseAddress else { return true }  // both empty
    return memcmp(a, b, count) == 0
  }
}

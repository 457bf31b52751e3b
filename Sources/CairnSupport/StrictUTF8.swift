/// Strict UTF-8, as Unicode's table 3-7 defines it: no overlong forms, no surrogates, nothing
/// past U+10FFFF, no sequence cut short. `String(validating:as:)` says the same but needs
/// macOS 15, and the package declares macOS 14.
package enum StrictUTF8 {
  /// Whether `bytes` are well-formed UTF-8 from first to last.
  @inlinable
  package static func isValid<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }
}

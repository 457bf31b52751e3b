import Foundation

/// Checksums as people paste them: base64 (Immich's form) or hex (`sha1sum` output).
package enum ChecksumText {
  /// The base64 SHA-1 for `text` (40 hex digits or 28 base64 characters), or nil.
  package static func normalize(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.count == 40, trimmed.allSatisfy(\.isHexDigit) {
      var bytes: [UInt8] = []
      var index = trimmed.startIndex
      while index < trimmed.endIndex {
        let next = trimmed.index(index, offsetBy: 2)
        guard let byte = UInt8(trimmed[index..<next], radix: 16) else { return nil }
        bytes.append(byte)
        index = next
      }
      return Data(bytes).base64EncodedString()
    }
    if trimmed.count == 28, let data = Data(base64Encoded: trimmed), data.count == 20 {
      return trimmed
    }
    return nil
  }

  /// Checksums from a list: one per line, `sha1sum` lines (`<hex>  <path>`) or base64 lines;
  /// blank lines and `#` comments are skipped. Throws the first bad line's number.
  package static func parseList(_ text: String) throws(ListError) -> [String] {
    var checksums: [String] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      // sha1sum writes "<hex>  <name>" or, in binary mode, "<hex> *<name>".
      let first = trimmed.split(separator: " ", maxSplits: 1).first.map(String.init) ?? trimmed
      let candidate = first.hasPrefix("\\") ? String(first.dropFirst()) : first
      guard let checksum = normalize(candidate) else {
        throw ListError(line: index + 1, text: String(trimmed.prefix(60)))
      }
      checksums.append(checksum)
    }
    return checksums
  }

  package struct ListError: Error, Sendable {
    package let line: Int
    package let text: String
  }
}

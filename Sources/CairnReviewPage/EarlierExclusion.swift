import Foundation

/// An exclusion stored before this stream: a checksum a person protected for good, which the
/// page lists with the command that lifts it (`cairn-observe include`).
package struct EarlierExclusion: Sendable, Equatable {
  package var checksum: String
  /// Why, as stored (`excluded at cairn-gate`, an import, …).
  package var reason: String
  package var createdAt: Date
  /// Where the library last had it, when the observed store remembers.
  package var lastPath: String?

  package init(checksum: String, reason: String, createdAt: Date, lastPath: String?) {
    self.checksum = checksum
    self.reason = reason
    self.createdAt = createdAt
    self.lastPath = lastPath
  }

  /// The command that lifts it. A checksum is base64 (letters, digits, `+`, `/`, `=`), which a
  /// shell passes as it is; anything else is quoted.
  package var includeCommand: String {
    let plain = checksum.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0))
    }
    let word = plain ? checksum : "'" + checksum.replacingOccurrences(of: "'", with: "'\\''") + "'"
    return "cairn-observe include " + word
  }
}

import CairnRecords
import Crypto
import Foundation

/// The fingerprint of a plan: SHA-256 over the sorted `(assetId, checksum, bucket)` set of the
/// candidates it would trash, as 64 lower-case hex digits.
///
/// `cairn-gate` writes it into its `end` record and `cairn-trash` recomputes it from the
/// candidates it actually read, so an edited or mixed-up plan is refused. A person overriding a
/// tripped rail names this digest, so the override approves exactly one plan. Order and
/// duplicates don't change it; asset ids are compared lower-case.
package enum PlanDigest {
  package static func of(_ items: [(assetId: String, checksum: String, bucket: String)]) -> String {
    let lines = Set(items.map { "\($0.assetId.lowercased())\t\($0.checksum)\t\($0.bucket)\n" })
    var hasher = SHA256()
    for line in lines.sorted() { hasher.update(data: Data(line.utf8)) }
    return hasher.finalize().map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
  }

  package static func of(_ candidates: [CandidateRecord]) -> String {
    of(candidates.map { ($0.assetId, $0.checksum, $0.bucket.rawValue) })
  }

  /// True when `text` looks like a digest (so a typo is told apart from a stale digest).
  package static func isWellFormed(_ text: String) -> Bool {
    text.count == 64 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
  }
}

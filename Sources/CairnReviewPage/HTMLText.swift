import CairnJSON
import CairnSupport
import Foundation

/// Text made safe for an HTML page: file names and paths come from the library and the server,
/// and a name like `<img src=x onerror=…>.jpg` must stay text.
package enum HTMLText {
  /// Escapes the five characters that can end text or a quoted attribute value.
  package static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// A name or path from the library or the server as page text: escaped, its bidirectional
  /// controls shown as visible marks, and isolated in `<bdi>`, so a right-to-left override in
  /// a file name (`IMG_\u{202E}gpj.exe`) can neither disguise the name nor reverse the text
  /// around it.
  package static func isolated(_ text: String) -> String {
    "<bdi>" + escape(showingBidiControls(text)) + "</bdi>"
  }

  /// The embeddings, overrides and isolates (U+202A…U+202E, U+2066…U+2069) replaced by a
  /// visible `[U+202E]`; the invisible marks (LRM, RLM, ALM) are harmless inside `<bdi>` and
  /// stay.
  package static func showingBidiControls(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
        out += "[U+" + String(scalar.value, radix: 16, uppercase: true) + "]"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A moment as the page shows it: UTC in the markup and its title, turned into the reader's
  /// local time by the page's script (which keeps the UTC in the title).
  package static func time(_ date: Date) -> String {
    let utc = date.iso8601
    return "<time datetime=\"\(utc)\" title=\"\(utc)\">\(utc)</time>"
  }

  /// True for an Immich asset id as cairn passes it on a command line: a lower- or upper-case
  /// uuid. Anything else (a hostile server's id) gets no checkbox, so nothing the page builds
  /// can carry shell syntax.
  package static func isAssetId(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    return parts.map(\.count) == [8, 4, 4, 4, 12]
      && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
  }

  /// The Immich web app's base for links (`https://photos.example.net`), from the API base a
  /// stream names; nil unless it is plain http(s), so no other scheme reaches an `href`.
  package static func webBase(apiBase: String) -> String? {
    var base = apiBase
    while base.hasSuffix("/") { base.removeLast() }
    if base.hasSuffix("/api") { base.removeLast(4) }
    let lower = base.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
      !base.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" })
    else { return nil }
    return base
  }
}

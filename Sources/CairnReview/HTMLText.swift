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

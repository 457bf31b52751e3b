/// The key that separates state: one Immich server URL and one user on it.
///
/// Two accounts on one server, or one account reached by two URLs, never share observed
/// checksums, journals or exclusions. The hash cache is global: it is derived from file
/// content only.
package struct ServerPartition: Sendable, Hashable, CustomStringConvertible {
  package let serverURL: String
  package let userId: String

  package init(serverURL: String, userId: String) {
    self.serverURL = serverURL
    self.userId = userId.lowercased()
  }

  /// A folder name a person can recognise: `photos.example.net_2283_api__<user id>`.
  package var directoryName: String {
    var text = serverURL
    for scheme in ["https://", "http://"] where text.hasPrefix(scheme) {
      text.removeFirst(scheme.count)
    }
    let safe = String(
      text.map { c -> Character in
        c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-") ? c : "_"
      })
    return safe.trimmingSuffix("_") + "__" + userId
  }

  package var description: String { "\(serverURL) (user \(userId))" }
}

extension String {
  fileprivate func trimmingSuffix(_ character: Character) -> String {
    var text = self
    while text.last == character { text.removeLast() }
    return text
  }
}

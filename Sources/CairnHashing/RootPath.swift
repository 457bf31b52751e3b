import Foundation

/// Library roots as absolute paths, the form every record carries.
package enum RootPath {
  /// `path` made absolute against `currentDirectory` and cleaned lexically (no `.`, `..`,
  /// doubled or trailing slashes). Symbolic links are kept: the root is named the way the user
  /// named it, which stays stable when a link is re-pointed to a new disk.
  package static func absolute(
    _ path: String, currentDirectory: String = FileManager.default.currentDirectoryPath
  ) -> String {
    let full = path.hasPrefix("/") ? path : currentDirectory + "/" + path
    var parts: [Substring] = []
    for part in full.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }
}

import CairnSettings
import Foundation

/// Library roots as absolute paths, the form every record carries.
package enum RootPath {
  /// `path` made absolute against `currentDirectory` and cleaned lexically (no `.`, `..`,
  /// doubled or trailing slashes), as the roots of `CAIRN_LIBRARY` are (`FolderList`).
  /// Symbolic links are kept: the root is named the way the user named it, which stays stable
  /// when a link is re-pointed to a new disk.
  package static func absolute(
    _ path: String, currentDirectory: String = FileManager.default.currentDirectoryPath
  ) -> String {
    FolderList.absolute(path, from: currentDirectory)
  }
}

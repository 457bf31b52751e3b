import Foundation

/// Where a folder named in a setting is found when it is not absolute: the home folder for
/// `~`, and `relativeTo` for a relative path.
package struct PathBase: Sendable, Equatable {
  package let home: String
  /// The working folder when the environment or `./.env` names the path; the home folder when
  /// the configuration file does, which the services and cron read from there anyway.
  package let relativeTo: String

  package init(home: String, relativeTo: String) {
    self.home = home
    self.relativeTo = relativeTo
  }

  /// This process's: `$HOME` and the working folder.
  package static var process: PathBase {
    PathBase(home: CairnPaths().home, relativeTo: FileManager.default.currentDirectoryPath)
  }
}

/// Folders named by one setting, separated by colons (`CAIRN_LIBRARY`, `CAIRN_TRASH_FOLDERS`),
/// made absolute here once, so that cairn-hash, the watcher and the trash signals reach the
/// same folders from one value.
package enum FolderList {
  /// The folders `text` names, in its order: `~` and `~/…` in the home folder, `~name/…` in
  /// that user's, a relative path in `base.relativeTo`; each cleaned as `absolute` cleans it;
  /// empty entries and repeats dropped (a root named twice would be scanned twice). Nil when
  /// an entry names the home of a user the system does not know.
  package static func folders(
    in text: String, base: PathBase,
    homeOfUser: (String) -> String? = { FileManager.default.homeDirectory(forUser: $0)?.path }
  ) -> [String]? {
    var folders: [String] = []
    var seen = Set<String>()
    for entry in text.split(separator: ":") {
      guard let folder = folder(String(entry), base: base, homeOfUser: homeOfUser) else {
        return nil
      }
      if seen.insert(folder).inserted { folders.append(folder) }
    }
    return folders
  }

  /// One folder, read as an entry of the list is (`cairn-observe watch ~/Photos`, from a unit
  /// file that no shell expanded); nil for the home of a user the system does not know.
  package static func folder(
    _ entry: String, base: PathBase,
    homeOfUser: (String) -> String? = { FileManager.default.homeDirectory(forUser: $0)?.path }
  ) -> String? {
    guard entry.hasPrefix("~") else { return absolute(entry, from: base.relativeTo) }
    let user = entry.dropFirst().prefix { $0 != "/" }
    let rest = entry.dropFirst(1 + user.count)
    guard let home = user.isEmpty ? base.home : homeOfUser(String(user)) else { return nil }
    return absolute(home + "/" + rest, from: base.relativeTo)
  }

  /// `path` made absolute from `folder` and cleaned lexically: no `.`, `..`, doubled or
  /// trailing slashes. Symbolic links are kept: a root is named the way the user named it,
  /// which every record carries and which stays when a link is re-pointed to a new disk.
  package static func absolute(_ path: String, from folder: String) -> String {
    let full = path.hasPrefix("/") ? path : folder + "/" + path
    var parts: [Substring] = []
    for part in full.split(separator: "/") {
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

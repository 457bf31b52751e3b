import CairnRecords
import CairnSettings
import CairnStream
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A file found in a trash, with what the trash says about its deletion.
package struct TrashedFile: Sendable, Equatable {
  /// Where it is now, inside the trash.
  package var location: String
  /// Where it was, when the trash records it.
  package var originalPath: String?
  package var deletedAt: Date
  /// `freedesktop`, `macos`, `stversions`, `dtrash` or `folder`.
  package var source: String
}

/// Finds the trashes that record deliberate deletions of files under the scanned roots.
///
/// - freedesktop.org: `$XDG_DATA_HOME/Trash` and, on the root's file system,
///   `$topdir/.Trash/$uid` and `$topdir/.Trash-$uid`; only entries whose `Path` lies under a
///   scanned root count, dated by `DeletionDate`.
/// - macOS `~/.Trash`: no original path is recorded; every file counts, dated by the later of
///   its modification and status-change times (best effort: later means a longer wait).
/// - Folders: `CAIRN_TRASH_FOLDERS` (`SettingsTable.trashFolders`), and digiKam's `.dtrash`
///   at the top of each scanned root, dated the same way; Syncthing's `.stversions` there,
///   dated by the stamp in each version's name.
///
/// Only checksums in the observed store matter to the engine; the caller filters.
package struct TrashSignals {
  package let roots: [String]
  package let paths: CairnPaths
  package let extraFolders: [String]

  package init(roots: [String], paths: CairnPaths, configuration: Configuration)
    throws(CairnError)
  {
    self.roots = roots
    self.paths = paths
    extraFolders = try SettingsTable.trashFolders.value(in: configuration)
  }

  /// Every trashed file that is evidence for a deletion under the roots.
  package func trashedFiles() -> [TrashedFile] {
    var found: [TrashedFile] = []
    var seenTrashes = Set<String>()
    // The home trash records absolute paths.
    let home = paths.dataHome + "/Trash"
    seenTrashes.insert(home)
    found += freedesktop(home, topdir: nil)
    for root in roots {
      guard let topdir = Self.mountPoint(of: root) else { continue }
      let uid = getuid()
      for trash in [topdir + "/.Trash/\(uid)", topdir + "/.Trash-\(uid)"]
      where seenTrashes.insert(trash).inserted {
        found += freedesktop(trash, topdir: topdir)
      }
    }
    #if os(macOS)
      found += folder(paths.home + "/.Trash", source: "macos")
    #endif
    for root in roots {
      found += stversions(root)
      found += folder(root + "/.dtrash", source: "dtrash")
    }
    for extra in extraFolders { found += folder(extra, source: "folder") }
    return found
  }

  private func underARoot(_ path: String) -> Bool {
    roots.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
  }

  private func freedesktop(_ trash: String, topdir: String?) -> [TrashedFile] {
    let info = trash + "/info"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: info) else { return [] }
    var found: [TrashedFile] = []
    for name in names.sorted() where name.hasSuffix(".trashinfo") {
      guard let text = try? String(contentsOfFile: info + "/" + name, encoding: .utf8),
        let entry = TrashInfo(text)
      else { continue }
      let original = entry.path.hasPrefix("/") ? entry.path : (topdir ?? "") + "/" + entry.path
      guard underARoot(original) else { continue }
      let stored = trash + "/files/" + String(name.dropLast(".trashinfo".count))
      for (file, relative) in Self.regularFiles(stored) {
        let date = entry.deletionDate ?? Self.changeDate(file) ?? Date()
        found.append(
          TrashedFile(
            location: file, originalPath: relative.isEmpty ? original : original + relative,
            deletedAt: date, source: "freedesktop"))
      }
    }
    return found
  }

  private func folder(_ folder: String, source: String) -> [TrashedFile] {
    Self.regularFiles(folder).compactMap { file, _ in
      guard let date = Self.changeDate(file) else { return nil }
      return TrashedFile(location: file, originalPath: nil, deletedAt: date, source: source)
    }
  }

  /// Syncthing's versions at the top of `root`: each keeps its folder's relative path and is
  /// named `<name>~<YYYYMMDD-HHMMSS><.ext>`, stamped in local time when Syncthing moved it
  /// there (the file was deleted, or replaced by a newer version, on another device). The
  /// stamp dates it; without one, its change time does.
  private func stversions(_ root: String) -> [TrashedFile] {
    let versions = root + "/.stversions"
    return Self.regularFiles(versions).compactMap { file, relative in
      let parsed = Self.syncthingVersion(relative)
      guard let date = parsed?.stamp ?? Self.changeDate(file) else { return nil }
      return TrashedFile(
        location: file, originalPath: parsed.map { root + $0.path }, deletedAt: date,
        source: "stversions")
    }
  }

  /// The original relative path and the stamp of a Syncthing version's relative path
  /// (`/2025/IMG_1~20251124-101500.jpg` → `/2025/IMG_1.jpg`); nil when it has no stamp.
  static func syncthingVersion(_ relative: String, timeZone: TimeZone = .current) -> (
    path: String, stamp: Date
  )? {
    let name = (relative as NSString).lastPathComponent
    let folder = String(relative.dropLast(name.utf8.count))
    guard let tilde = name.range(of: "~", options: .backwards) else { return nil }
    let after = name[tilde.upperBound...]
    let stamp = String(after.prefix(15))
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    guard stamp.count == 15, let date = formatter.date(from: stamp) else { return nil }
    let original = String(name[..<tilde.lowerBound]) + String(after.dropFirst(15))
    return (folder + original, date)
  }

  /// `path` itself when it is a file, else the files under it, with their path below it.
  static func regularFiles(_ path: String) -> [(String, String)] {
    var info = stat()
    guard lstat(path, &info) == 0 else { return [] }
    if info.st_mode & S_IFMT == S_IFREG { return [(path, "")] }
    guard info.st_mode & S_IFMT == S_IFDIR,
      let enumerator = FileManager.default.enumerator(atPath: path)
    else { return [] }
    var files: [(String, String)] = []
    while let relative = enumerator.nextObject() as? String {
      let full = path + "/" + relative
      guard lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      files.append((full, "/" + relative))
    }
    return files.sorted { $0.0 < $1.0 }
  }

  /// The later of modification and status change: a move into a trash changes the latter.
  static func changeDate(_ path: String) -> Date? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let modified = Double(info.st_mtimespec.tv_sec)
      let changed = Double(info.st_ctimespec.tv_sec)
    #else
      let modified = Double(info.st_mtim.tv_sec)
      let changed = Double(info.st_ctim.tv_sec)
    #endif
    return Date(timeIntervalSince1970: max(modified, changed))
  }

  /// The top of the file system holding `path` (where `.Trash-$uid` would be).
  static func mountPoint(of path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let device = info.st_dev
    var current = path
    while current != "/" {
      let parent = (current as NSString).deletingLastPathComponent
      var parentInfo = stat()
      guard stat(parent, &parentInfo) == 0, parentInfo.st_dev == device else { return current }
      current = parent
    }
    return "/"
  }
}

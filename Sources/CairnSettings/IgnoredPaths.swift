import Foundation

/// Parts of a library that are out of scope (`CAIRN_IGNORE_PATHS`): globs matched against paths
/// relative to the root they lie under. `cairn-hash` never walks what they match, and nothing
/// last seen there is ever judged gone, so ignoring a folder earlier runs saw never reads as its
/// photos being deleted. (Not to be confused with exclusions, which protect checksums.)
///
/// A pattern is anchored at the root and split at `/`: `*` matches any run of characters
/// within one name, `?` one character, and a `**` segment any number of folders, none
/// included. A pattern matches a path when it matches the path or one of the folders above it;
/// a trailing `/` makes it match folders only. So `WhatsApp/` is the root's `WhatsApp` folder,
/// `**/Screenshots/**` every `Screenshots` folder at any depth, `**/*.png` every PNG.
package struct IgnoredPaths: Sendable, Equatable {
  /// The setting that holds the patterns, separated by colons.
  package static let setting = "CAIRN_IGNORE_PATHS"

  /// The patterns as written (a leading `/` dropped), in order.
  package private(set) var patterns: [String] = []
  private var compiled: [Pattern] = []

  package static let none = IgnoredPaths()

  package init() {}

  /// The patterns in `list`; an empty pattern is skipped, one with a `.` or `..` segment
  /// (which would seem to reach outside the root) is refused.
  package init(_ list: [String]) throws(IgnoredPathError) {
    for text in list where text.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) {
      throw IgnoredPathError(text)
    }
    self.init(scanned: list)
  }

  /// The patterns a scan says it used (`RootStatus.ignored`), unchecked: a `..` segment there
  /// matched no name the walk met, and matches none here either.
  package init(scanned list: [String]) {
    for text in list {
      var pattern = text.trimmingCharacters(in: .whitespaces)
      while pattern.hasPrefix("/") { pattern.removeFirst() }
      guard !pattern.isEmpty, !patterns.contains(pattern) else { continue }
      patterns.append(pattern)
      compiled.append(
        Pattern(
          segments: pattern.split(separator: "/").map(String.init),
          folderOnly: pattern.hasSuffix("/")))
    }
  }

  package var isEmpty: Bool { compiled.isEmpty }

  /// These patterns and those of `other`, each once.
  package func union(_ other: IgnoredPaths) -> IgnoredPaths {
    var merged = self
    for (text, pattern) in zip(other.patterns, other.compiled) where !patterns.contains(text) {
      merged.patterns.append(text)
      merged.compiled.append(pattern)
    }
    return merged
  }

  /// Whether `relative` (to its root, no leading `/`) is itself matched: what the walk asks of
  /// each entry, having skipped the folders above it already.
  package func matches(relative: String, isFolder: Bool) -> Bool {
    guard !compiled.isEmpty else { return false }
    let names = relative.split(separator: "/", omittingEmptySubsequences: true)
    return compiled.contains { $0.matches(names[...], isFolder: isFolder) }
  }

  /// Whether the file at `relative` is out of scope: it, or a folder above it, is matched.
  package func covers(relative: String) -> Bool {
    guard !compiled.isEmpty else { return false }
    let names = relative.split(separator: "/", omittingEmptySubsequences: true)
    for end in names.indices {
      let isFolder = end < names.count - 1
      if compiled.contains(where: { $0.matches(names[...end], isFolder: isFolder) }) {
        return true
      }
    }
    return false
  }

  /// Whether the file at the absolute `path` is out of scope under `root`; false when it does
  /// not lie under `root`.
  package func covers(path: String, root: String) -> Bool {
    guard !compiled.isEmpty else { return false }
    let prefix = root.hasSuffix("/") ? root : root + "/"
    guard path.hasPrefix(prefix) else { return false }
    return covers(relative: String(path.dropFirst(prefix.count)))
  }

  /// One compiled pattern: its segments, and whether it names folders only.
  private struct Pattern: Sendable, Equatable {
    var segments: [String]
    var folderOnly: Bool

    func matches(_ names: ArraySlice<Substring>, isFolder: Bool) -> Bool {
      if folderOnly && !isFolder { return false }
      return Self.match(segments[...], names)
    }

    /// Segment by segment; `**` tries every number of names it could stand for.
    static func match(_ segments: ArraySlice<String>, _ names: ArraySlice<Substring>) -> Bool {
      guard let first = segments.first else { return names.isEmpty }
      if first == "**" {
        let rest = segments.dropFirst()
        var tail = names
        while true {
          if match(rest, tail) { return true }
          guard !tail.isEmpty else { return false }
          tail = tail.dropFirst()
        }
      }
      guard let name = names.first, matchName(Array(first)[...], Array(name)[...])
      else { return false }
      return match(segments.dropFirst(), names.dropFirst())
    }

    /// `*` and `?` within one name, character by character.
    static func matchName(_ pattern: ArraySlice<Character>, _ name: ArraySlice<Character>)
      -> Bool
    {
      guard let head = pattern.first else { return name.isEmpty }
      switch head {
      case "*":
        var tail = name
        while true {
          if matchName(pattern.dropFirst(), tail) { return true }
          guard !tail.isEmpty else { return false }
          tail = tail.dropFirst()
        }
      case "?":
        return !name.isEmpty && matchName(pattern.dropFirst(), name.dropFirst())
      default:
        return name.first == head && matchName(pattern.dropFirst(), name.dropFirst())
      }
    }
  }
}

/// A pattern of `CAIRN_IGNORE_PATHS` that could reach outside its root.
package struct IgnoredPathError: Error, Sendable {
  package let pattern: String
  init(_ pattern: String) { self.pattern = pattern }
}

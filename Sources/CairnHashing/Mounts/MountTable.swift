import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The mount points this process sees, from the kernel's own table.
///
/// The table, not `st_dev`, says what is mounted: a bind mount of a folder from the same file
/// system (the usual way a second disk's photos are grafted into a library) keeps its parent's
/// device number, so only the table can tell the folder was a mount point.
package enum MountTable {
  /// Every mount point, as the canonical paths the kernel prints; nil when the table can't be
  /// read (no /proc, or not Linux): then nothing can be said about mounts.
  package static func current(at path: String = "/proc/self/mountinfo") -> Set<String>? {
    #if os(Linux)
      guard let data = FileManager.default.contents(atPath: path) else { return nil }
      return parse(String(decoding: data, as: UTF8.self))
    #else
      return nil
    #endif
  }

  /// The fifth field of each `mountinfo` line (see proc(5)).
  static func parse(_ text: String) -> Set<String> {
    var points = Set<String>()
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
      guard fields.count >= 5 else { continue }
      points.insert(unescape(fields[4]))
    }
    return points
  }

  /// The kernel writes space, tab, newline and backslash in a path as `\ooo` octal escapes.
  static func unescape(_ field: Substring) -> String {
    guard field.contains("\\") else { return String(field) }
    var bytes: [UInt8] = []
    let raw = Array(field.utf8)
    var i = 0
    while i < raw.count {
      if raw[i] == UInt8(ascii: "\\"), i + 3 < raw.count,
        let value = UInt8(String(decoding: raw[(i + 1)...(i + 3)], as: UTF8.self), radix: 8)
      {
        bytes.append(value)
        i += 4
      } else {
        bytes.append(raw[i])
        i += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `path` with every symbolic link resolved, as the table names it; nil when it can't be.
  package static func canonical(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}

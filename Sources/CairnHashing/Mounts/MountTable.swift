import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// One mount in the kernel's table: where it is, and what is mounted there.
package struct MountEntry: Sendable, Equatable {
  /// The mount point, as the canonical path the kernel prints.
  package var point: String
  /// The mounted file system's device number (`st_dev` of everything on it).
  package var device: UInt64
  /// The folder of that file system mounted here: `/` for a whole volume, the folder for a
  /// bind mount of a part of one.
  package var fsRoot: String
  /// The file system's type (`ext4`, `vfat`, `tmpfs`, …).
  package var fsType: String
  /// What was mounted: a device (`/dev/sdb1`, `/dev/loop0`), a share, or a name.
  package var source: String

  package init(point: String, device: UInt64, fsRoot: String, fsType: String, source: String) {
    self.point = point
    self.device = device
    self.fsRoot = fsRoot
    self.fsType = fsType
    self.source = source
  }
}

/// The mounts this process sees, from the kernel's own table.
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
      return Set(parse(String(decoding: data, as: UTF8.self)).map(\.point))
    #else
      return nil
    #endif
  }

  /// Every mount, by mount point (the one on top where mounts are stacked); nil when the table
  /// can't be read: then nothing can be said about mounts.
  package static func entries(at path: String = "/proc/self/mountinfo") -> [String: MountEntry]? {
    #if os(Linux)
      guard let data = FileManager.default.contents(atPath: path) else { return nil }
      var table: [String: MountEntry] = [:]
      // Later lines are mounted later, on top of what an earlier line mounted at the same point.
      for entry in parse(String(decoding: data, as: UTF8.self)) { table[entry.point] = entry }
      return table
    #elseif canImport(Darwin)
      return mountedFileSystems()
    #else
      return nil
    #endif
  }

  #if canImport(Darwin)
    /// macOS has no mountinfo: getmntinfo(3) lists the mounted file systems (no bind mounts
    /// there, so each mounts a whole volume).
    private static func mountedFileSystems() -> [String: MountEntry]? {
      var buffer: UnsafeMutablePointer<statfs>?
      let count = getmntinfo(&buffer, MNT_NOWAIT)
      guard count > 0, let buffer else { return nil }
      var table: [String: MountEntry] = [:]
      for index in 0..<Int(count) {
        let fs = buffer[index]
        let point = text(of: fs.f_mntonname)
        var s = stat()
        guard stat(point, &s) == 0 else { continue }
        table[point] = MountEntry(
          point: point, device: UInt64(UInt32(bitPattern: s.st_dev)), fsRoot: "/",
          fsType: text(of: fs.f_fstypename), source: text(of: fs.f_mntfromname))
      }
      return table
    }

    /// A fixed-size C string field of a struct.
    private static func text<Field>(of field: Field) -> String {
      withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
  #endif

  /// The lines of `mountinfo` (see proc(5)): `id parent major:minor root point options
  /// [optional fields…] - type source super-options`.
  static func parse(_ text: String) -> [MountEntry] {
    var entries: [MountEntry] = []
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      guard fields.count >= 5, let device = device(fields[2]) else { continue }
      // The optional fields end at a lone `-`; the type and the source follow it.
      let separator = fields[5...].firstIndex(of: "-")
      let type = separator.flatMap { $0 + 1 < fields.count ? String(fields[$0 + 1]) : nil }
      let source = separator.flatMap { $0 + 2 < fields.count ? unescape(fields[$0 + 2]) : nil }
      entries.append(
        MountEntry(
          point: unescape(fields[4]), device: device, fsRoot: unescape(fields[3]),
          fsType: type ?? "", source: source ?? ""))
    }
    return entries
  }

  /// `major:minor` as the `st_dev` Linux's glibc composes from them.
  static func device(_ field: Substring) -> UInt64? {
    let parts = field.split(separator: ":")
    guard parts.count == 2, let major = UInt64(parts[0]), let minor = UInt64(parts[1]) else {
      return nil
    }
    return ((major & 0xFFFF_F000) << 32) | ((major & 0xFFF) << 8)
      | ((minor & 0xFFFF_FF00) << 12) | (minor & 0xFF)
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

  /// The mount that holds `canonicalPath`: the one whose point is its longest leading folder.
  static func containing(_ canonicalPath: String, in table: [String: MountEntry]) -> MountEntry? {
    var folder = canonicalPath
    while true {
      if let entry = table[folder] { return entry }
      guard folder != "/", let slash = folder.lastIndex(of: "/") else { return nil }
      folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
    }
  }

  /// `path` with every symbolic link resolved, as the table names it; nil when it can't be.
  package static func canonical(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}

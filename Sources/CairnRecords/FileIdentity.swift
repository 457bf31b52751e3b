/// What identifies a file across edits and renames: its volume, device and inode, which a
/// rename or an in-place rewrite keeps. Without device and inode (a scanner that did not report
/// them), the path.
///
/// The volume (its file system's UUID, when the scanner could read it) is part of it because
/// the device and inode numbers alone are not a file's: a new card in the same reader gets the
/// old card's device number, and a fresh file system hands out the old one's inode numbers, so
/// without it a photo on the new card would be taken for the old card's photo edited.
package struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
  /// `dev:ino`, `dev:ino:volume`, or `path:<absolute path>`; stored as is in the state
  /// database.
  package let key: String

  package init(key: String) { self.key = key }

  package init(device: UInt64?, inode: UInt64?, volume: String? = nil, path: String) {
    if let device, let inode {
      let numbers = Self.key(device: device, inode: inode)
      key = volume.map { numbers + ":" + $0 } ?? numbers
    } else {
      key = "path:" + path
    }
  }

  /// Whether the two files may be on the same volume: the same volume where both name one
  /// (a stick in another port is the same stick), else the same device. A key by path says
  /// nothing about its volume, so it may be. (A key written before volumes were named has
  /// none: it may be on any volume its device held.)
  package func mayShareVolume(with other: FileIdentity) -> Bool {
    guard let mine = volumeParts, let theirs = other.volumeParts else { return true }
    if let volume = mine.volume, let otherVolume = theirs.volume { return volume == otherVolume }
    return mine.device == theirs.device
  }

  /// The device and the volume of a `dev:ino[:volume]` key; nil for a key by path.
  private var volumeParts: (device: Substring, volume: Substring?)? {
    guard !key.hasPrefix("path:"), let first = key.firstIndex(of: ":") else { return nil }
    let rest = key[key.index(after: first)...]
    let volume = rest.firstIndex(of: ":").map { rest[rest.index(after: $0)...] }
    return (key[..<first], volume)
  }

  /// `dev:ino` without string interpolation's machinery: a million files each have one.
  private static func key(device: UInt64, inode: UInt64) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 41) { buffer in
      var end = 41
      func prepend(_ value: UInt64) {
        var rest = value
        repeat {
          end -= 1
          buffer[end] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        } while rest > 0
      }
      prepend(inode)
      end -= 1
      buffer[end] = UInt8(ascii: ":")
      prepend(device)
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[end..<41]), as: UTF8.self)
    }
  }

  package init(_ file: FileRecord) {
    self.init(device: file.device, inode: file.inode, volume: file.volume, path: file.path)
  }

  package var description: String { key }
}

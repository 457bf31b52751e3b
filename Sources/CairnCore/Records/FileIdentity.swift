/// What identifies a file across edits and renames: its device and inode, which a rename or an
/// in-place rewrite keeps. Without them (a scanner that did not report them), the path.
package struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
  /// `dev:ino`, or `path:<absolute path>`; stored as is in the state database.
  package let key: String

  package init(key: String) { self.key = key }

  package init(device: UInt64?, inode: UInt64?, path: String) {
    if let device, let inode {
      key = Self.key(device: device, inode: inode)
    } else {
      key = "path:" + path
    }
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
    self.init(device: file.device, inode: file.inode, path: file.path)
  }

  package var description: String { key }
}

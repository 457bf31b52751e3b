import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Reads what identifies the volume of a mount (`VolumeIdentity`): its UUID from the links
/// udev keeps in /dev/disk/by-uuid (readable by anyone), or else from the superblock on the
/// device (where the device is readable); the image file behind a loop device from /sys.
/// Everything read is optional: a fact that can't be read is left out, never guessed.
enum VolumeProbe {
  static func identity(of entry: MountEntry) -> VolumeIdentity {
    var identity = VolumeIdentity(
      device: entry.device, fsType: entry.fsType.isEmpty ? nil : entry.fsType,
      source: entry.source.isEmpty ? nil : entry.source, fsRoot: entry.fsRoot)
    #if os(Linux)
      guard entry.source.hasPrefix("/dev/"), let block = blockDevice(entry.source) else {
        return identity
      }
      identity.uuid = uuidFromLinks(of: block) ?? uuidFromSuperblock(entry.source)
      identity.backingFile = loopBackingFile(entry.source)
    #endif
    return identity
  }

  /// The device number of the block device at `path`; nil for anything else.
  private static func blockDevice(_ path: String) -> UInt64? {
    var s = stat()
    guard stat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFBLK else { return nil }
    return UInt64(s.st_rdev)
  }

  /// The name of the /dev/disk/by-uuid link to the block device `device`.
  private static func uuidFromLinks(of device: UInt64) -> String? {
    let folder = "/dev/disk/by-uuid"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return nil
    }
    return names.sorted().first { blockDevice(folder + "/" + $0) == device }
  }

  /// The UUID in the superblock at the start of the device `path`.
  private static func uuidFromSuperblock(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: SuperblockID.probeLength)
    let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return SuperblockID.read(Array(bytes[0..<count]))?.uuid
  }

  /// `/sys/block/loopN/loop/backing_file` for `/dev/loopN`.
  private static func loopBackingFile(_ source: String) -> String? {
    let name = source.dropFirst("/dev/".count)
    guard name.hasPrefix("loop"), !name.contains("/") else { return nil }
    guard let data = FileManager.default.contents(atPath: "/sys/block/\(name)/loop/backing_file")
    else { return nil }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    return text.isEmpty ? nil : text
  }
}

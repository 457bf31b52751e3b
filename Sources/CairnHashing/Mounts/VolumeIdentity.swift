/// What tells one volume from another at the same place: a card or a stick taken out and
/// another put in, a disk image attached to the same loop device as the last one.
///
/// The device number alone cannot: the kernel gives the next card in the same reader, or the
/// next image on `/dev/loop0`, the number the last one had. The file system's UUID (or a FAT or
/// NTFS volume's serial number) is written when the file system is made, so it follows the
/// volume, not the slot; where it can't be read, the type, the source, the image file behind a
/// loop device and the mounted folder still tell most replacements apart.
package struct VolumeIdentity: Sendable, Equatable, Codable {
  /// `st_dev` of the mounted file system.
  package var device: UInt64
  /// The file system's type, e.g. `ext4`.
  package var fsType: String?
  /// What was mounted, e.g. `/dev/sdb1`.
  package var source: String?
  /// The folder of the file system mounted here (`/` for a whole volume; a bind mount's folder).
  package var fsRoot: String?
  /// The file system's UUID or serial number, as blkid(8) prints it; nil when unreadable.
  package var uuid: String?
  /// The image file behind a loop device.
  package var backingFile: String?

  package init(
    device: UInt64, fsType: String? = nil, source: String? = nil, fsRoot: String? = nil,
    uuid: String? = nil, backingFile: String? = nil
  ) {
    self.device = device
    self.fsType = fsType
    self.source = source
    self.fsRoot = fsRoot
    self.uuid = uuid
    self.backingFile = backingFile
  }

  /// Whether `other` is this volume, mounted again. Two UUIDs decide, whatever device numbers
  /// the kernel handed out this time (a stick in another port is still the same stick);
  /// without them the device, the source and the image file must all be as they were. Either
  /// way a different type or a different folder of the volume is another thing at this place.
  package func isSameVolume(as other: VolumeIdentity) -> Bool {
    guard Self.agree(fsType, other.fsType), Self.agree(fsRoot, other.fsRoot) else { return false }
    if let uuid, let otherUUID = other.uuid { return uuid == otherUUID }
    return device == other.device && Self.agree(source, other.source)
      && Self.agree(backingFile, other.backingFile)
  }

  /// Two facts agree unless both are known and differ: a fact read one time and not the next
  /// (a UUID that needs a permission) is no evidence of a change.
  private static func agree(_ a: String?, _ b: String?) -> Bool {
    guard let a, let b else { return true }
    return a == b
  }

  /// How a message names it: `ext4 volume 1a3a…-ee35 (/dev/loop0)`.
  package var description: String {
    var words = [(fsType.map { $0 + " " } ?? "") + "volume"]
    if let uuid { words.append(uuid) }
    var from: [String] = []
    if let source, !source.isEmpty { from.append(source) }
    if let backingFile { from.append(backingFile) }
    if let fsRoot, fsRoot != "/" { from.append("folder " + fsRoot) }
    if uuid == nil && from.isEmpty { from.append("device \(device)") }
    if !from.isEmpty { words.append("(" + from.joined(separator: ", ") + ")") }
    return words.joined(separator: " ")
  }
}

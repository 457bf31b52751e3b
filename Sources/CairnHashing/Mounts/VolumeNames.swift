import CairnCore

/// The name each scanned file's volume goes by in its `file` record (`vol`): the file system's
/// UUID or serial number, by the device number `stat` gives, read once per device.
///
/// A file's identity is its volume, device and inode (`FileIdentity`). The device and inode
/// alone are not enough: a new card in the same reader gets the old card's device number and a
/// fresh file system hands out the old one's inode numbers, so a photo on the new card would be
/// taken for the old card's photo edited. A volume whose UUID can't be read (a network share,
/// a FUSE or overlay mount) gets no name, and its files are identified as before.
final class VolumeNames {
  private let table: [MountEntry]
  /// The JSON-escaped name of each device's volume (nil: none readable), as the encoder
  /// writes it.
  private var names: [UInt64: [UInt8]?] = [:]
  /// The last device asked about: a scan walks one volume after another.
  private var last: (device: UInt64, name: [UInt8]?)?

  init(table: [String: MountEntry]? = MountTable.entries()) {
    // By mount point, so the choice among a device's bind mounts is the same every scan.
    self.table = (table ?? [:]).sorted { $0.key < $1.key }.map(\.value)
  }

  /// The escaped name of the volume with device number `device`; nil when it has none.
  func escapedName(of device: UInt64) -> [UInt8]? {
    if let last, last.device == device { return last.name }
    let name: [UInt8]?
    if let known = names[device] {
      name = known
    } else {
      name = table.lazy.filter { $0.device == device }
        .compactMap { VolumeProbe.identity(of: $0).uuid }.first
        .map(FileRecordEncoder.escaped)
      names[device] = .some(name)
    }
    last = (device, name)
    return name
  }
}

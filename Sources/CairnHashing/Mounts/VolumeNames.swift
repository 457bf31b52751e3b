import CairnRecords

/// The name each scanned file's volume goes by in its `file` record (`vol`): the file system's
/// UUID or serial number, by the device number `stat` gives, read once per device.
///
/// A file's identity is its volume, device and inode (`FileIdentity`). The device and inode
/// alone are not enough: a new card in the same reader gets the old card's device number and a
/// fresh file system hands out the old one's inode numbers, so a photo on the new card would be
/// taken for the old card's photo edited. A volume whose UUID can't be read (a network share,
/// a FUSE or overlay mount) gets no name, and its files are identified as before.
package final class VolumeNames {
  /// A volume's name as it is, and JSON-escaped as the encoder writes it.
  private typealias Name = (text: String, escaped: [UInt8])

  private let table: [MountEntry]
  /// Each device's volume name (nil: none readable).
  private var names: [UInt64: Name?] = [:]
  /// The last device asked about: a scan walks one volume after another.
  private var last: (device: UInt64, name: Name?)?

  /// The volumes mounted now. The watcher makes one for each write of arrivals, as a card
  /// swapped in the same reader keeps the device number and changes the name.
  package convenience init() { self.init(table: MountTable.entries()) }

  init(table: [String: MountEntry]?) {
    // By mount point, so the choice among a device's bind mounts is the same every scan.
    self.table = (table ?? [:]).sorted { $0.key < $1.key }.map(\.value)
  }

  /// The name of the volume with device number `device`, as a `file` record's `vol` reads;
  /// nil when it has none.
  package func name(of device: UInt64) -> String? { lookup(device)?.text }

  /// The escaped name of the volume with device number `device`; nil when it has none.
  func escapedName(of device: UInt64) -> [UInt8]? { lookup(device)?.escaped }

  private func lookup(_ device: UInt64) -> Name? {
    if let last, last.device == device { return last.name }
    let name: Name?
    if let known = names[device] {
      name = known
    } else {
      name = table.lazy.filter { $0.device == device }
        .compactMap { VolumeProbe.identity(of: $0).uuid }.first
        .map { ($0, FileRecordEncoder.escaped($0)) }
      names[device] = .some(name)
    }
    last = (device, name)
    return name
  }
}

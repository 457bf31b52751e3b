/// A file system that a root's last scan had and this one does not: the subtree it held is not
/// known, so it is reported as an error and the root is incomplete (nothing under it can be
/// judged gone).
package struct MountLoss: Sendable, Equatable {
  /// The mount point (or the root), as the scan names paths.
  package var path: String
  /// `mount-lost` or `device-changed`, the error record's code.
  package var code: String
  package var message: String
}

/// The judgment of one root against what its last scan saw: pure, so it can be tested in a line.
enum MountGuard {
  static let remedy =
    "mount it again, or run cairn-hash --forget-mounts to accept the change"

  /// The mount points strictly under `canonicalRoot`, relative to it, from the table's paths.
  static func mountPoints(under canonicalRoot: String, in table: Set<String>) -> Set<String> {
    let prefix = canonicalRoot == "/" ? "/" : canonicalRoot + "/"
    var relative = Set<String>()
    for point in table where point.hasPrefix(prefix) && point.count > prefix.count {
      relative.insert(String(point.dropFirst(prefix.count)))
    }
    return relative
  }

  /// Compares what the walk saw now (`device`, the mount points `mounted` under the root, the
  /// files the walk counted under each one it entered) with `remembered`.
  ///
  /// Returns the losses and what to remember next: what is there now, plus every lost mount
  /// point and the old device as they were, so a second scan with the volume still missing
  /// finds the same loss instead of a library that silently shrank.
  static func judge(
    root: String, remembered: MountMemory.Root?, device: UInt64, mounted: Set<String>,
    files: [String: Int], exists: (String) -> Bool
  ) -> (losses: [MountLoss], next: MountMemory.Root) {
    var next = MountMemory.Root(device: device, mounts: [:])
    for point in mounted { if let count = files[point] { next.mounts[point] = count } }
    guard let remembered else { return ([], next) }
    var losses: [MountLoss] = []
    if remembered.device != device {
      losses.append(
        MountLoss(
          path: root, code: "device-changed",
          message:
            "the root is on another file system than in the last scan (device \(device), was "
            + "\(remembered.device)); nothing under it is counted as gone: \(remedy)"))
      next.device = remembered.device
    }
    for (point, held) in remembered.mounts.sorted(by: { $0.key < $1.key }) {
      let what: String
      if !mounted.contains(point) {
        what =
          exists(point)
          ? "was a mount point in the last scan and is not one now"
          : "was a mount point in the last scan and is missing now"
      } else if held > 0 && (files[point] ?? 0) == 0 {
        what = "mount point held \(held) files in the last scan and holds none now"
      } else {
        continue
      }
      losses.append(
        MountLoss(
          path: join(root, point), code: "mount-lost",
          message: "\(what); its files are not counted as gone: \(remedy)"))
      next.mounts[point] = held
    }
    return (losses, next)
  }

  /// `root/relative`, as the walk writes paths.
  static func join(_ root: String, _ relative: String) -> String {
    root.hasSuffix("/") ? root + relative : root + "/" + relative
  }
}

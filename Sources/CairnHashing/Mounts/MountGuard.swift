/// A volume that a root's last scan had and this one does not have as it was: the subtree it
/// held is out of scope, so nothing last seen there can be judged gone until the volume is
/// back or the person accepts the change (`cairn-hash accept-lost-mount`).
package struct VolumeAbsence: Sendable, Equatable {
  package enum Kind: String, Sendable {
    /// Not mounted, or the mount point is missing.
    case away = "volume away"
    /// Another volume is mounted where it was.
    case replaced = "volume replaced"
    /// Mounted, the same volume, but without the files it held.
    case emptied = "volume emptied"
  }

  /// The root whose scan found it, as given.
  package var root: String
  /// The mount point (or the root itself), as the scan names paths.
  package var path: String
  /// The mount point relative to the root; empty for the root's own volume.
  package var relative: String
  package var kind: Kind
  /// Media files it held at its last scan.
  package var files: Int
  /// The volume last seen there, and the one there now.
  package var was: VolumeIdentity?
  package var now: VolumeIdentity?
  /// What changed, in a few words (`is not a mount point now`).
  package var detail: String
}

/// What a scan sees of one root's volumes now.
struct VolumeSighting: Sendable {
  /// `st_dev` of the root folder.
  var device: UInt64
  /// The volume the root folder is on; nil without a mount table.
  var volume: VolumeIdentity?
  /// Media files the walk found under the root.
  var files: Int
  /// The mount points under the root (relative), with their volumes.
  var mounted: [String: VolumeIdentity]
  /// Media files the walk found under each mount point it entered.
  var filesUnder: [String: Int]
  /// Folders of other roots given to the same scan, inside this one (relative): their mounts
  /// are theirs to judge.
  var nested: [String] = []
}

/// The judgment of one root against what its last scan saw: pure, so it can be tested in a line.
enum MountGuard {
  /// The mount points strictly under `canonicalRoot`, relative to it, from the table's points.
  static func mountPoints(under canonicalRoot: String, in points: some Sequence<String>) -> Set<
    String
  > {
    let prefix = canonicalRoot == "/" ? "/" : canonicalRoot + "/"
    var relative = Set<String>()
    for point in points where point.hasPrefix(prefix) && point.count > prefix.count {
      relative.insert(String(point.dropFirst(prefix.count)))
    }
    return relative
  }

  /// Compares what the walk saw `now` with `remembered`.
  ///
  /// Returns the absences and what to remember next: what is there now, except that an absent
  /// volume is remembered as it was, so a second scan with the volume still away finds the
  /// same absence instead of a library that silently shrank. An absence at a relative path in
  /// `accepting` is the person's explicit act: what is there now (or nothing) is remembered in
  /// its place.
  static func judge(
    root: String, remembered: MountMemory.Root?, now: VolumeSighting,
    accepting: Set<String> = [], exists: (String) -> Bool
  ) -> (absences: [VolumeAbsence], next: MountMemory.Root) {
    func isNested(_ point: String) -> Bool {
      now.nested.contains { point == $0 || point.hasPrefix($0 + "/") }
    }
    var next = MountMemory.Root(
      device: now.device, volume: MountMemory.Volume(files: now.files, identity: now.volume),
      mounts: [:])
    for (point, identity) in now.mounted where !isNested(point) {
      if let count = now.filesUnder[point] {
        next.mounts[point] = MountMemory.Volume(files: count, identity: identity)
      }
    }
    guard let remembered else { return ([], next) }
    var absences: [VolumeAbsence] = []
    let rootMoved =
      if let was = remembered.volume?.identity, let volume = now.volume {
        !was.isSameVolume(as: volume)
      } else {
        remembered.device != now.device
      }
    if rootMoved {
      absences.append(
        VolumeAbsence(
          root: root, path: root, relative: "", kind: .replaced,
          files: remembered.volume?.files ?? 0, was: remembered.volume?.identity, now: now.volume,
          detail: "the root is on another volume than at its last scan"))
      if !accepting.contains("") {
        next.device = remembered.device
        next.volume = remembered.volume
      }
    }
    for (point, held) in remembered.mounts.sorted(by: { $0.key < $1.key }) {
      if isNested(point) {
        next.mounts[point] = held
        continue
      }
      guard let (kind, detail) = change(of: held, at: point, now: now, exists: exists) else {
        continue
      }
      absences.append(
        VolumeAbsence(
          root: root, path: join(root, point), relative: point, kind: kind, files: held.files,
          was: held.identity, now: now.mounted[point], detail: detail))
      if accepting.contains(point) {
        // Away: nothing to remember; replaced or emptied: what is there now, as the walk saw it.
        if kind == .away { next.mounts[point] = nil }
      } else {
        next.mounts[point] = held
      }
    }
    return (absences, next)
  }

  /// How the volume remembered at `point` differs from what is there now, in words for a
  /// person; nil when it is the same volume and still holds media files.
  private static func change(
    of held: MountMemory.Volume, at point: String, now: VolumeSighting,
    exists: (String) -> Bool
  ) -> (VolumeAbsence.Kind, String)? {
    guard let volume = now.mounted[point] else {
      return (
        .away,
        exists(point) ? "is not a mount point now" : "was a mount point and is missing now"
      )
    }
    if let was = held.identity, !was.isSameVolume(as: volume) {
      return (.replaced, "another volume is mounted here")
    }
    if held.files > 0 && (now.filesUnder[point] ?? 0) == 0 {
      return (.emptied, "held \(held.files) media files at its last scan and holds none now")
    }
    return nil
  }

  /// `root/relative`, as the walk writes paths.
  static func join(_ root: String, _ relative: String) -> String {
    relative.isEmpty ? root : root.hasSuffix("/") ? root + relative : root + "/" + relative
  }
}

/// What a person is told about an absent volume. Every line that names the command accepting
/// the change also says what accepting does to the photos the volume held: they can then be
/// judged deleted, and their Immich assets trashed.
extension VolumeAbsence {
  /// The scan's warning: what changed, that nothing under it is judged, and what accepting
  /// would do.
  package var scanWarning: String {
    "\(kind.rawValue): \(change); nothing last seen under it is judged deleted until it is back"
      + (kind == .replaced
        ? ", and the new volume's files are not listed until it is accepted. " : ". ")
      + "If the change is meant, `cairn-hash accept-lost-mount \(shellQuoted(path))` tells "
      + "what accepting it does and asks first: the photos the old volume held that are "
      + "nowhere else in the library would become candidates for Immich's trash"
  }

  /// The statement an acceptance makes before it asks.
  package var acceptanceStatement: String {
    let accepting =
      switch kind {
      case .away: "accepting that this volume is gone for good"
      case .replaced:
        "accepting \(now.map { "the " + $0.description } ?? "what is here now") "
          + "as the volume at this place"
      case .emptied: "accepting that this volume no longer holds its photos"
      }
    return "\(kind.rawValue): \(change). Now \(accepting): from the next run on, those of the "
      + "\(mediaFiles) the old volume held that are nowhere else in the library count as deleted, "
      + "and their Immich assets become candidates for Immich's trash. The usual rails still "
      + "apply (the threshold and its approval, quarantine, review of pending candidates, the "
      + "point-of-action check); nothing is trashed until cairn-trash runs"
  }

  /// What changed, naming the volumes.
  var change: String {
    let last = was.map { "the \($0.description), " } ?? "the volume last seen here, "
    let held = "which held \(mediaFiles) at its last scan"
    switch kind {
    case .away: return "\(detail); \(last)\(held), is not here"
    case .replaced:
      return "\(detail): \(now.map { "the " + $0.description } ?? "another volume") "
        + "in place of \(last)\(held)"
    case .emptied: return "\(detail) (\(was.map(\.description) ?? "the same volume"))"
    }
  }

  private var mediaFiles: String { files == 1 ? "1 media file" : "\(files) media files" }

  private func shellQuoted(_ path: String) -> String {
    path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) }
      ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

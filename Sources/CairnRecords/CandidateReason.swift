/// Why a candidate is in its bucket: the stable codes of `CandidateRecord.reason`, one place
/// for what code writes and compares, and what cairn-records(5) documents (a test holds the
/// page to this list). The record itself keeps the code as a string, so a stream from an older
/// or newer writer with a code this build does not know still reads, and passes on unchanged.
package enum CandidateReason: String, Sendable, CaseIterable {
  /// Missing from a complete scan, with no signal: `delete` (trusting), or `pending`
  /// (`unconfirmed`, strict).
  case gone
  /// Missing from a complete scan with no signal, under strict strictness: `pending`.
  case unconfirmed
  /// A trash recorded the deletion, and the quarantine runs: `held`.
  case quarantine
  /// A trash recorded the deletion and its quarantine ended (or the watcher saw it, trusting):
  /// `delete`.
  case confirmed
  /// In Android's trash, which the Immich app's "Free up space" also uses: `pending`.
  case androidTrash = "android-trash"
  /// A favourite on Immich: `pending`.
  case favorite
  /// In one of the user's albums on Immich: `pending`.
  case inAlbum = "in-album"
  /// A Live Photo still whose motion video stays on the server: `pending`, goes alone.
  case liveVideoKept = "live-video-kept"
  /// A motion video whose still stays on the server: `pending`.
  case liveStillKept = "live-still-kept"
  /// Matched by name and time to a file the watcher saw arrive but never hashed: `pending`.
  case seenUnhashed = "seen-unhashed"
  /// Taken longer ago than the age window (`CAIRN_MAX_AGE_DAYS`): `kept`.
  case ageWindow = "age-window"
  /// Trashed by a cairn run and back in the library: `restore`.
  case putBack = "put-back"
}

extension CandidateRecord {
  /// `reason` in cairn's vocabulary, for code that compares it; nil for a code this build does
  /// not know, which `reason` carries on as it came.
  package var knownReason: CandidateReason? { CandidateReason(rawValue: reason) }
}

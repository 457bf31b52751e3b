/// How much of a root a scan covered, which decides what the root's scan may be used for.
/// Written once here; the engine, cairn-reconcile's scope check and the recording of a scan
/// (cairn-reconcile's and cairn-observe's) all ask it.
package enum RootCoverage: Sendable, Equatable {
  /// Read completely, without a problem, nothing out of scope: anything under it that is not
  /// seen is gone, and its scan is recorded as complete.
  case whole
  /// Read completely apart from folders out of scope: judged apart from those folders (the
  /// engine leaves them out by path), recorded as a partial scan its snapshot covers.
  case scoped
  /// Incomplete, missing, unreadable or empty: nothing under it counts as gone, and its scan
  /// only adds observations.
  case doubtful
}

extension RootStatus {
  package var coverage: RootCoverage {
    guard complete, problem == nil else { return .doubtful }
    return outOfScope.isEmpty ? .whole : .scoped
  }
}

extension Sequence<RootStatus> {
  /// The paths of the roots whose coverage is one of `coverage`.
  package func paths(_ coverage: RootCoverage...) -> Set<String> {
    Set(filter { coverage.contains($0.coverage) }.map(\.path))
  }
}

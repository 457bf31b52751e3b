/// The Immich tag a run leaves on every asset it trashed: `cairn/v1/run/<run-id>`.
///
/// The version sits in the path so a later schema can live beside this one; parsing accepts only
/// tags this tool made, so a person's own tags under `cairn/` are never mistaken for runs.
package struct RunTag: Sendable, Hashable, CustomStringConvertible {
  package static let prefix = "cairn/v1/run/"

  package let runID: RunID

  package init(_ runID: RunID) { self.runID = runID }

  /// Parses a tag value; nil unless it is exactly `cairn/v1/run/<a valid run id>`.
  package init?(value: String) {
    guard value.hasPrefix(Self.prefix),
      let runID = RunID(String(value.dropFirst(Self.prefix.count)))
    else { return nil }
    self.runID = runID
  }

  /// The tag's full value, as `PUT /api/tags` takes it.
  package var value: String { Self.prefix + runID.description }

  package var description: String { value }
}

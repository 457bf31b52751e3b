/// Which Immich release the double imitates. The 3.0 break changed error bodies, search
/// visibility defaults, `duration` types and the sync request types, so every difference is
/// keyed on this value.
package enum ImmichVersion: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  /// Reports 2.7.5, the last 2.x release.
  case v2_7 = "v2.7"
  /// Reports 3.1.0.
  case v3_1 = "v3.1"

  package var description: String { rawValue }

  var major: Int { self == .v2_7 ? 2 : 3 }
  var minor: Int { self == .v2_7 ? 7 : 1 }
  var patch: Int { self == .v2_7 ? 5 : 0 }
  var isV3: Bool { self == .v3_1 }

  /// The `version` string of `/server/about`, with its leading `v`.
  var aboutVersion: String { "v\(major).\(minor).\(patch)" }
}

/// Which Immich release the double imitates. The 3.0 break changed error bodies, search
/// visibility defaults, `duration` types and the sync request types; 3.2 added the structured
/// search and `GET /config`. Every difference is keyed on this value.
package enum ImmichVersion: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  /// Reports 2.7.5, the last 2.x release.
  case v2_7 = "v2.7"
  /// Reports 3.1.0.
  case v3_1 = "v3.1"
  /// Reports 3.2.0: structured search (`filter`, `orderBy`, `cursor`), `GET /config`, the flat
  /// search fields and `GET /server/config|features` deprecated but still answered.
  case v3_2 = "v3.2"

  package var description: String { rawValue }

  var major: Int { self == .v2_7 ? 2 : 3 }
  var minor: Int {
    switch self {
    case .v2_7: return 7
    case .v3_1: return 1
    case .v3_2: return 2
    }
  }
  var patch: Int { self == .v2_7 ? 5 : 0 }
  var isV3: Bool { major >= 3 }

  /// 3.2 added `filter`, `orderBy`, `cursor` and `nextCursor` to `POST /search/metadata`.
  var hasStructuredSearch: Bool { self == .v3_2 }

  /// 3.2 added `GET /config` (`userConfig.read`), where the trash settings now live.
  var hasUserConfig: Bool { self == .v3_2 }

  /// `3.2.0`, as `GET /server/version` spells it.
  package var number: String { "\(major).\(minor).\(patch)" }

  /// The `version` string of `/server/about`, with its leading `v`.
  var aboutVersion: String { "v\(number)" }
}

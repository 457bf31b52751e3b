/// Which Immich release the double imitates. The 3.0 break changed error bodies, search
/// visibility defaults, `duration` types and the sync request types; 3.2 added the structured
/// search and `GET /config`; 3.3 changed nothing cairn calls but grew the permission and sync
/// request type lists. Every difference is keyed on this value.
package enum ImmichVersion: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  /// Reports 2.7.5, the last 2.x release.
  case v2_7 = "v2.7"
  /// Reports 3.1.0.
  case v3_1 = "v3.1"
  /// Reports 3.2.0: structured search (`filter`, `orderBy`, `cursor`), `GET /config`, the flat
  /// search fields and `GET /server/config|features` deprecated but still answered.
  case v3_2 = "v3.2"
  /// Reports 3.3.0: as 3.2 for every endpoint cairn calls; new API-key permission strings and
  /// sync request types (docs/IMMICH-API.md §17).
  case v3_3 = "v3.3"

  package var description: String { rawValue }

  var major: Int { self == .v2_7 ? 2 : 3 }
  var minor: Int {
    switch self {
    case .v2_7: return 7
    case .v3_1: return 1
    case .v3_2: return 2
    case .v3_3: return 3
    }
  }
  var patch: Int { self == .v2_7 ? 5 : 0 }
  var isV3: Bool { major >= 3 }

  /// 3.2 added `filter`, `orderBy`, `cursor` and `nextCursor` to `POST /search/metadata`.
  package var hasStructuredSearch: Bool { isV3 && minor >= 2 }

  /// 3.2 added `GET /config` (`userConfig.read`), where the trash settings now live.
  var hasUserConfig: Bool { isV3 && minor >= 2 }

  /// 3.3 added API-key permissions (`apiKey.rotate`, `workflow.logs`, …) and sync request
  /// types (`AuthUsersV2`, `MemoriesV2`, `MemoryToAssetsV2`, `AssetFacesV3`).
  var has3_3Additions: Bool { isV3 && minor >= 3 }

  /// `3.3.0`, as `GET /server/version` spells it.
  package var number: String { "\(major).\(minor).\(patch)" }

  /// The `version` string of `/server/about`, with its leading `v`.
  var aboutVersion: String { "v\(number)" }
}

import CairnSettings
import CairnStream

/// Review inside Immich (`CAIRN_REVIEW_IN_IMMICH`, off by default): whether a run marks the
/// candidates that wait and reads the decisions tagged in Immich. The rule is the table's.
package enum ReviewInImmich {
  package static let setting = SettingsTable.reviewInImmich.key

  /// Whether the setting is on; a value other than on/off (or yes/no, true/false, 1/0) is a
  /// configuration error rather than a guess.
  package static func isOn(_ configuration: Configuration) throws(CairnError) -> Bool {
    try SettingsTable.reviewInImmich.value(in: configuration)
  }
}

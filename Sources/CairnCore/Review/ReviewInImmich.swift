import Foundation

/// `CAIRN_REVIEW_IN_IMMICH`: whether runs mark waiting candidates in Immich and read the
/// person's decision tags there. Off unless turned on.
package enum ReviewInImmich {
  package static let setting = "CAIRN_REVIEW_IN_IMMICH"

  /// Whether the setting is on; a value other than on/off (or yes/no, true/false, 1/0) is a
  /// configuration error rather than a guess.
  package static func isOn(_ configuration: Configuration) throws(CairnError) -> Bool {
    guard let text = configuration.string(setting) else { return false }
    switch text.trimmingCharacters(in: .whitespaces).lowercased() {
    case "on", "yes", "true", "1": return true
    case "off", "no", "false", "0": return false
    default:
      throw CairnError(
        .configuration, "\(setting)=\(text) is neither on nor off",
        at: configuration.origin(of: setting))
    }
  }
}

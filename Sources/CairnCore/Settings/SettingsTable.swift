/// Every setting a run's outcome depends on, each defined once (see `SettingRule`).
///
/// To add a setting: add a `static let` rule here (`wholeNumber`, `percentage`, `choice`, or a
/// `SettingRule` of its own for another kind of value), add its `entry` to `all`, read it with
/// `rule.value(in: configuration)` (or `value(flag:in:)` where a tool has a flag for it), and
/// give it an `.It Ev` paragraph in cairn(7)'s ENVIRONMENT that says `default` and the default:
/// `SettingsTableTests` holds the page to the table, and `cairn-fetch --check` reports every
/// setting of `all`.
package enum SettingsTable {
  package static let quarantineDays = SettingRule.wholeNumber(
    key: "CAIRN_QUARANTINE_DAYS", flag: "quarantine-days", label: "quarantine", range: 0...90,
    default: 14, unit: "days",
    meaning: "Days a confirmed deletion waits before it may be trashed (0 to 90)")

  package static let strictness = SettingRule<Strictness>.choice(
    key: "CAIRN_STRICTNESS", flag: "strictness", label: "strictness", default: .trusting,
    meaning: "trusting: unconfirmed deletions may be trashed; strict: they wait for review")

  package static let thresholdPercent = SettingRule.percentage(
    key: "CAIRN_THRESHOLD_PERCENT", flag: "threshold", label: "threshold", default: 1,
    of: "matched assets",
    meaning: "Most candidates one run may trash, as a percentage of matched assets")

  package static let floor = SettingRule.wholeNumber(
    key: "CAIRN_FLOOR", flag: "floor", label: "floor", range: 0...1_000_000, default: 5,
    unit: "candidates", meaning: "Plans with fewer candidates than this pass the threshold")

  /// The settings in the order `--check` reports them.
  package static let all: [SettingEntry] = [
    quarantineDays.entry, strictness.entry, thresholdPercent.entry, floor.entry,
  ]
}

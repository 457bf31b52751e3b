import ArgumentParser

/// The flags that override the reconciliation settings, shared by `cairn-reconcile` and
/// `cairn-gate` through `@OptionGroup`.
package struct SettingsOptions: ParsableArguments {
  @Option(
    name: .customLong("quarantine-days"),
    help: ArgumentHelp(
      "Days a confirmed deletion waits before it may be trashed (0-90; default 14, or "
        + "CAIRN_QUARANTINE_DAYS).", valueName: "days"))
  package var quarantineDays: Int?

  @Option(
    help: ArgumentHelp(
      "trusting: unconfirmed deletions may be trashed; strict: they wait for review "
        + "(default trusting, or CAIRN_STRICTNESS).", valueName: "mode"))
  package var strictness: String?

  @Option(
    name: .customLong("threshold"),
    help: ArgumentHelp(
      "Most candidates per run, as a percentage of matched assets (default 1, or "
        + "CAIRN_THRESHOLD_PERCENT).", valueName: "percent"))
  package var thresholdPercent: String?

  @Option(
    help: ArgumentHelp(
      "Candidates below this count pass the threshold (default 5, or CAIRN_FLOOR).",
      valueName: "count"))
  package var floor: Int?

  package init() {}

  /// The configuration's settings with these flags applied on top; an invalid value is a
  /// configuration error (exit 78).
  package func resolve(_ configuration: Configuration) throws(CairnError) -> ReconciliationSettings
  {
    var settings = try ReconciliationSettings(configuration)
    if let quarantineDays {
      guard ReconciliationSettings.quarantineRange.contains(quarantineDays) else {
        throw CairnError(
          .configuration, "--quarantine-days \(quarantineDays) is not a whole number from 0 to 90")
      }
      settings.quarantineDays = quarantineDays
    }
    if let strictness {
      guard let value = Strictness(rawValue: strictness.lowercased()) else {
        throw CairnError(.configuration, "--strictness \(strictness) is not 'trusting' or 'strict'")
      }
      settings.strictness = value
    }
    if let thresholdPercent {
      settings.thresholdPercent = try ReconciliationSettings.parsePercent(
        thresholdPercent, key: "--threshold")
    }
    if let floor {
      guard ReconciliationSettings.floorRange.contains(floor) else {
        throw CairnError(.configuration, "--floor \(floor) must not be negative")
      }
      settings.floor = floor
    }
    return settings
  }
}

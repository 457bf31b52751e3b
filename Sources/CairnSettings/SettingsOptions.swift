import ArgumentParser
import CairnStream

/// The flags that override what becomes a candidate, for `cairn-reconcile`: the stage that
/// decides it and records it in the state, which the stages after it check against.
package struct CandidateSettingsOptions: ParsableArguments {
  @Option(
    name: SettingsTable.quarantineDays.flagName,
    help: ArgumentHelp(SettingsTable.quarantineDays.help, valueName: "days"))
  package var quarantineDays: String?

  @Option(
    name: SettingsTable.strictness.flagName,
    help: ArgumentHelp(SettingsTable.strictness.help, valueName: "mode"))
  package var strictness: String?

  package init() {}

  /// The configuration's settings with these flags applied on top; an invalid value is a
  /// configuration error (exit 78).
  package func resolve(_ configuration: Configuration) throws(CairnError) -> ReconciliationSettings
  {
    var settings = try ReconciliationSettings(configuration)
    settings.quarantineDays = try SettingsTable.quarantineDays.value(
      flag: quarantineDays, in: configuration)
    settings.strictness = try SettingsTable.strictness.value(flag: strictness, in: configuration)
    return settings
  }
}

/// The flags that override the threshold rail for one run, for `cairn-gate`: the stage whose
/// rail it is. They are never read from a stream (a stream can be saved or forged); the gate
/// records the rail it passed a plan with, and `cairn-trash` re-runs that one.
package struct RailOptions: ParsableArguments {
  @Option(
    name: SettingsTable.thresholdPercent.flagName,
    help: ArgumentHelp(SettingsTable.thresholdPercent.help, valueName: "percent"))
  package var thresholdPercent: String?

  @Option(
    name: SettingsTable.floor.flagName,
    help: ArgumentHelp(SettingsTable.floor.help, valueName: "count"))
  package var floor: String?

  package init() {}

  /// Whether either flag was given.
  package var overrides: Bool { thresholdPercent != nil || floor != nil }

  /// The configuration's threshold and floor with these flags applied on top; an invalid
  /// value is a configuration error (exit 78).
  package func resolve(_ configuration: Configuration) throws(CairnError) -> RailSettings {
    RailSettings(
      thresholdPercent: try SettingsTable.thresholdPercent.value(
        flag: thresholdPercent, in: configuration),
      floor: try SettingsTable.floor.value(flag: floor, in: configuration))
  }
}

extension SettingRule {
  /// The flag as ArgumentParser names it (every rule used here has one).
  fileprivate var flagName: NameSpecification { .customLong(flag ?? key) }
}

import ArgumentParser

/// The flags that override what becomes a candidate, for `cairn-reconcile`: the stage that
/// decides it and records it in the state, which the stages after it check against.
package struct CandidateSettingsOptions: ParsableArguments {
  @Option(
    name: .customLong(SettingsTable.quarantineDays.flag),
    help: ArgumentHelp(SettingsTable.quarantineDays.help, valueName: "days"))
  package var quarantineDays: String?

  @Option(
    name: .customLong(SettingsTable.strictness.flag),
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
    name: .customLong(SettingsTable.thresholdPercent.flag),
    help: ArgumentHelp(SettingsTable.thresholdPercent.help, valueName: "percent"))
  package var thresholdPercent: String?

  @Option(
    name: .customLong(SettingsTable.floor.flag),
    help: ArgumentHelp(SettingsTable.floor.help, valueName: "count"))
  package var floor: String?

  package init() {}

  /// Whether either flag was given.
  package var overrides: Bool { thresholdPercent != nil || floor != nil }

  /// The configuration's threshold and floor with these flags applied on top; an invalid
  /// value is a configuration error (exit 78).
  package func resolve(_ configuration: Configuration) throws(CairnError) -> SafetyRails.Settings {
    SafetyRails.Settings(
      thresholdPercent: try SettingsTable.thresholdPercent.value(
        flag: thresholdPercent, in: configuration),
      floor: try SettingsTable.floor.value(flag: floor, in: configuration))
  }
}

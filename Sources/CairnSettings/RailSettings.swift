/// Threshold and floor (`CAIRN_THRESHOLD_PERCENT` and `CAIRN_FLOOR`, or cairn-gate's
/// `--threshold` and `--floor`; see `RailOptions`).
package struct RailSettings: Sendable, Equatable {
  /// Percent of matched assets one run may trash.
  package var thresholdPercent: Double
  /// Below this many candidates the threshold does not apply.
  package var floor: Int

  package init(
    thresholdPercent: Double = SettingsTable.thresholdPercent.fallback,
    floor: Int = SettingsTable.floor.fallback
  ) {
    self.thresholdPercent = thresholdPercent
    self.floor = floor
  }
}

import CairnStream
import Foundation

/// How strictly the engine treats a deletion nobody confirmed.
package enum Strictness: String, Sendable, CaseIterable {
  /// Past-quarantine confirmed deletions and unconfirmed ones may be trashed; quarantine alone
  /// is the safety window.
  case trusting
  /// As trusting, but a deletion without a positive signal waits for a person's review.
  case strict
}

/// The settings that decide what becomes a candidate and how many may go at once, each read
/// by its rule in `SettingsTable`.
package struct ReconciliationSettings: Sendable, Equatable {
  /// Days a confirmed deletion waits before it may be trashed.
  package var quarantineDays: Int
  package var strictness: Strictness
  /// The most candidates a run may trash, as a percentage of matched assets.
  package var thresholdPercent: Double
  /// Below this many candidates the threshold does not apply.
  package var floor: Int
  /// The age window: a gone photo taken more than this many days ago is kept on the server
  /// (bucket `kept`, reason `age-window`) unless a person approves it. Nil: no window.
  package var maxAgeDays: Int? = nil
  /// Parts of each root out of scope (`CAIRN_IGNORE_PATHS`): nothing last seen there is gone.
  package var ignoredPaths = IgnoredPaths.none

  package init(
    quarantineDays: Int = SettingsTable.quarantineDays.fallback,
    strictness: Strictness = SettingsTable.strictness.fallback,
    thresholdPercent: Double = SettingsTable.thresholdPercent.fallback,
    floor: Int = SettingsTable.floor.fallback
  ) {
    self.quarantineDays = quarantineDays
    self.strictness = strictness
    self.thresholdPercent = thresholdPercent
    self.floor = floor
  }

  package static let defaults = ReconciliationSettings()

  /// The settings in `configuration`, defaults where unset; an invalid value is a
  /// configuration error (exit 78) naming the key and where it came from.
  package init(_ configuration: Configuration) throws(CairnError) {
    self.init(
      quarantineDays: try SettingsTable.quarantineDays.value(in: configuration),
      strictness: try SettingsTable.strictness.value(in: configuration),
      thresholdPercent: try SettingsTable.thresholdPercent.value(in: configuration),
      floor: try SettingsTable.floor.value(in: configuration))
    maxAgeDays = try SettingsTable.maxAgeDays.value(in: configuration)
    ignoredPaths = try Self.ignoredPaths(configuration)
  }

  /// `CAIRN_IGNORE_PATHS`, for the stages that read only it (cairn-hash, cairn-trash).
  package static func ignoredPaths(_ configuration: Configuration) throws(CairnError)
    -> IgnoredPaths
  {
    try SettingsTable.ignoredPaths.value(in: configuration)
  }

  /// The threshold rail's part of the settings.
  package var rails: RailSettings {
    RailSettings(thresholdPercent: thresholdPercent, floor: floor)
  }
}

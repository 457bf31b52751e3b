import Foundation

/// How strictly the engine treats a deletion nobody confirmed.
package enum Strictness: String, Sendable, CaseIterable {
  /// Past-quarantine confirmed deletions and unconfirmed ones may be trashed; quarantine alone
  /// is the safety window.
  case trusting
  /// As trusting, but a deletion without a positive signal waits for a person's review.
  case strict
}

/// The settings that decide what becomes a candidate and how many may go at once.
///
/// Read from the configuration (`CAIRN_QUARANTINE_DAYS`, `CAIRN_STRICTNESS`,
/// `CAIRN_THRESHOLD_PERCENT`, `CAIRN_FLOOR`, `CAIRN_MAX_AGE_DAYS`, `CAIRN_IGNORE_PATHS`),
/// overridable by `SettingsOptions` flags (all but the last two).
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

  package static let quarantineRange = 0...90
  /// As the original app's setting: a month to ten years.
  package static let maxAgeRange = 30...3650
  package static let thresholdRange = 0.0...100.0
  package static let floorRange = 0...1_000_000

  package init(
    quarantineDays: Int = 14, strictness: Strictness = .trusting, thresholdPercent: Double = 1,
    floor: Int = 5
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
    self.init()
    quarantineDays = try configuration.integer(
      "CAIRN_QUARANTINE_DAYS", in: Self.quarantineRange, default: 14)
    if let text = configuration.string("CAIRN_STRICTNESS") {
      guard let value = Strictness(rawValue: text.lowercased()) else {
        throw CairnError(
          .configuration, "CAIRN_STRICTNESS=\(text) is not 'trusting' or 'strict'",
          at: configuration.origin(of: "CAIRN_STRICTNESS"))
      }
      strictness = value
    }
    if let text = configuration.string("CAIRN_THRESHOLD_PERCENT") {
      thresholdPercent = try Self.parsePercent(
        text, key: "CAIRN_THRESHOLD_PERCENT",
        at: configuration.origin(of: "CAIRN_THRESHOLD_PERCENT"))
    }
    floor = try configuration.integer("CAIRN_FLOOR", in: Self.floorRange, default: 5)
    maxAgeDays = try Self.maxAgeDays(configuration)
    ignoredPaths = try Self.ignoredPaths(configuration)
  }

  /// `CAIRN_IGNORE_PATHS`: globs separated by colons; a bad one is a configuration error
  /// (exit 78) naming where it came from.
  package static func ignoredPaths(_ configuration: Configuration) throws(CairnError)
    -> IgnoredPaths
  {
    let key = IgnoredPaths.setting
    guard let text = configuration.string(key) else { return .none }
    do {
      return try IgnoredPaths(text.split(separator: ":").map(String.init))
    } catch {
      throw CairnError(
        .configuration, "\(key): '\(error.pattern)' could reach outside its root (no . or ..)",
        at: configuration.origin(of: key))
    }
  }

  /// `CAIRN_MAX_AGE_DAYS`: unset (or empty) is no window; otherwise a whole number of days
  /// within `maxAgeRange`.
  package static func maxAgeDays(_ configuration: Configuration) throws(CairnError) -> Int? {
    let key = "CAIRN_MAX_AGE_DAYS"
    guard let text = configuration.string(key), !text.trimmingCharacters(in: .whitespaces).isEmpty
    else { return nil }
    return try configuration.integer(key, in: maxAgeRange, default: maxAgeRange.lowerBound)
  }

  /// A percentage from 0 to 100, with or without a trailing `%`.
  package static func parsePercent(_ text: String, key: String, at origin: String? = nil)
    throws(CairnError) -> Double
  {
    var trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.hasSuffix("%") { trimmed.removeLast() }
    guard let value = Double(trimmed), value.isFinite, thresholdRange.contains(value) else {
      throw CairnError(
        .configuration, "\(key)=\(text) is not a percentage from 0 to 100", at: origin)
    }
    return value
  }
}

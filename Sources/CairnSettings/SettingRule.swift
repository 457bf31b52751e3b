import CairnStream
import Foundation

/// One setting's rule, written once: the configuration key, the flag that overrides it for one
/// run, the default, which values it takes and how they parse, and what it means. Reading the
/// configuration, the flag, `cairn-fetch check`'s report and every error message about the
/// setting go through here, so they cannot drift apart.
package struct SettingRule<Value: Sendable & Equatable>: Sendable {
  /// The configuration key, `CAIRN_FLOOR`.
  package let key: String
  /// The long flag that overrides the key for one run, without its dashes (`floor`); nil for
  /// a setting no tool has a flag for.
  package let flag: String?
  /// What `check` calls the setting (`floor`).
  package let label: String
  package let fallback: Value
  /// One line on what the setting decides, as help and documentation say it.
  package let meaning: String
  /// What a valid value is, as an error message says it: `a whole number from 0 to 90`.
  package let expected: String
  /// The text after `default` in help and in cairn(7): `14`, `trusting`.
  package let fallbackText: String
  /// The value `text` gives, with where a path in it is found from (see `PathBase`).
  private let read: @Sendable (String, PathBase) -> Value?
  private let show: @Sendable (Value) -> String
  /// A default that follows from another setting (`CAIRN_SETTLE_WAIT`'s from the request
  /// timeout); `fallback` is then its value when that setting is unset too.
  private var derive: (@Sendable (Configuration) throws(CairnError) -> Value)? = nil

  package init(
    key: String, flag: String?, label: String, fallback: Value, meaning: String,
    expected: String, read: @escaping @Sendable (String) -> Value?,
    show: @escaping @Sendable (Value) -> String, fallbackText: String? = nil
  ) {
    self.init(
      key: key, flag: flag, label: label, fallback: fallback, meaning: meaning, expected: expected,
      readPaths: { text, _ in read(text) }, show: show, fallbackText: fallbackText)
  }

  /// A rule whose values name files or folders: `read` is given where a relative path in the
  /// text is found.
  package init(
    key: String, flag: String?, label: String, fallback: Value, meaning: String,
    expected: String, readPaths: @escaping @Sendable (String, PathBase) -> Value?,
    show: @escaping @Sendable (Value) -> String, fallbackText: String? = nil
  ) {
    self.key = key
    self.flag = flag
    self.label = label
    self.fallback = fallback
    self.meaning = meaning
    self.expected = expected
    self.read = readPaths
    self.show = show
    self.fallbackText = fallbackText ?? "\(fallback)"
  }

  /// `text` as this setting's value; otherwise a configuration error (exit 78) that names
  /// where the text was given: the key (`CAIRN_FLOOR=x`) or, with `flag`, the flag
  /// (`--floor x`). A path in `text` is found from `base`, this process's by default.
  package func parse(
    _ text: String, fromFlag: Bool = false, at origin: String? = nil, base: PathBase? = nil
  ) throws(CairnError) -> Value {
    guard let value = read(text.trimmingCharacters(in: .whitespaces), base ?? .process) else {
      let given = fromFlag ? "--\(flag ?? key) \(text)" : "\(key)=\(text)"
      throw CairnError(.configuration, "\(given) is not \(expected)", at: origin)
    }
    return value
  }

  /// The configuration's value, or the default when the key is unset.
  package func value(in configuration: Configuration) throws(CairnError) -> Value {
    guard let text = configuration.string(key) else {
      return try derive?(configuration) ?? fallback
    }
    return try parse(
      text, at: configuration.origin(of: key), base: configuration.pathBase(of: key))
  }

  /// This rule with a default that follows from the rest of the configuration, described in
  /// help and documentation as `text` (`the request timeout plus 5`).
  package func deriving(
    _ text: String, _ derive: @escaping @Sendable (Configuration) throws(CairnError) -> Value
  ) -> Self {
    var rule = SettingRule(
      key: key, flag: flag, label: label, fallback: fallback, meaning: meaning,
      expected: expected, readPaths: read, show: show, fallbackText: text)
    rule.derive = derive
    return rule
  }

  /// The value a run uses: the flag's, when it was given, over the configuration's.
  package func value(flag text: String?, in configuration: Configuration) throws(CairnError)
    -> Value
  {
    if let text { return try parse(text, fromFlag: true) }
    return try value(in: configuration)
  }

  /// The value as `check` prints it: `floor: 5 candidates`.
  package func describe(_ value: Value) -> String { "\(label): \(show(value))" }

  /// The flag's help: the meaning, then the default and the key it overrides.
  package var help: String { "\(meaning) (default \(fallbackText), or \(key))." }

  /// The rule without its value type, for the list of every setting.
  package var entry: SettingEntry {
    SettingEntry(
      key: key, flag: flag, meaning: meaning, fallbackText: fallbackText,
      report: { configuration throws(CairnError) in describe(try value(in: configuration)) })
  }
}

/// A setting of the table whatever its value type: what the man page test and `check`
/// need.
package struct SettingEntry: Sendable {
  package let key: String
  package let flag: String?
  package let meaning: String
  package let fallbackText: String
  /// `check`'s line for the value in force, or the error every stage would stop with.
  package let report: @Sendable (Configuration) throws(CairnError) -> String
}

extension SettingRule where Value == Int {
  /// A whole number within `range`.
  package static func wholeNumber(
    key: String, flag: String? = nil, label: String, range: ClosedRange<Int>,
    default fallback: Int, fallbackText: String? = nil, unit: String, meaning: String
  ) -> Self {
    SettingRule(
      key: key, flag: flag, label: label, fallback: fallback, meaning: meaning,
      expected: "a whole number from \(range.lowerBound) to \(range.upperBound)",
      read: { Int($0).flatMap { range.contains($0) ? $0 : nil } },
      show: { "\($0) \(unit)" }, fallbackText: fallbackText)
  }
}

extension SettingRule where Value == Double {
  /// A percentage from 0 to 100, with or without a trailing `%`.
  package static func percentage(
    key: String, flag: String, label: String, default fallback: Double, of whole: String,
    meaning: String
  ) -> Self {
    SettingRule(
      key: key, flag: flag, label: label, fallback: fallback, meaning: meaning,
      expected: "a percentage from 0 to 100",
      read: { text in
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        return Double(number).flatMap { $0.isFinite && (0...100).contains($0) ? $0 : nil }
      },
      show: { "\(formatPercent($0))% of \(whole)" }, fallbackText: formatPercent(fallback))
  }

  /// `1`, not `1.0`; `2.5` as it is.
  package static func formatPercent(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
  }
}

extension SettingRule where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// One of a few words, in any case.
  package static func choice(
    key: String, flag: String, label: String, default fallback: Value, meaning: String
  ) -> Self {
    let words = Value.allCases.map { "'\($0.rawValue)'" }
    return SettingRule(
      key: key, flag: flag, label: label, fallback: fallback, meaning: meaning,
      expected: words.dropLast().joined(separator: ", ") + " or " + (words.last ?? ""),
      read: { Value(rawValue: $0.lowercased()) }, show: { $0.rawValue },
      fallbackText: fallback.rawValue)
  }
}

extension SettingRule where Value == [String] {
  /// Folders separated by colons, made absolute once by `FolderList` (`~` is the home
  /// folder); none by default.
  package static func folders(
    key: String, label: String, meaning: String,
    describe: @escaping @Sendable ([String]) -> String = {
      $0.isEmpty ? "none" : $0.joined(separator: ", ")
    }
  ) -> Self {
    SettingRule(
      key: key, flag: nil, label: label, fallback: [], meaning: meaning,
      expected: "folders separated by colons (a ~name/ folder needs a user of that name)",
      readPaths: { text, base in FolderList.folders(in: text, base: base) },
      show: describe, fallbackText: "none")
  }
}

extension SettingRule where Value == Bool {
  /// On or off (also yes/no, true/false, 1/0), in any case: anything else is refused rather
  /// than guessed.
  package static func onOff(
    key: String, label: String, default fallback: Bool, meaning: String,
    describe: @escaping @Sendable (Bool) -> String = { $0 ? "on" : "off" }
  ) -> Self {
    SettingRule(
      key: key, flag: nil, label: label, fallback: fallback, meaning: meaning,
      expected: "on or off",
      read: { text in
        switch text.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: return nil
        }
      },
      show: describe, fallbackText: fallback ? "on" : "off")
  }
}

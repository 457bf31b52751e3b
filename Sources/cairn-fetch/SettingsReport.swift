import CairnCore

/// `--check`'s account of the settings a run would use and where each came from, so a person
/// can see why a run behaves as it does (a value left in a forgotten `.env`, say).
enum SettingsReport {
  /// One setting: what `--check` prints after its mark.
  struct Line: Equatable {
    let text: String
    let valid: Bool
  }

  /// The settings in force, each as `name: value (from origin)` or `(default)`; an invalid
  /// value is a line of its own that says so, as every stage would refuse it (exit 78).
  static func lines(_ configuration: Configuration) -> [Line] {
    typealias Settings = ReconciliationSettings
    var lines: [Line] = []
    // Each key is read alone, with the parser the stages use, so one bad value does not hide
    // the others.
    func add(_ key: String, _ describe: () throws(CairnError) -> String) {
      let origin = configuration.origin(of: key).map { "from \($0)" } ?? "default"
      do {
        lines.append(Line(text: try describe() + " (\(origin))", valid: true))
      } catch {
        lines.append(Line(text: "\(error.message) (\(origin))", valid: false))
      }
    }
    add("CAIRN_QUARANTINE_DAYS") { () throws(CairnError) in
      let days = try configuration.integer(
        "CAIRN_QUARANTINE_DAYS", in: Settings.quarantineRange,
        default: Settings.defaults.quarantineDays)
      return "quarantine: \(days) days"
    }
    add("CAIRN_STRICTNESS") { () throws(CairnError) in
      let text = configuration.string("CAIRN_STRICTNESS") ?? Settings.defaults.strictness.rawValue
      guard let value = Strictness(rawValue: text.lowercased()) else {
        throw CairnError(.configuration, "CAIRN_STRICTNESS=\(text) is not 'trusting' or 'strict'")
      }
      return "strictness: \(value.rawValue)"
    }
    add("CAIRN_THRESHOLD_PERCENT") { () throws(CairnError) in
      var value = Settings.defaults.thresholdPercent
      if let text = configuration.string("CAIRN_THRESHOLD_PERCENT") {
        value = try Settings.parsePercent(text, key: "CAIRN_THRESHOLD_PERCENT")
      }
      return "threshold: \(percent(value))% of matched assets"
    }
    add("CAIRN_FLOOR") { () throws(CairnError) in
      let floor = try configuration.integer(
        "CAIRN_FLOOR", in: Settings.floorRange, default: Settings.defaults.floor)
      return "floor: \(floor) candidates"
    }
    add("CAIRN_MAX_AGE_DAYS") { () throws(CairnError) in
      guard let days = try Settings.maxAgeDays(configuration) else { return "age window: off" }
      return "age window: photos taken more than \(days) days ago are kept"
    }
    add(IgnoredPaths.setting) { () throws(CairnError) in
      let ignored = try Settings.ignoredPaths(configuration)
      guard !ignored.isEmpty else { return "ignored paths: none" }
      return "ignored paths: \(ignored.patterns.joined(separator: ", "))"
    }

    var trash = "trash folders: the freedesktop.org Trash, .stversions and .dtrash in each root"
    #if os(macOS)
      trash += ", ~/.Trash"
    #endif
    if let extra = configuration.string("CAIRN_TRASH_FOLDERS") {
      let origin = configuration.origin(of: "CAIRN_TRASH_FOLDERS") ?? "?"
      trash += "; and \(extra.split(separator: ":").joined(separator: ", ")) (from \(origin))"
    } else {
      trash += " (built in; add more with CAIRN_TRASH_FOLDERS)"
    }
    lines.append(Line(text: trash, valid: true))
    return lines
  }

  private static func percent(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}

extension Checker {
  /// Prints the settings after the server checks; an invalid one fails the check (exit 78).
  func reportSettings(_ tally: Tally, _ status: ExitStatus) -> ExitStatus {
    var status = status
    for setting in SettingsReport.lines(configuration) {
      line(setting.valid ? .note : .fail, setting.text, tally)
      if !setting.valid && status == .success { status = .configuration }
    }
    return status
  }
}

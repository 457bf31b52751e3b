import CairnSettings
import CairnStream
import CairnSupport

/// `cairn-fetch check`'s account of the settings a run would use and where each came from, so a person
/// can see why a run behaves as it does (a value left in a forgotten `.env`, say).
enum SettingsReport {
  /// One setting: what `check` prints after its mark.
  struct Line: Equatable {
    let text: String
    let valid: Bool
  }

  /// The settings in force, each as `name: value (from origin)` or `(default)`; an invalid
  /// value is a line of its own that says so, as every stage would refuse it (exit 78).
  static func lines(_ configuration: Configuration) -> [Line] {
    // Each setting is read alone, with the rule the stages use, so one bad value does not
    // hide the others.
    SettingsTable.all.map { setting -> Line in
      let origin = configuration.origin(of: setting.key).map { "from \($0)" } ?? "default"
      do throws(CairnError) {
        return Line(text: try setting.report(configuration) + " (\(origin))", valid: true)
      } catch {
        return Line(text: "\(error.message) (\(origin))", valid: false)
      }
    }
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
    reportNotifications(tally)
    return status
  }
}

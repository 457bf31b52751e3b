import ArgumentParser
import CairnRuns

/// The check every run id a person types gets before anything is read (cairn-restore
/// `--run-id` and `show`, cairn-tag `show`): a usage error naming the shape.
package enum RunIDArgument {
  package static func validate(_ text: String) throws {
    if RunID(text) == nil {
      throw ValidationError("\(text) is not a cairn run id (like 2026-11-22T10:15:00Z-3F2A9C1B)")
    }
  }
}

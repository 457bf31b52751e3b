import CairnRecords
import CairnSettings
import CairnSupport
import Foundation

/// The Immich releases cairn is tested against, and the warning for a server that is newer.
///
/// Immich deprecates before it removes (3.2 deprecated the flat search that cairn used, for
/// removal in 4): a newer server usually still works, but nobody has checked that it does, so
/// the user is told — once per new version, not on every nightly run.
package enum TestedVersions {
  /// The newest release cairn's end-to-end suites ran against (the test double models 3.3.0;
  /// 3.3.1 changed nothing cairn uses, docs/IMMICH-API.md §17). Raise it with the tests.
  package static let newest = ServerVersion(major: 3, minor: 3, patch: 1)

  /// The oldest release cairn knows.
  package static let oldest = ServerVersion(major: 2, minor: 7, patch: 0)

  /// The warning for `version`, or nil when it is not newer than `newest`.
  package static func newerWarning(_ version: ServerVersion) -> String? {
    guard newest < version else { return nil }
    return "Immich \(version) is newer than \(newest), the newest version cairn was tested"
      + " with: it probably works (Immich deprecates before it removes), but check the"
      + " results and look for a newer cairn"
  }
}

/// Remembers, in the partition's state folder, the last server version a newer-than-tested
/// warning was given for, so each new version is announced once.
package enum NewerVersionNotice {
  package static func path(_ paths: CairnPaths, _ partition: ServerPartition) -> String {
    paths.newerVersionWarned(partition)
  }

  /// The warning to give now for `version`, or nil when there is none or it was given
  /// before; a warning returned is remembered as given.
  package static func take(
    _ version: ServerVersion, _ paths: CairnPaths, _ partition: ServerPartition
  ) -> String? {
    guard let warning = TestedVersions.newerWarning(version) else { return nil }
    let file = path(paths, partition)
    let last = FileManager.default.contents(atPath: file).flatMap {
      String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard last != version.description else { return nil }
    do {
      try CairnPaths.makePrivateDirectory(paths.partitionDirectory(partition))
      try CairnPaths.writePrivateFile(
        file, Array((version.description + "\n").utf8), durable: false)
    } catch {
      // Unremembered, the warning comes again next time: better than never.
      Diagnostics.verbose("cannot remember the newer-version warning: \(error.description)")
    }
    return warning
  }
}

import CairnHashing
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// `accept-lost-mount PATH` and `forget-mounts PATH…`: the explicit, separate act that
/// lets photos last seen on an absent volume be judged deleted. It states what it will do
/// before it asks, and it asks unless `--yes` said yes beforehand.
struct LostMountAcceptance {
  let memoryPath: String
  /// `--yes`.
  let confirmed: Bool

  /// `accept-lost-mount PATH` (and its older spelling, `olderSpelling`), run as a tool run
  /// that writes no records.
  static func accept(
    at path: String, confirmed: Bool, olderSpelling: String? = nil, _ common: CommonOptions
  ) async throws {
    let piped = olderSpelling != nil && OlderSpellingInPipe.outputIsPiped
    try await Tool.run(CairnHash.self, common, writesRecords: piped) {
      let status = try LostMountAcceptance(
        memoryPath: CairnPaths().scanMounts, confirmed: confirmed
      )
      .accept(at: RootPath.absolute(path))
      if piped, let olderSpelling {
        throw OlderSpellingInPipe.error(olderSpelling, now: "accept-lost-mount")
      }
      return status
    }
  }

  /// `forget-mounts PATH…` (and its older spelling, `olderSpelling`): the roots as cairn-hash
  /// reads them.
  static func acceptAll(
    under paths: [String], nullSeparated: Bool, confirmed: Bool, olderSpelling: String? = nil,
    _ common: CommonOptions
  ) async throws {
    let piped = olderSpelling != nil && OlderSpellingInPipe.outputIsPiped
    try await Tool.run(CairnHash.self, common, writesRecords: piped) {
      let roots = try HashFiles.inputRoots(paths, nullSeparated: nullSeparated)
      let status = try LostMountAcceptance(
        memoryPath: CairnPaths().scanMounts, confirmed: confirmed
      )
      .acceptAll(under: roots.map(\.path))
      if piped, let olderSpelling {
        throw OlderSpellingInPipe.error(olderSpelling, now: "forget-mounts")
      }
      return status
    }
  }

  /// Accepts the absence at `path`, under whichever remembered roots hold it.
  func accept(at path: String) throws(CairnError) -> ExitStatus {
    let roots = MountAcceptance.roots(holding: path, memoryPath: memoryPath)
    guard !roots.isEmpty else {
      throw CairnError(.usage, "no scanned root holds this path; nothing to accept", at: path)
    }
    let acceptance = MountAcceptance(memoryPath: memoryPath, roots: roots)
    let found = acceptance.absences().filter { $0.path == path }
    guard !found.isEmpty else {
      Diagnostics.info(
        "\(path): nothing to accept: no volume here is away or replaced since the last scan")
      return .success
    }
    return try confirmAndAccept(found, acceptance)
  }

  /// Accepts every absence under `roots` (`forget-mounts`).
  func acceptAll(under roots: [String]) throws(CairnError) -> ExitStatus {
    let acceptance = MountAcceptance(memoryPath: memoryPath, roots: roots)
    let found = acceptance.absences()
    guard !found.isEmpty else {
      Diagnostics.info("nothing to accept: no volume is away or replaced since the last scan")
      return .success
    }
    return try confirmAndAccept(found, acceptance)
  }

  /// Prints each statement (once per place, though nested roots may both remember it), asks,
  /// and writes the acceptance.
  private func confirmAndAccept(
    _ found: [VolumeAbsence], _ acceptance: MountAcceptance
  ) throws(CairnError) -> ExitStatus {
    var stated = Set<String>()
    for absence in found where stated.insert(absence.path).inserted {
      // Not silenced by -q: this is what the person is agreeing to.
      Diagnostics.emit(absence.acceptanceStatement, at: absence.path, color: "33")
    }
    if !confirmed {
      let question =
        stated.count == 1 ? "Accept this change?" : "Accept these \(stated.count) changes?"
      guard Terminal.open()?.confirm(question) == true else {
        throw CairnError.refused(
          "not accepted, nothing was changed (it asks on the terminal; --yes accepts without "
            + "asking)")
      }
    }
    try acceptance.accept(found)
    Diagnostics.info(
      "accepted \(stated.count) change\(stated.count == 1 ? "" : "s"); the next scan judges "
        + "what is there now")
    return .success
  }
}

/// An older spelling of an acceptance whose output goes to another stage: once it scanned as
/// well, and `cairn-hash --forget-mounts ROOT | cairn-reconcile …` fed the next stage. Now it
/// only accepts and writes no records, so the next stage would stop at an empty stream without
/// a word about why. After the acceptance (which is what the words mean now, asked and stated
/// as ever) the run says what they mean and ends the stream with an `abort` record, so the
/// pipeline stops with the usage status and this reason.
enum OlderSpellingInPipe {
  /// Whether standard output is a pipe or a socket: another stage reads it. (A file or
  /// /dev/null is a script's choice to drop it.)
  static var outputIsPiped: Bool {
    var s = stat()
    guard fstat(1, &s) == 0 else { return false }
    let kind = s.st_mode & S_IFMT
    return kind == S_IFIFO || kind == S_IFSOCK
  }

  static func error(_ older: String, now subcommand: String) -> CairnError {
    CairnError(
      .usage,
      "\(older) is now `cairn-hash \(subcommand)`: it accepted, scanned nothing and wrote no "
        + "records for the next stage; scan with `cairn-hash PATH…` in a run of its own")
  }
}

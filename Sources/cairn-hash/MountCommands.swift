import ArgumentParser
import CairnRecords
import CairnTool

/// `cairn-hash accept-lost-mount PATH`: one volume away or replaced is accepted as meant.
struct AcceptLostMount: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accept-lost-mount",
    abstract: "Accept that the volume last seen at a mount point is gone or replaced",
    discussion: """
      Accept that the volume last seen at this mount point (or root) is gone for good, or that \
      the one there now replaces it. Says first what that does: the photos the old volume \
      held that are nowhere else become candidates for Immich's trash. Asks, unless --yes. \
      Scans nothing.
      """)

  @OptionGroup var common: CommonOptions

  @Argument(
    help: ArgumentHelp("The mount point (or root) the volume was last seen at.", valueName: "path"),
    completion: .directory)
  var path: String

  @OptionGroup var confirmation: Confirmation

  func run() async throws {
    try await LostMountAcceptance.accept(at: path, confirmed: confirmation.yes, common)
  }
}

/// `cairn-hash forget-mounts PATH…`: every volume away or replaced under the paths.
struct ForgetMounts: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forget-mounts",
    abstract: "Accept every volume away or replaced under each path",
    discussion: """
      Accept every volume away or replaced under each PATH, as accept-lost-mount does for \
      one: their photos that are nowhere else become candidates for Immich's trash. Says so \
      and asks first, unless --yes. Scans nothing. The paths are read as cairn-hash reads \
      them: `-` or none reads them from stdin, and at a terminal none means CAIRN_LIBRARY.
      """)

  @OptionGroup var common: CommonOptions

  @Argument(
    help: ArgumentHelp("Roots to accept every change under.", valueName: "path"),
    completion: .file())
  var paths: [String] = []

  @Flag(
    name: [.customShort("0"), .customLong("null")],
    help: "Paths read from stdin are separated by NUL, as `find -print0` writes them.")
  var nullSeparated = false

  @OptionGroup var confirmation: Confirmation

  func run() async throws {
    try await LostMountAcceptance.acceptAll(
      under: paths, nullSeparated: nullSeparated, confirmed: confirmation.yes, common)
  }
}

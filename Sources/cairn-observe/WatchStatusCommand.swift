import ArgumentParser
import CairnTool

/// `cairn-observe watch status`: a question about the watcher, asked instead of watching.
struct WatchStatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Say whether a watcher runs (pid), its roots, last event and recent gaps")

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  func run() async throws { try await Self.report(partition, common) }

  /// The report, for `watch status` and its older spelling `watch --status`.
  static func report(_ partition: PartitionOptions, _ common: CommonOptions) async throws {
    try await Tool.run(CairnObserve.self, common, writesRecords: false) {
      try WatchStatus.print(partition, common)
      return .success
    }
  }
}

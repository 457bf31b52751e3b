import ArgumentParser
import CairnReconcile
import CairnRecords
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// Opens the partition named by `--server FILE` or `cairn-fetch identity`.
func openStore(_ options: PartitionOptions, _ common: CommonOptions) throws(CairnError)
  -> (PartitionStore, Configuration)
{
  let configuration = try Configuration.load()
  let identity = try ListingInput.identity(
    serverFile: options.serverFile,
    fetchArguments: common.forwarded)
  return (try PartitionStore.open(identity.partition, paths: configuration.paths), configuration)
}

/// A checksum given as base64, hex, or the path of a file (its remembered checksums, or its
/// bytes when the store never saw it there).
/// Every checksum the arguments name, in order (see the single-argument form).
func resolveChecksums(_ arguments: [String], store: PartitionStore, configuration: Configuration)
  throws(CairnError) -> [String]
{
  var checksums: [String] = []
  for argument in arguments {
    checksums += try resolveChecksums(argument, store: store, configuration: configuration)
  }
  return checksums
}

func resolveChecksums(_ argument: String, store: PartitionStore, configuration: Configuration)
  throws(CairnError) -> [String]
{
  if let checksum = ChecksumText.normalize(argument) { return [checksum] }
  // Cleaned as the library's roots are, so the path reads as the records spell it.
  let path = FolderList.absolute(argument, from: FileManager.default.currentDirectoryPath)
  let remembered = try store.observed.checksums(atPath: path)
  if !remembered.isEmpty { return remembered }
  if FileManager.default.fileExists(atPath: path) {
    let hasher = TrashHasher(paths: configuration.paths)
    defer { hasher.finish() }
    if let checksum = hasher.checksum(path) { return [checksum] }
  }
  throw CairnError(
    .usage, "not a checksum (base64 or hex), and no file or remembered path", at: argument)
}

struct Exclude: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "exclude",
    abstract: "Protect checksums from ever being trashed",
    discussion: "Exclusions survive 'cairn-observe reset'. Lift one with 'cairn-observe include'.")

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  @Option(help: "Why, for the record.")
  var reason = "excluded by hand"

  @Argument(help: "Checksums (base64 or hex) or paths of files.", completion: .file())
  var items: [String]

  func run() async throws {
    try await Tool.run(CairnObserve.self, common, writesRecords: false) {
      let (store, configuration) = try openStore(partition, common)
      defer { store.close() }
      let checksums = try resolveChecksums(items, store: store, configuration: configuration)
      let added = try store.exclusions.add(checksums, reason: reason, at: Date())
      Diagnostics.info("excluded \(added) new checksum(s) (\(checksums.count) given)")
      return .success
    }
  }
}

struct Include: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "include",
    abstract: "Lift exclusions, so the checksums are reconciled again")

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  @Argument(help: "Checksums (base64 or hex) or paths of files.", completion: .file())
  var items: [String]

  func run() async throws {
    try await Tool.run(CairnObserve.self, common, writesRecords: false) {
      let (store, configuration) = try openStore(partition, common)
      defer { store.close() }
      let checksums = try resolveChecksums(items, store: store, configuration: configuration)
      let removed = try store.exclusions.remove(checksums)
      Diagnostics.info("lifted \(removed) exclusion(s)")
      return .success
    }
  }
}

struct Import: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Add a list of checksums as observed or as exclusions",
    discussion: """
      The list holds one checksum per line: sha1sum output (hex, then the file name) or \
      base64. Imported observations belong to no root, so they never make anything gone by \
      themselves; a later scan that sees them puts them in its scope.
      """)

  enum Kind: String, ExpressibleByArgument, CaseIterable {
    case observed, exclusions
  }

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  @Option(name: .customLong("as"), help: "What the checksums become: observed or exclusions.")
  var kind: Kind = .observed

  @Option(help: "Why, for exclusions.")
  var reason = "imported"

  @Argument(help: "The list ('-' for standard input).", completion: .file())
  var file: String

  private func parse(_ text: String) throws(CairnError) -> [String] {
    do {
      return try ChecksumText.parseList(text)
    } catch {
      throw CairnError(
        .malformedInput, "not a checksum (hex or base64): \(error.text)",
        at: "\(file == "-" ? "<stdin>" : file):\(error.line)")
    }
  }

  func run() async throws {
    try await Tool.run(CairnObserve.self, common, writesRecords: false) {
      let text: String
      if file == "-" {
        text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
      } else {
        guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
          throw CairnError(.usage, "cannot read the list", at: file)
        }
        text = contents
      }
      let checksums = try parse(text)
      let (store, _) = try openStore(partition, common)
      defer { store.close() }
      let added: Int
      switch kind {
      case .observed: added = try store.observed.importChecksums(checksums, at: Date())
      case .exclusions: added = try store.exclusions.add(checksums, reason: reason, at: Date())
      }
      Diagnostics.info(
        "imported \(added) new checksum(s) as \(kind.rawValue) (\(checksums.count) read)")
      return .success
    }
  }
}

struct Reset: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reset",
    abstract: "Forget every observation of the partition (exclusions stay)",
    discussion: """
      Forgets observed checksums, their paths, first-missing times, deletion signals and edit \
      anchors. Exclusions, approvals and run history stay. The next scan seeds the store \
      afresh and flags nothing. Asks on the terminal unless --yes is given.
      """)

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  @OptionGroup var confirmation: Confirmation

  func run() async throws {
    try await Tool.run(CairnObserve.self, common, writesRecords: false) {
      let (store, _) = try openStore(partition, common)
      defer { store.close() }
      let count = try store.observed.count()
      if !confirmation.yes {
        let question =
          "Forget \(count) observed checksum(s) of \(store.partition)? Exclusions are kept."
        guard Terminal.open()?.confirm(question) == true else {
          throw CairnError.refused(
            "reset not confirmed (it asks on the terminal; --yes skips the question)")
        }
      }
      try store.observed.reset()
      Diagnostics.info("forgot \(count) observed checksum(s); exclusions kept")
      return .success
    }
  }
}

import ArgumentParser
import CairnHashing
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import CairnTool
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

struct CairnHash: CairnCommand {
  static let configuration = CommandConfiguration(
    commandName: "cairn-hash",
    abstract: "Identify every media file of a library by the SHA-1 Immich uses",
    discussion: """
      Walks each PATH (files and folders, recursively; symbolic links inside folders are not \
      followed) and writes one `file` record per media file, with its SHA-1 in base64 (Immich's \
      `checksum`), between a `header` and an `end` record. Without PATH, or with `-`, paths \
      are read from stdin, one per line (NUL-separated with --null); when stdin is a terminal, \
      PATH defaults to CAIRN_LIBRARY (colon-separated) from the configuration or --profile.

      Unchanged files are not read again: checksums are remembered in a cache under \
      $XDG_CACHE_HOME/cairn. Trash folders (.Trash, .Trash-*, .stversions, .dtrash, @Recycle, \
      #recycle) and junk (@eaDir, .DS_Store, ._*, Thumbs.db) are skipped.

      A volume under a PATH that is away, or replaced by another, since the last scan puts its \
      folder out of scope: nothing last seen there is judged deleted, while the rest of the PATH \
      is. 'cairn-hash accept-lost-mount PATH' accepts such a change, after saying what it does; \
      'cairn-hash forget-mounts PATH…' accepts every such change under the paths.

      Exit status: 0 all read; 1 some paths missing or unreadable (see the error records); \
      25 an acceptance not confirmed; 64 usage; 78 configuration unreadable (at a terminal \
      without PATH); 141 output pipe closed.
      """,
    version: CairnVersion.current,
    subcommands: [HashFiles.self, AcceptLostMount.self, ForgetMounts.self],
    defaultSubcommand: HashFiles.self)
}

/// cairn-hash's main job, run when no other subcommand is named: the scan.
struct HashFiles: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hash",
    abstract: "Write a file record with the SHA-1 of every media file under the paths",
    usage: """
      cairn-hash [<options>] [<path> ...]
      cairn-hash <subcommand> [<arguments>]
      """,
    shouldDisplay: false)

  @Argument(
    help: ArgumentHelp(
      "Files or folders to scan; `-` reads a list of paths from stdin.",
      valueName: "path"),
    completion: .file())
  var paths: [String] = []

  @Flag(
    name: [.customShort("0"), .customLong("null")],
    help: "Paths read from stdin are separated by NUL, as `find -print0` writes them.")
  var nullSeparated = false

  @Flag(
    name: .customLong("all-files"),
    help: "Hash every regular file, not only the image and video types Immich accepts.")
  var allFiles = false

  /// The older spelling of `--all-files`, kept working and hidden from help: cairn-gate's
  /// `--all` lists every item of its preview, a meaning of its own.
  @Flag(name: .customLong("all"), help: .hidden)
  var all = false

  @Flag(
    name: .customLong("no-cache"),
    help: "Neither read nor update the hash cache: read every file.")
  var noCache = false

  /// The older spellings of `accept-lost-mount PATH` and `forget-mounts PATH…`, kept working
  /// and hidden from help.
  @Option(name: .customLong("accept-lost-mount"), help: .hidden, completion: .directory)
  var acceptLostMount: String?
  @Flag(name: .customLong("forget-mounts"), help: .hidden)
  var forgetMounts = false
  @Flag(help: .hidden)
  var yes = false

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp("Files to read at the same time (default: one per core).", valueName: "n"))
  var jobs: Int?

  @OptionGroup var common: CommonOptions

  func validate() throws {
    if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be 1…256") }
    if acceptLostMount != nil && (forgetMounts || !paths.isEmpty) {
      throw ValidationError("--accept-lost-mount takes no other path and no --forget-mounts")
    }
    if yes && acceptLostMount == nil && !forgetMounts {
      throw ValidationError("--yes goes with --accept-lost-mount or --forget-mounts")
    }
  }

  func run() async throws {
    if let path = acceptLostMount {
      return try await LostMountAcceptance.accept(
        at: path, confirmed: yes, olderSpelling: "--accept-lost-mount", common)
    }
    if forgetMounts {
      return try await LostMountAcceptance.acceptAll(
        under: paths, nullSeparated: nullSeparated, confirmed: yes,
        olderSpelling: "--forget-mounts", common)
    }
    try await Tool.run(CairnHash.self, common) {
      var clock = PhaseClock()
      let roots = try inputRoots()
      clock.lap("input", "\(roots.count) path\(roots.count == 1 ? "" : "s")")
      var options = ScanOptions()
      options.includeAll = allFiles || all
      options.cachePath = noCache ? nil : CairnPaths().hashCache
      if let jobs { options.workers = jobs }
      options.mountMemoryPath = CairnPaths().scanMounts
      options.showProgress = Diagnostics.stderrIsTerminal && !common.quiet
      // The later stages ignore these paths by their own configuration too; the scan names
      // them in its root statuses so a stage with another configuration ignores them as well.
      options.ignoredPaths = try ReconciliationSettings.ignoredPaths(Configuration.load())

      let writer = RecordWriter()
      writer.write(HeaderRecord(tool: CairnHash.toolName, roots: roots.map(\.path)))
      let summary = LibraryScan(roots: roots, options: options, tool: CairnHash.toolName).run(
        writer: writer, clock: &clock)
      writer.write(
        EndRecord(
          tool: CairnHash.toolName, complete: summary.complete, errors: summary.errors,
          counts: summary.counts, roots: summary.roots))
      writer.flush()
      if !common.quiet && Diagnostics.stderrIsTerminal {
        Diagnostics.info(
          "\(summary.files) files (\(summary.hashed) hashed, \(summary.cached) from cache)"
            + (summary.errors > 0 ? ", \(summary.errors) errors" : ""))
      }
      return summary.complete ? .success : .partial
    }
  }

  private func inputRoots() throws -> [ScanRoot] {
    try Self.inputRoots(paths, nullSeparated: nullSeparated)
  }

  /// The roots from the arguments, or from stdin when there are none (or one is `-`).
  static func inputRoots(_ paths: [String], nullSeparated: Bool) throws -> [ScanRoot] {
    var names: [ScanRoot] = []
    var readStdin = paths.isEmpty
    if paths.isEmpty && isatty(0) == 1 {
      // At a terminal the library is the configuration's (the profile's, with --profile).
      let library = try SettingsTable.library.value(in: Configuration.load())
      guard !library.isEmpty else {
        throw CairnError(
          .usage, "no paths given, stdin is a terminal and CAIRN_LIBRARY is not set (try --help)")
      }
      return library.map { ScanRoot(path: $0) }
    }
    for path in paths {
      if path == "-" {
        readStdin = true
        continue
      }
      // Read as a CAIRN_LIBRARY folder is: cairn-nightly and unit files pass `~/Photos` on
      // unexpanded, and the watcher reads its arguments so too.
      guard let root = FolderList.folder(path, base: .process) else {
        throw CairnError(.usage, "\(path): there is no such user's home folder")
      }
      names.append(ScanRoot(path: root))
    }
    if readStdin {
      names += try PathList.load(fileDescriptor: 0, separator: nullSeparated ? 0 : 10)
    }
    // The same root twice would list its files twice.
    var seen = Set<String>()
    return names.filter { seen.insert($0.path).inserted }
  }
}

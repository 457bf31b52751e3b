import ArgumentParser
import CairnReconcile
import CairnRecords
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

struct RecordCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Record a scan and pass it through",
    usage: """
      cairn-observe [record] [<options>] [<file>]
      cairn-observe <subcommand> [<arguments>]
      """,
    discussion: """
      Reads the scan from the file named, or standard input. Every line is written to \
      standard output unchanged, except the header, which gains 'cairn-observe' in its \
      pipeline (and the server, when it named none). The end record \
      passes through with its counts. A scan without its end record is passed on and its \
      files are recorded as seen, but no root counts as complete (exit 65).
      """)

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  @Flag(help: "Do not look in trash folders for deletion signals.")
  var noTrash = false

  @OptionGroup var input: RecordInput

  func run() async throws {
    try await Tool.run(CairnObserve.self, common) {
      try Observe(options: self).run()
    }
  }
}

/// One run of `cairn-observe record`.
struct Observe {
  let options: RecordCommand

  func run() throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    let reader = try options.input.reader()
    let configuration = try Configuration.load()
    let now = Date()
    let writer = RecordWriter()
    reader.willBlock = { writer.flush() }
    let stream = try RecordStream(reader: reader)

    var header = stream.header
    let identity: ServerIdentity
    if let named = header.server {
      identity = named
    } else {
      identity = try ListingInput.identity(
        serverFile: options.partition.serverFile, fetchArguments: options.common.forwarded)
      header.server = identity
    }
    header.pipeline.append(CairnObserve.toolName)
    // Take the lock before passing anything on, so a busy partition stops the pipeline early.
    let store = try PartitionStore.open(identity.partition, paths: configuration.paths)
    defer { store.close() }
    writer.write(header)

    let scan = try ScanInput.read(stream) { line in writer.writeLine(line.bytes, type: line.type) }
    // The writer counts what it passed on into the end record it writes.
    if let end = scan.end { writer.write(end) }
    writer.flush()
    clock.lap("read", "\(scan.files.count) files")

    let complete = scan.end == nil ? [] : scan.completeRoots
    ProgressLine.standardError.phase("recording \(scan.files.count) files")
    let summary = try store.recordScan(
      scan.files, completeRoots: complete,
      scopedRoots: scan.end == nil ? [] : scan.scopedRoots, at: now)
    clock.lap("record", "\(summary.newChecksums) new checksums")
    var signals = 0
    if !options.noTrash {
      signals = try store.recordTrashSignals(
        roots: scan.roots.map(\.path), configuration: configuration)
      clock.lap("trash", "\(signals) deletion signals")
    }
    try store.meta.set(.lastObserveAt, now)

    Diagnostics.info(
      "recorded \(summary.files) files (\(summary.newChecksums) new checksums) under "
        + "\(complete.count) complete root(s); \(signals) new deletion signal(s)")
    guard scan.end != nil else {
      throw CairnError(
        .malformedInput,
        "truncated scan: no end record; files were recorded as seen, but nothing can be gone",
        at: reader.sourceName)
    }
    return .success
  }
}

import ArgumentParser
import CairnEngine
import CairnJSON
import CairnRecords
import CairnState
import CairnStream
import CairnTool
import Foundation

struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the observed store (or the exclusions)",
    discussion: """
      Writes one 'observed' record per remembered checksum (checksum, roots, paths, first and \
      last seen, missing since, confirmed at and by, excluded), between a header and an end \
      record; on a terminal, or with --table, prints a table for people instead.
      """)

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  @Flag(help: "List the exclusions instead.")
  var exclusions = false

  @OptionGroup var format: ListFormat

  func run() async throws {
    try await Tool.run(CairnObserve.self, common) {
      let table = format.printsTable
      let (store, _) = try openStore(partition, common)
      defer { store.close() }
      let writer = RecordWriter()
      let server = ServerIdentity(url: store.partition.serverURL, userId: store.partition.userId)
      if !table { writer.write(HeaderRecord(tool: CairnObserve.toolName, server: server)) }
      var count = 0
      if exclusions {
        for exclusion in try store.exclusions.all() {
          count += 1
          if table {
            writer.writeText(
              "\(exclusion.checksum)  \(exclusion.createdAt.iso8601)  \(exclusion.reason)")
          } else {
            writer.write(ExclusionRecord(exclusion))
          }
        }
      } else {
        let missing = try store.signals.missing()
        let confirmations = try store.signals.confirmations()
        let excluded = try store.exclusions.checksums()
        let snapshot = try store.observed.snapshot()
        if table {
          writer.writeText(
            "CHECKSUM                      LAST SEEN                 STATE      PATH")
        }
        for checksum in snapshot.keys.sorted() {
          guard let entry = snapshot[checksum] else { continue }
          count += 1
          let record = ObservedRecord(
            entry, missingSince: missing[checksum], confirmation: confirmations[checksum],
            excluded: excluded.contains(checksum))
          if table {
            let state =
              record.excluded
              ? "excluded"
              : record.confirmedAt != nil
                ? (record.confirmedBy == DeletionConfirmation.watcherSource ? "deleted" : "trashed")
                : record.missingSince != nil ? "missing" : "seen"
            let line =
              "\(checksum)  \(entry.lastSeen.iso8601)  \(state.padding(toLength: 9, withPad: " ", startingAt: 0))  "
              + (entry.paths.first ?? "-")
            writer.writeText(line)
          } else {
            writer.write(record)
          }
        }
      }
      if !table {
        writer.write(
          EndRecord(
            tool: CairnObserve.toolName, complete: true,
            counts: [exclusions ? "exclusions" : "observed": count]))
      }
      writer.flush()
      return .success
    }
  }
}

struct Show: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show what cairn remembers about one checksum or file")

  @OptionGroup var common: CommonOptions
  @OptionGroup var partition: PartitionOptions

  @Argument(help: "A checksum (base64 or hex) or the path of a file.", completion: .file())
  var item: String

  func run() async throws {
    try await Tool.run(CairnObserve.self, common, writesRecords: false) {
      let (store, configuration) = try openStore(partition, common)
      defer { store.close() }
      var lines: [String] = []
      for checksum in try resolveChecksums(item, store: store, configuration: configuration) {
        lines.append("checksum:      \(checksum)")
        guard let entry = try store.observed.entry(checksum) else {
          lines.append("observed:      never")
          continue
        }
        lines.append("first seen:    \(entry.firstSeen.iso8601)")
        lines.append("last seen:     \(entry.lastSeen.iso8601)")
        lines.append("roots:         \(entry.roots.sorted().joined(separator: ", "))")
        for path in entry.paths { lines.append("last path:     \(path)") }
        if let since = try store.signals.missing()[checksum] {
          lines.append("missing since: \(since.iso8601)")
        }
        if let confirmation = try store.signals.confirmations()[checksum] {
          lines.append(
            "deleted:       \(confirmation.confirmedAt.iso8601) (\(confirmation.source)"
              + (confirmation.originalPath.map { ", from \($0)" } ?? "") + ")")
        }
        for anchor in try store.anchors.involving(checksum) {
          let role = anchor.firstChecksum == checksum ? "original" : "current version"
          lines.append(
            "edit anchor:   \(role) of \(anchor.path) (first \(anchor.firstChecksum), now "
              + "\(anchor.currentChecksum))")
        }
        if try store.exclusions.contains(checksum) { lines.append("excluded:      yes") }
      }
      let writer = RecordWriter()
      for line in lines { writer.writeText(line) }
      writer.flush()
      return .success
    }
  }
}

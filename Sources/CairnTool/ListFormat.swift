import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// How every list a tool prints comes out, one rule for all of them (`cairn-restore list`,
/// `cairn-observe list`, `cairn-tag list`, …): records when standard output is a pipe or a
/// file, for the next stage or jq; a table when it is a terminal, for a person; `--table` or
/// `--records` to force either.
package struct ListFormat: ParsableArguments {
  @Flag(help: "Print a table for people, even into a pipe or a file.")
  package var table = false

  @Flag(help: "Write records, even on a terminal.")
  package var records = false

  package init() {}

  package func validate() throws {
    if table && records { throw ValidationError("--table and --records exclude each other") }
  }

  /// Whether this run prints a table.
  package var printsTable: Bool {
    table || (!records && Self.terminalPrintsTable)
  }

  /// The rule without the flags (for an older spelling, which has none): a table when
  /// standard output is a terminal.
  package static var terminalPrintsTable: Bool { isatty(1) == 1 }
}

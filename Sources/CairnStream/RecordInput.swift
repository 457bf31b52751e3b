import ArgumentParser
import CairnSupport

/// Where a record tool reads its stream, the same for every one of them (`cairn(7)`, INPUT):
/// the file named, `-` for standard input, or standard input when no file is named. Standard
/// input that is a terminal is not read: someone typed the command without a pipe or a file,
/// and a usage error (64) says so instead of a tool waiting in silence, as mblaze's tools do.
package struct RecordInput: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "The cairn stream to read ('-' or none: standard input, which must not be a terminal).",
      valueName: "file"),
    completion: .file())
  package var file: String?

  package init() {}

  /// Whether a file (or `-`) was named.
  package var isNamed: Bool { file != nil }

  /// Opens the stream: the file, or standard input unless it is a terminal.
  /// `whenTerminal` is the usage error's message for the tool's own words.
  package func reader(
    whenTerminal message: String = "no input: name a file or pipe a cairn stream in",
    standardInputIsTerminal: Bool = Terminal.standardInputIsTerminal
  ) throws(CairnError) -> RecordReader {
    guard let file, file != "-" else {
      if standardInputIsTerminal {
        throw CairnError(.usage, message + " (standard input is a terminal)")
      }
      return RecordReader()
    }
    do {
      return try RecordReader(path: file)
    } catch {
      throw CairnError(.malformedInput, error.message, at: file)
    }
  }
}

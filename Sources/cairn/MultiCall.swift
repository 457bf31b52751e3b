import CairnSupport
import CairnTool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// `cairn <tool> …`: the binary called by its own name (or any name that is not a tool's).
struct MultiCall {
  let tools: [ToolEntry]

  func run(_ arguments: [String]) async {
    guard let first = arguments.first else {
      Diagnostics.writeStderr(usage)
      exit(ExitStatus.usage.rawValue)
    }
    switch first {
    case "-h", "--help":
      print(usage, terminator: "")
    case "--version":
      print(CairnVersion.current)
    case "help":
      guard arguments.count > 1 else {
        print(usage, terminator: "")
        return
      }
      // `cairn help restore list` is `cairn-restore list --help`.
      await tool(arguments[1]).run(Array(arguments.dropFirst(2)) + ["--help"])
    default:
      await tool(first).run(Array(arguments.dropFirst()))
    }
  }

  /// The tool `word` names, as `hash` or `cairn-hash`; anything else is a usage error.
  private func tool(_ word: String) -> ToolEntry {
    if let tool = tools.first(where: { $0.subcommand == word || $0.name == word }) { return tool }
    Diagnostics.writeStderr("cairn: no tool '\(word)' (cairn --help lists them)\n")
    exit(ExitStatus.usage.rawValue)
  }

  var usage: String {
    let width = tools.map(\.subcommand.count).max() ?? 0
    let lines = tools.map { tool in
      "  " + tool.subcommand + String(repeating: " ", count: width - tool.subcommand.count + 2)
        + tool.abstract
    }
    return """
      OVERVIEW: Propagate local photo deletions to an Immich server, safely

      Every cairn tool in one program: `cairn hash` runs cairn-hash, and so does
      cairn-hash, a link to this program. A tool's options, records and exit statuses
      are its own: see `cairn help <tool>` or the tool's man page.

      USAGE: cairn <tool> [<arguments> ...]
             cairn help <tool> [<subcommand>]

      TOOLS:
      \(lines.joined(separator: "\n"))

      OPTIONS:
        --version   Show the version.
        -h, --help  Show help information.

      """
  }
}

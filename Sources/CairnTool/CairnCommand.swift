import ArgumentParser
import CairnRecords
import CairnStream
import CairnSupport

/// A cairn tool's command: parsed as ArgumentParser parses any, except that a usage error
/// (exit status 64) also ends standard output with an `abort` record when it is not a
/// terminal.
///
/// Without it, `cairn-hash --bogus | cairn-reconcile | cairn-gate` ended in 65: the stage after
/// the mistyped one read an empty stream, took it for a truncated one, and the status that
/// said what went wrong was lost in the pipe. With it, a usage error travels like any other
/// failure and the last stage exits 64.
///
/// Every tool has one command-line shape, the one swift-format has: the tool's command holds
/// its subcommands, and its main job is the `defaultSubcommand`, run when the first word names
/// no other (`cairn-hash ~/Photos` is `cairn-hash hash ~/Photos`). `ToolHelp` shows the main
/// job's options in the tool's own help; `SubcommandOrder` names the rule when a subcommand
/// comes after an option.
package protocol CairnCommand: AsyncParsableCommand {}

extension CairnCommand {
  package static func main() async { await main(nil) }

  package static func main(_ arguments: [String]?) async {
    var command: any ParsableCommand
    do {
      let words = arguments ?? Array(CommandLine.arguments.dropFirst())
      if let script = ToolCompletion<Self>.script(for: words) {
        print(script)
        return
      }
      if let moved = SubcommandOrder<Self>.misplaced(words) { misplacedSubcommand(moved) }
      command = try await asyncParseAsRoot(words)
    } catch {
      if exitCode(for: error) == .validationFailure {
        AbortOutput.write(
          AbortRecord(tool: toolName, status: .usage, message: message(for: error)))
      }
      ToolHelp<Self>.exit(withError: error)
    }
    do {
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      // `Tool.run` has written the abort record of a failure in the run itself. A request
      // for help is a run too: ArgumentParser's `HelpCommand`, which throws the help.
      ToolHelp<Self>.exit(withError: error)
    }
  }

  /// One line naming the rule, the words as they would run, and the usage status: a
  /// subcommand after options (`cairn-restore --profile anna list`) was read as the main job's
  /// argument, a file or path nobody meant.
  private static func misplacedSubcommand(_ moved: [String]) -> Never {
    let message =
      "a subcommand comes first: \(toolName) \(moved.map(shellWord).joined(separator: " ")) "
      + "(a path spelled like a subcommand is given as ./\(moved[0]))"
    Diagnostics.tool = toolName
    Diagnostics.error(message)
    AbortOutput.write(AbortRecord(tool: toolName, status: .usage, message: message))
    exit(withError: ExitCode(ExitStatus.usage.rawValue))
  }

  /// `word` as a shell reads it back.
  private static func shellWord(_ word: String) -> String {
    let plain =
      !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "/._-+=:,@".contains($0) }
    return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

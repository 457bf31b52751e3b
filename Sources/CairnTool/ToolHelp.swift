import ArgumentParser
import CairnSupport
import Foundation

/// A tool's help, and its usage errors, as a person expects them of a command whose main job
/// is its default subcommand.
///
/// ArgumentParser's help for a command with a default subcommand lists the subcommands but
/// none of the default's options, and a usage error in the main job points to
/// `cairn-hash hash --help`, a name nobody typed. Here the help of such a command (the tool,
/// or `cairn-observe watch`) is its overview, then the main job's usage, arguments and
/// options, then its subcommands; and a usage error points to the words that were typed.
package enum ToolHelp<Tool: ParsableCommand> {
  /// Prints what ArgumentParser would for `error`, with the help and usage text above, and
  /// exits with its status.
  package static func exit(withError error: any Error) -> Never {
    let code = Tool.exitCode(for: error)
    let text = code == .success ? help(Tool.fullMessage(for: error)) : usage(error)
    if !text.isEmpty {
      if code == .success {
        print(text)
      } else {
        Diagnostics.writeStderr(text + "\n")
      }
    }
    Tool.exit(withError: ExitCode(code.rawValue))
  }

  /// A command with a default subcommand, with the words that name it (`cairn-observe watch`).
  struct Group {
    let command: any ParsableCommand.Type
    let mainJob: any ParsableCommand.Type
    let words: String
  }

  /// Every command of the tool whose main job is a default subcommand, the tool first.
  static var groups: [Group] {
    var found: [Group] = []
    func visit(_ command: any ParsableCommand.Type, _ words: String) {
      let configuration = command.configuration
      if let mainJob = configuration.defaultSubcommand {
        found.append(Group(command: command, mainJob: mainJob, words: words))
      }
      for subcommand in configuration.subcommands {
        visit(subcommand, words + " " + (subcommand.configuration.commandName ?? ""))
      }
    }
    visit(Tool.self, Tool.configuration.commandName ?? "cairn")
    return found
  }

  /// The help of a command whose main job is a default subcommand (or of a main job with no
  /// name in help) in full; any other help as it is.
  static func help(_ text: String) -> String {
    for group in groups {
      let own =
        ObjectIdentifier(group.command) == ObjectIdentifier(Tool.self)
        ? Tool.helpMessage() : Tool.helpMessage(for: group.command)
      let mainJob = Tool.helpMessage(for: group.mainJob)
      let hidden = !group.mainJob.configuration.shouldDisplay
      if same(text, own) || (hidden && same(text, mainJob)) {
        return compose(own, mainJob)
      }
    }
    return text
  }

  /// The group's overview, the main job's usage and options, the group's subcommands.
  static func compose(_ own: String, _ mainJob: String) -> String {
    guard let usage = mainJob.range(of: "USAGE: "),
      let overviewEnd = own.range(of: "USAGE: "),
      let subcommands = own.range(of: "\nSUBCOMMANDS:\n")
    else { return own }
    let options = mainJob[usage.lowerBound...].trimmingTrailingNewlines
    return String(own[..<overviewEnd.lowerBound]) + options + "\n"
      + own[subcommands.lowerBound...].trimmingTrailingNewlines
  }

  /// A usage error's text, pointing to the help of the words typed: the main job's
  /// usage errors name it without its hidden name.
  static func usage(_ error: any Error) -> String {
    var text = Tool.fullMessage(for: error)
    for group in groups where !group.mainJob.configuration.shouldDisplay {
      let named = "'\(group.words) \(group.mainJob.configuration.commandName ?? "") "
      text = text.replacingOccurrences(of: named, with: "'\(group.words) ")
    }
    return text
  }

  private static func same(_ one: String, _ other: String) -> Bool {
    one.trimmingTrailingNewlines == other.trimmingTrailingNewlines
  }
}

extension StringProtocol {
  fileprivate var trimmingTrailingNewlines: String {
    var text = String(self)
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}

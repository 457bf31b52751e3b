import ArgumentParser

/// One of cairn's tools as a program that runs it sees it: the tool's own launcher, and the
/// `cairn` multi-call binary, which picks the tool by the name it was called by.
package struct ToolEntry: Sendable {
  /// The tool's binary name (`cairn-hash`), which is also its command's name, so its help,
  /// messages and records read the same whichever program runs it.
  package let name: String
  /// The command's one-line summary, for `cairn --help`.
  package let abstract: String
  private let command: @Sendable ([String]) async -> Void

  package init<Command: CairnCommand>(_ command: Command.Type) {
    name = Command.configuration.commandName ?? String(describing: Command.self)
    abstract = Command.configuration.abstract
    self.command = { arguments in await Command.main(arguments) }
  }

  /// The name without `cairn-`: the subcommand of `cairn` (`cairn hash`).
  package var subcommand: String {
    name.hasPrefix("cairn-") ? String(name.dropFirst("cairn-".count)) : name
  }

  /// Runs the tool on `arguments` (without the program's name). Returns when it succeeded;
  /// a failure exits with the tool's status, as its own `main` does.
  package func run(_ arguments: [String]) async {
    await command(arguments)
  }
}

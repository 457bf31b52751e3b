import ArgumentParser

/// The parent a tool's subcommand is parsed under when the first word names it.
///
/// A tool whose main job takes positional arguments (cairn-hash's paths, cairn-restore's
/// file of records) cannot let ArgumentParser find its subcommands: the main command is
/// parsed first and its positional argument takes the subcommand's name as a path. This
/// stand-in has the tool's name and subcommands and no arguments of its own, so the parser
/// goes straight on to the subcommand, and help and usage errors still read
/// `cairn-hash accept-lost-mount …`. A path that is spelled like a subcommand is given as
/// `./accept-lost-mount`, as with git; so is a path named `help`.
///
/// A subcommand with positional arguments and subcommands of its own (`cairn-observe watch
/// [FOLDER…]` and `cairn-observe watch status`) gets a stand-in of its own the same way.
package struct SubcommandRoute<Tool: ParsableCommand>: AsyncParsableCommand {
  package static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: Tool._commandName,
      abstract: Tool.configuration.abstract,
      version: Tool.configuration.version,
      subcommands: Tool.configuration.subcommands.map(standIn))
  }

  package init() {}

  /// Whether `arguments` start with the name of one of the tool's subcommands, or with
  /// `help` (which ArgumentParser's help lines offer: `cairn-restore help show`). A tool
  /// whose no-subcommand job is itself a subcommand (cairn-observe's `record`) has no
  /// positional arguments of its own, so only a subcommand of a subcommand is routed there.
  static func names(_ arguments: [String]) -> Bool {
    guard let first = arguments.first, !Tool.configuration.subcommands.isEmpty else {
      return false
    }
    if Tool.configuration.defaultSubcommand == nil {
      return first == "help" || subcommand(first, of: Tool.self) != nil
    }
    guard arguments.count > 1, let named = subcommand(first, of: Tool.self) else { return false }
    return subcommand(arguments[1], of: named) != nil
  }

  /// The words with the first later word that names a subcommand moved to the front, when
  /// they parse that way: `cairn-restore --profile anna list`, whose `list` the main job would
  /// take as a file of records. The rule is that a subcommand comes first; this says so
  /// instead of reading a file nobody meant. (An option's value spelled like a subcommand,
  /// `--file-name-matches list`, does not parse moved, and stays the option's.)
  static func misplaced(_ arguments: [String]) -> [String]? {
    guard Tool.configuration.defaultSubcommand == nil, let first = arguments.first,
      subcommand(first, of: Tool.self) == nil
    else { return nil }
    for (index, word) in arguments.enumerated().dropFirst() {
      // After `--` every word is an operand, whatever it is spelled like.
      if word == "--" { return nil }
      guard subcommand(word, of: Tool.self) != nil else { continue }
      var moved = arguments
      moved.remove(at: index)
      moved.insert(word, at: 0)
      if (try? parseAsRoot(moved)) != nil { return moved }
    }
    return nil
  }

  /// The subcommand of `command` that `word` names.
  private static func subcommand(
    _ word: String, of command: any ParsableCommand.Type
  ) -> (any ParsableCommand.Type)? {
    command.configuration.subcommands.first { subcommand in
      subcommand._commandName == word || subcommand.configuration.aliases.contains(word)
    }
  }

  /// `subcommand`, or its stand-in when it has subcommands of its own to be routed to.
  private static func standIn(_ subcommand: any ParsableCommand.Type) -> any ParsableCommand.Type {
    let configuration = subcommand.configuration
    guard !configuration.subcommands.isEmpty, configuration.defaultSubcommand == nil else {
      return subcommand
    }
    return route(subcommand)
  }

  /// The stand-in type for `Command`, which only a generic function can name from the
  /// existential type the configuration holds.
  private static func route<Command: ParsableCommand>(_: Command.Type) -> any ParsableCommand.Type {
    SubcommandRoute<Command>.self
  }

  /// `help` alone is the tool's own help, with its main job's options, not this stand-in's.
  static func helpAlone(_ arguments: [String]) -> Bool {
    arguments == ["help"] && Tool.configuration.defaultSubcommand == nil && names(arguments)
  }

  /// Never runs: the parser always goes on to the subcommand the first word named.
  package func run() async throws {}
}

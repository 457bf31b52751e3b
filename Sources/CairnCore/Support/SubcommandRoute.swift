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
package struct SubcommandRoute<Tool: CairnCommand>: AsyncParsableCommand {
  package static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: Tool.configuration.commandName,
      abstract: Tool.configuration.abstract,
      version: Tool.configuration.version,
      subcommands: Tool.configuration.subcommands)
  }

  package init() {}

  /// Whether `arguments` start with the name of one of the tool's subcommands, or with
  /// `help` (which ArgumentParser's help lines offer: `cairn-restore help show`). A tool
  /// without subcommands, or whose no-subcommand job is itself a subcommand (cairn-observe's
  /// `record`), is parsed as it always was.
  static func names(_ arguments: [String]) -> Bool {
    let subcommands = Tool.configuration.subcommands
    guard Tool.configuration.defaultSubcommand == nil, !subcommands.isEmpty,
      let first = arguments.first
    else { return false }
    return first == "help"
      || subcommands.contains { subcommand in
        subcommand._commandName == first || subcommand.configuration.aliases.contains(first)
      }
  }

  /// `help` alone is the tool's own help, with its main job's options, not this stand-in's.
  static func helpAlone(_ arguments: [String]) -> Bool {
    arguments == ["help"] && names(arguments)
  }

  /// Never runs: the parser always goes on to the subcommand the first word named.
  package func run() async throws {}
}

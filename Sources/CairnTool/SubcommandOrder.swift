import ArgumentParser

/// The rule that a subcommand comes first, for the words ArgumentParser would read otherwise.
///
/// After an option, a subcommand's name is no longer a subcommand to ArgumentParser: the main
/// job (the default subcommand) takes it as its path or file of records. `cairn-restore
/// --profile anna list` read a file named `list`. This finds such a word so the tool can say
/// so instead.
package enum SubcommandOrder<Tool: ParsableCommand> {
  /// The words with the first later word that names a subcommand moved to the front, when
  /// they parse that way. An option's value spelled like a subcommand
  /// (`--file-name-matches list`) does not parse moved, and stays the option's; after `--`
  /// every word is an operand. The main job's own hidden name (`hash`) is a path's there.
  package static func misplaced(_ arguments: [String]) -> [String]? {
    guard let first = arguments.first, first != "help", subcommand(named: first) == nil else {
      return nil
    }
    for (index, word) in arguments.enumerated().dropFirst() {
      if word == "--" { return nil }
      guard let named = subcommand(named: word), named.configuration.shouldDisplay else {
        continue
      }
      var moved = arguments
      moved.remove(at: index)
      moved.insert(word, at: 0)
      if (try? Tool.parseAsRoot(moved)) != nil { return moved }
    }
    return nil
  }

  /// The tool's subcommand that `word` names (every one declares its `commandName`).
  static func subcommand(named word: String) -> (any ParsableCommand.Type)? {
    Tool.configuration.subcommands.first { subcommand in
      subcommand.configuration.commandName == word
        || subcommand.configuration.aliases.contains(word)
    }
  }
}

import ArgumentParser

/// The completion scripts of a tool whose main job is its default subcommand.
///
/// ArgumentParser completes a command's own arguments and its subcommands' names; the
/// default subcommand's arguments are not offered, so `cairn-hash ~/Pho<TAB>` would complete
/// nothing. The scripts are generated instead for a `Shape` of the tool: a command of the
/// tool's name with the main job's arguments and the tool's subcommands (each shaped the same
/// way, as `cairn-observe watch` is), the shape a person types. A shape is never parsed.
package enum ToolCompletion<Tool: ParsableCommand> {
  /// The script `arguments` ask for (`--generate-completion-script bash`), or nil when they
  /// ask for something else.
  package static func script(for arguments: [String]) -> String? {
    guard arguments.count == 2, arguments[0] == "--generate-completion-script",
      let shell = CompletionShell(rawValue: arguments[1]),
      Tool.configuration.defaultSubcommand != nil
    else { return nil }
    return shaped(Tool.self).completionScript(for: shell)
  }

  /// `command` itself, or its shape when its main job is a default subcommand.
  static func shaped(_ command: any ParsableCommand.Type) -> any ParsableCommand.Type {
    func open<Group: ParsableCommand>(_: Group.Type) -> any ParsableCommand.Type {
      guard let mainJob = Group.configuration.defaultSubcommand else { return Group.self }
      return shape(Group.self, mainJob)
    }
    return open(command)
  }

  private static func shape<Group: ParsableCommand, MainJob: ParsableCommand>(
    _: Group.Type, _: MainJob.Type
  ) -> any ParsableCommand.Type {
    Shape<Group, MainJob>.self
  }

  struct Shape<Group: ParsableCommand, MainJob: ParsableCommand>: ParsableCommand {
    static var configuration: CommandConfiguration {
      let group = Group.configuration
      return CommandConfiguration(
        commandName: group.commandName, abstract: group.abstract, version: group.version,
        shouldDisplay: group.shouldDisplay,
        subcommands: group.subcommands.map { ToolCompletion.shaped($0) })
    }

    @OptionGroup var mainJob: MainJob

    init() {}
  }
}

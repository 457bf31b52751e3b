import ArgumentParser

/// `--yes`/`-y`, for every action that asks on the terminal first (cairn-trash,
/// cairn-hash accept-lost-mount and forget-mounts, cairn-observe reset): one spelling, one
/// meaning.
package struct Confirmation: ParsableArguments {
  @Flag(
    name: .shortAndLong,
    help: "Go ahead without asking on the terminal (what would be done is still said).")
  package var yes = false

  package init() {}
}

/// `--dry-run`, for every tool that changes the server (cairn-trash, cairn-restore,
/// cairn-tag add): one spelling, one meaning.
package struct DryRun: ParsableArguments {
  @Flag(name: .customLong("dry-run"), help: "Show what would be done; change nothing.")
  package var dryRun = false

  package init() {}
}

// cairn-reconcile on its own, for `swift run cairn-reconcile` and the tests: an installed cairn is one binary,
// `cairn`, with cairn-reconcile a link to it (Sources/cairn).
import CairnReconcileTool
import CairnTool

await ToolEntry.reconcile.run(Array(CommandLine.arguments.dropFirst()))

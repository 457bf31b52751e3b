// cairn-restore on its own, for `swift run cairn-restore` and the tests: an installed cairn is one binary,
// `cairn`, with cairn-restore a link to it (Sources/cairn).
import CairnRestoreTool
import CairnTool

await ToolEntry.restore.run(Array(CommandLine.arguments.dropFirst()))

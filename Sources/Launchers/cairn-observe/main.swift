// cairn-observe on its own, for `swift run cairn-observe` and the tests: an installed cairn is one binary,
// `cairn`, with cairn-observe a link to it (Sources/cairn).
import CairnObserveTool
import CairnTool

await ToolEntry.observe.run(Array(CommandLine.arguments.dropFirst()))

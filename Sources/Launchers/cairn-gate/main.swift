// cairn-gate on its own, for `swift run cairn-gate` and the tests: an installed cairn is one binary,
// `cairn`, with cairn-gate a link to it (Sources/cairn).
import CairnGateTool
import CairnTool

await ToolEntry.gate.run(Array(CommandLine.arguments.dropFirst()))

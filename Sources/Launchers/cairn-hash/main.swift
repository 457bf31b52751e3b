// cairn-hash on its own, for `swift run cairn-hash` and the tests: an installed cairn is one binary,
// `cairn`, with cairn-hash a link to it (Sources/cairn).
import CairnHashTool
import CairnTool

await ToolEntry.hash.run(Array(CommandLine.arguments.dropFirst()))

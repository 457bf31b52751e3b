// cairn-trash on its own, for `swift run cairn-trash` and the tests: an installed cairn is one binary,
// `cairn`, with cairn-trash a link to it (Sources/cairn).
import CairnTool
import CairnTrashTool

await ToolEntry.trash.run(Array(CommandLine.arguments.dropFirst()))

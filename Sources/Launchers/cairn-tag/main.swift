// cairn-tag on its own, for `swift run cairn-tag` and the tests: an installed cairn is one binary,
// `cairn`, with cairn-tag a link to it (Sources/cairn).
import CairnTagTool
import CairnTool

await ToolEntry.tag.run(Array(CommandLine.arguments.dropFirst()))

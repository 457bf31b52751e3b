// cairn-fetch on its own, for `swift run cairn-fetch` and the tests: an installed cairn is one binary,
// `cairn`, with cairn-fetch a link to it (Sources/cairn).
import CairnFetchTool
import CairnTool

await ToolEntry.fetch.run(Array(CommandLine.arguments.dropFirst()))

import CairnFetchTool
import CairnGateTool
import CairnHashTool
import CairnObserveTool
import CairnReconcileTool
import CairnRestoreTool
import CairnTagTool
import CairnTool
import CairnTrashTool

/// Every cairn tool in one binary. Installed, `cairn-hash` and the others are links to it and
/// it runs the tool it was called by; `cairn hash …` runs the same tool. Each tool prints
/// its own help, messages and exit statuses, exactly as when it was a binary of its own.
@main
enum Cairn {
  /// In pipeline order, as `cairn --help` lists them.
  static let tools: [ToolEntry] = [
    .hash, .observe, .fetch, .reconcile, .gate, .trash, .tag, .restore,
  ]

  static func main() async {
    let arguments = CommandLine.arguments
    if let tool = tool(named: calledName(arguments.first ?? "cairn")) {
      await tool.run(Array(arguments.dropFirst()))
    } else {
      await MultiCall(tools: tools).run(Array(arguments.dropFirst()))
    }
  }

  /// The file name this program was started by: `cairn-hash` for a link of that name.
  static func calledName(_ argument0: String) -> String {
    String(argument0.split(separator: "/").last ?? "cairn")
  }

  static func tool(named name: String) -> ToolEntry? {
    tools.first { $0.name == name }
  }
}

import CairnTool

extension ToolEntry {
  /// cairn-gate, for its launcher and the `cairn` multi-call binary (`cairn gate`).
  package static let gate = ToolEntry(CairnGate.self)
}

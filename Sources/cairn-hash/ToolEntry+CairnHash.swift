import CairnTool

extension ToolEntry {
  /// cairn-hash, for its launcher and the `cairn` multi-call binary (`cairn hash`).
  package static let hash = ToolEntry(CairnHash.self)
}

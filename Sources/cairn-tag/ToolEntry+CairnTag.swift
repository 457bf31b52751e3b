import CairnTool

extension ToolEntry {
  /// cairn-tag, for its launcher and the `cairn` multi-call binary (`cairn tag`).
  package static let tag = ToolEntry(CairnTag.self)
}

import CairnTool

extension ToolEntry {
  /// cairn-trash, for its launcher and the `cairn` multi-call binary (`cairn trash`).
  package static let trash = ToolEntry(CairnTrash.self)
}

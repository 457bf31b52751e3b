import CairnTool

extension ToolEntry {
  /// cairn-restore, for its launcher and the `cairn` multi-call binary (`cairn restore`).
  package static let restore = ToolEntry(CairnRestore.self)
}

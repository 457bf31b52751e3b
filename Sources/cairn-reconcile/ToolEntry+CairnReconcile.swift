import CairnTool

extension ToolEntry {
  /// cairn-reconcile, for its launcher and the `cairn` multi-call binary (`cairn reconcile`).
  package static let reconcile = ToolEntry(CairnReconcile.self)
}

import CairnTool

extension ToolEntry {
  /// cairn-observe, for its launcher and the `cairn` multi-call binary (`cairn observe`).
  package static let observe = ToolEntry(CairnObserve.self)
}

import CairnTool

extension ToolEntry {
  /// cairn-fetch, for its launcher and the `cairn` multi-call binary (`cairn fetch`).
  package static let fetch = ToolEntry(CairnFetch.self)
}

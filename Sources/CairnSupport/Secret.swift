/// A credential (API key, session token, password) that must never be printed.
///
/// Its descriptions are redacted, so an interpolation into a log or error message shows
/// `<redacted>`; the value is only reachable through `reveal()`, at the one place that sends it.
package struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
  private let value: String

  package init(_ value: String) { self.value = value }

  package func reveal() -> String { value }
  package var isEmpty: Bool { value.isEmpty }
  package var description: String { "<redacted>" }
  package var debugDescription: String { "<redacted>" }
}

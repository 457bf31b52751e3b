/// A credential (API key, session token, password) that must never be printed.
///
/// Its descriptions are redacted, so an interpolation into a log or error message shows
/// `<redacted>`; the value is only reachable through `reveal()`, at the one place that sends it.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
  private let value: String

  public init(_ value: String) { self.value = value }

  public func reveal() -> String { value }
  public var isEmpty: Bool { value.isEmpty }
  public var description: String { "<redacted>" }
  public var debugDescription: String { "<redacted>" }
}

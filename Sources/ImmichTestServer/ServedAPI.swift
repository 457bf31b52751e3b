/// What the double serves, for tests that compare it with Immich's OpenAPI document without
/// `@testable` (which release builds of the tests would not allow).
package enum ServedAPI {
  /// Who may call a route, in the spec's terms.
  package enum Demand: Sendable, Equatable, CustomStringConvertible {
    /// No credentials needed (no `security` in the spec).
    case open
    /// Authenticated; `permission` nil is Immich's `permission: false` (no
    /// `x-immich-permission`).
    case authenticated(permission: String?)

    package var description: String {
      switch self {
      case .open: return "public"
      case .authenticated(let p): return p ?? "authenticated, no permission"
      }
    }
  }

  package struct Route: Sendable, Equatable {
    /// Upper case, e.g. `DELETE`.
    package var method: String
    /// As the router matches it, e.g. `/api/tags/:id/assets`.
    package var path: String
    package var demand: Demand
  }

  /// Every `/api` route, in the router's order.
  package static var routes: [Route] {
    APIRouter().routes.map { route in
      let demand: Demand
      switch route.access {
      case .open: demand = .open
      case .authenticated(let permission): demand = .authenticated(permission: permission)
      }
      return Route(
        method: route.method, path: "/" + route.pattern.joined(separator: "/"), demand: demand)
    }
  }

  /// The `SyncRequestType`s `POST /sync/stream` accepts in `version`.
  package static func syncRequestTypes(_ version: ImmichVersion) -> [String] {
    SyncRoutes.requestTypes(version)
  }

  /// The `SyncEntityType`s acks may name.
  package static var syncEntityTypes: [String] { SyncRoutes.entityTypes }
}

import Foundation
import ImmichTestServer
import NIOHTTP1
import Testing

/// The permission each operation needs, read from the spec's `x-immich-permission`, against the
/// double's route table and against what the double actually enforces over HTTP.
// Skipped (and reported as skipped) without Immich's OpenAPI document; see OpenAPIDocument.
@Suite(.enabled(if: OpenAPIDocument.isAvailable, "Immich's OpenAPI document was not found"))
struct PermissionConformanceTests {
  typealias Key = OpenAPIDocument.OperationKey

  typealias Demand = ServedAPI.Demand

  static var doubleTable: [Key: Demand] {
    var table: [Key: Demand] = [:]
    for route in ServedAPI.routes {
      table[Key(method: route.method, doublePath: route.path)] = route.demand
    }
    return table
  }

  static func specDemand(_ spec: OpenAPIDocument, _ key: Key) -> Demand {
    spec.requiresAuthentication(key) ? .authenticated(permission: spec.permission(key)) : .open
  }

  /// The two tables agree for every route the double serves; mismatches are listed by name.
  @Test func routeTableMatchesTheSpec() throws {
    let spec = try #require(OpenAPIDocument.v3_2)
    let mismatches = Self.doubleTable.sorted { $0.key < $1.key }.compactMap { key, demand in
      let expected = Self.specDemand(spec, key)
      return expected == demand ? nil : "\(key): spec \(expected), double \(demand)"
    }
    #expect(mismatches == [])
    // The table derived from the spec is not trivially empty.
    #expect(spec.operations.filter { spec.permission($0) != nil }.count > 100)
  }

  /// Over HTTP, a key holding no permission at all: routes with a permission answer 403 naming
  /// exactly the spec's permission; `permission: false` and public routes do not.
  @Test(arguments: doubleTable.keys.sorted())
  func enforcedPermissionIsTheSpecs(key: Key) async throws {
    let spec = try #require(OpenAPIDocument.v3_2)
    let expected = Self.specDemand(spec, key)
    // 3.2 serves every route the double has (and the 3.2 document holds them all).
    try await withWorld(.v3_2) { w, _, client in
      let path = "/api" + key.path.replacingOccurrences(of: "{id}", with: w.newest.id)
      let reply = try await client.send(
        HTTPMethod(rawValue: key.method), path, json: key.method == "GET" ? nil : [:],
        as: .key(w.bareKey))
      switch expected {
      case .authenticated(let permission?):
        #expect(reply.status == 403, "\(reply.text)")
        #expect(reply.json == ["message": .string("Missing required permission: \(permission)")])
      case .authenticated(nil), .open:
        let missing = reply.json?["message"]?.stringValue?.hasPrefix("Missing required") ?? false
        #expect(!missing, "\(reply.text)")
      }
      if expected != .open {
        let anonymous = try await client.send(
          HTTPMethod(rawValue: key.method), path, json: key.method == "GET" ? nil : [:])
        #expect(anonymous.status == 401)
        #expect(anonymous.json == ["message": "Authentication required"])
      }
    }
  }
}

import Foundation
import ImmichTestServer
import Testing

/// The double's vocabularies against the spec's enums: a type the real server knows but the
/// double refuses (or the reverse) would make cairn's tests disagree with production.
// Skipped (and reported as skipped) without Immich's OpenAPI document; see OpenAPIDocument.
@Suite(.enabled(if: OpenAPIDocument.isAvailable, "Immich's OpenAPI document was not found"))
struct EnumConformanceTests {
  @Test func syncRequestAndEntityTypesAreTheSpecs() throws {
    let spec = try #require(OpenAPIDocument.shared)
    let requestTypes = spec.enumValues("SyncRequestType")
    #expect(!requestTypes.isEmpty)
    #expect(Set(ServedAPI.syncRequestTypes(.v3_1)) == Set(requestTypes))
    #expect(Set(ServedAPI.syncEntityTypes) == Set(spec.enumValues("SyncEntityType")))
  }

  @Test func assetTypesAndVisibilitiesAreTheSpecs() throws {
    let spec = try #require(OpenAPIDocument.shared)
    #expect(Set(AssetType.allCases.map(\.rawValue)) == Set(spec.enumValues("AssetTypeEnum")))
    #expect(
      Set(AssetVisibility.allCases.map(\.rawValue)) == Set(spec.enumValues("AssetVisibility")))
  }

  /// Every permission a route demands, and every one in `cairnNeeds`, is a real permission.
  @Test func everyPermissionTheDoubleNamesExists() throws {
    // 3.2.0 added `userConfig.read`; the extract names it on its routes, not in the enum.
    let spec = try #require(OpenAPIDocument.v3_2)
    let known = Set(spec.enumValues("Permission") + spec.operations.compactMap(spec.permission))
    #expect(known.contains("syncCheckpoint.read"))
    let demanded = ServedAPI.routes.compactMap { route -> String? in
      if case .authenticated(let permission?) = route.demand { return permission }
      return nil
    }
    #expect(Set(demanded + Permission.cairnNeeds).subtracting(known).sorted() == [])
  }
}

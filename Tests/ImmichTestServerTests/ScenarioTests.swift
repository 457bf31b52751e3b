import Foundation
import ImmichTestServer
import Testing

@Suite struct ScenarioTests {
  @Test func scenarioRoundTripsThroughJSONFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenario-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let world = World(.v2_7)
    let file = folder.appendingPathComponent("scenario.json")
    try world.scenario.write(to: file)
    let loaded = try Scenario.load(from: file)
    #expect(loaded.version == .v2_7)
    #expect(loaded.users == world.scenario.users)
    #expect(loaded.apiKeys == world.scenario.apiKeys)
    #expect(loaded.partners == world.scenario.partners)
    #expect(loaded.assets.map(\.id) == world.scenario.assets.map(\.id))
    #expect(
      loaded.assets.map { $0.trashedAt != nil } == world.scenario.assets.map { $0.trashedAt != nil }
    )
  }

  @Test func handWrittenScenarioUsesDefaults() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenario-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("s.json")
    try Data(
      """
      {"version":"v2.7","trashEnabled":false,
       "users":[{"id":"0d5e3c1a-1f2b-4c3d-8e4f-5a6b7c8d9e0f","email":"x@example.com"}],
       "apiKeys":[{"name":"k","secret":"s","ownerId":"0d5e3c1a-1f2b-4c3d-8e4f-5a6b7c8d9e0f"}],
       "assets":[{"ownerId":"0d5e3c1a-1f2b-4c3d-8e4f-5a6b7c8d9e0f","originalFileName":"a.jpg",
                  "fileCreatedAt":"2026-01-01T00:00:00Z","trashed":true}]}
      """.utf8
    ).write(to: file)
    let scenario = try Scenario.load(from: file)
    #expect(scenario.trashEnabled == false)
    #expect(scenario.trashDays == 30)
    #expect(scenario.apiKeys.first?.permissions == ["all"])
    #expect(scenario.assets.first?.trashedAt != nil)
    #expect(scenario.assets.first?.visibility == .timeline)
  }

  @Test func generatedScenarioIsFastAndDistinct() {
    let started = ContinuousClock.now
    let scenario = Scenario.generated(count: 100_000)
    #expect(ContinuousClock.now - started < .seconds(10))
    #expect(Set(scenario.assets.map(\.checksum)).count == 100_000)
    #expect(scenario.apiKeys.first?.secret == "demo-secret")
  }
}

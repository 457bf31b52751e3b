import CairnTestSupport
import Foundation
import Testing

/// Strict where absence means deletion, composable where a subset is harmless: `jq` between
/// `cairn-gate` and `cairn-trash` trashes that part of the plan the gate passed, `jq` on a
/// run's output restores that part, and a line lost between `cairn-hash` and
/// `cairn-reconcile` is still malformed input that trashes nothing.
@Suite(.serialized)
struct FilteredStreamTests {
  /// A library with three photos gone and the forced first dry run behind it.
  static func threeGone() async throws -> LibraryWorld {
    let world = try await LibraryWorld(photos: 8)
    #expect(try await world.seed().status == 0)
    for name in world.names.prefix(3) { try world.delete(name) }
    let dry = try await world.shell("\(world.reconcile) | cairn-gate -q | setsid cairn-trash --yes")
    #expect(dry.stderr.contains("first run on this partition"), "\(dry.stderr)")
    return world
  }

  @Test func aFilteredPlanTrashesOnlyThatPart() async throws {
    let world = try await Self.threeGone()
    defer { Task { await world.stop() } }
    let one = world.names[1]
    let run = try await world.shell(
      "\(world.reconcile) | cairn-gate -q "
        + "| jq -c 'select(.type != \"candidate\" or .originalFileName == \"\(one)\")' "
        + "| setsid cairn-trash --yes")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(world.trashed == [one])
    let results = try run.records(ofType: "result").compactMap { $0["action"] as? String }
    #expect(results == ["trashed"])
  }

  @Test func aFilteredPlanWithAnItemTheGateDidNotPassIsRefused() async throws {
    let world = try await Self.threeGone()
    defer { Task { await world.stop() } }
    let plan = try await world.shell("\(world.reconcile) | cairn-gate -q > plan.ndjson")
    #expect(plan.status == 0, "\(plan.stderr)")
    // One item left out, another's bucket changed: no longer a part of the passed plan.
    let edited = try await world.shell(
      "jq -c 'select(.type != \"candidate\" or .originalFileName != \"\(world.names[0])\") "
        + "| if .type == \"candidate\" then .bucket = \"pending\" else . end' plan.ndjson "
        + "| setsid cairn-trash --yes")
    #expect(edited.status == 25, "\(edited.stderr)")
    #expect(edited.stderr.contains("is not in the plan cairn-gate passed"), "\(edited.stderr)")
    // A line added to the plan is malformed, whatever it is.
    let added = try await world.shell(
      "(head -2 plan.ndjson; tail -n +2 plan.ndjson) | setsid cairn-trash --yes")
    #expect(added.status == 65, "\(added.stderr)")
    #expect(world.server.log.mutating.isEmpty)
    #expect(world.trashed.isEmpty)
  }

  @Test func aFilteredRunRestoresOnlyThatPart() async throws {
    let world = try await Self.threeGone()
    defer { Task { await world.stop() } }
    let run = try await world.shell(
      "\(world.reconcile) | cairn-gate -q | setsid cairn-trash --yes > run.ndjson")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(world.trashed == Set(world.names.prefix(3)))
    let back = world.names[2]
    let restore = try await world.shell(
      "jq -c 'select(.type != \"result\" or .originalFileName == \"\(back)\")' run.ndjson "
        + "| cairn-restore")
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(world.trashed == Set(world.names.prefix(2)))
  }

  @Test func aFilteredRunTagsOnlyThatPart() async throws {
    let world = try await Self.threeGone()
    defer { Task { await world.stop() } }
    let run = try await world.shell(
      "\(world.reconcile) | cairn-gate -q | setsid cairn-trash --yes > run.ndjson")
    #expect(run.status == 0, "\(run.stderr)")
    world.server.log.clear()
    let one = world.names[0]
    let tag = try await world.shell(
      "jq -c 'select(.type != \"result\" or .originalFileName == \"\(one)\")' run.ndjson "
        + "| cairn-tag --add kept-for-later")
    #expect(tag.status == 0, "\(tag.stderr)")
    let tagged = world.server.log.mutating.filter { $0.path == "/api/tags/assets" }
    #expect(tagged.count == 1)
    let body = tagged.first?.body ?? ""
    #expect(body.contains(world.ids[one]!))
    #expect(
      !body.contains(world.ids[world.names[1]]!) && !body.contains(world.ids[world.names[2]]!))
  }

  @Test func aFileLineDroppedBeforeReconcileIsStillMalformedAndTrashesNothing() async throws {
    let world = try await Self.threeGone()
    defer { Task { await world.stop() } }
    world.server.log.clear()
    let run = try await world.shell(
      "cairn-hash '\(world.library)' | grep -v '\(world.names[6])' | cairn-reconcile "
        + "| cairn-gate -q | setsid cairn-trash --yes")
    #expect(run.status == 65, "\(run.stderr)")
    #expect(run.stderr.contains("the end record counts 5 'file' record(s)"), "\(run.stderr)")
    #expect(world.server.log.mutating.isEmpty)
    #expect(world.trashed.isEmpty)
  }
}

import CairnTestSupport
import Foundation
import Testing

/// A plan the person shaped stays the plan: the review page's command (`cairn-gate --plan D`
/// with its exclusions, and the threshold override the page adds) keeps working when run
/// again after a dry run or a refusal, on a stream `cairn-reconcile` made since, in which its
/// own exclusions are no longer proposed.
@Suite(.serialized)
struct ShapedPlanTests {
  /// The digest a review page made from the pipeline's stream shows.
  static func reviewDigest(_ world: LibraryWorld, page: String) async throws -> (ToolResult, String)
  {
    let review = try await world.shell(
      "\(world.reconcile) | cairn-gate --review '\(page)' > /dev/null")
    let digest = try #require(
      review.stderr.firstMatch(of: /plan ([0-9a-f]{64})\)/)?.1, "\(review.stderr)")
    return (review, String(digest))
  }

  @Test func thePagesCommandWorksAgainAfterItsExclusionsAForcedAndAnOwnDryRun() async throws {
    let world = try await LibraryWorld(photos: 8)
    defer { Task { await world.stop() } }
    let seed = try await world.seed()
    #expect(seed.status == 0, "\(seed.stderr)")
    for name in world.names.prefix(3) { try world.delete(name) }
    let page = world.dir.path + "/review.html"
    let (review, digest) = try await Self.reviewDigest(world, page: page)
    #expect(review.status == 0, "\(review.stderr)")
    let kept = world.names[2]
    let command = "cairn-gate --plan \(digest) --exclude \(world.ids[kept]!)"

    // The first run on the partition: a dry run whatever the flags; the exclusion is stored.
    let first = try await world.shell("\(world.reconcile) | \(command) | setsid cairn-trash --yes")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.contains("first run on this partition"), "\(first.stderr)")
    // Run again with the person's own dry run: cairn-reconcile no longer proposes the excluded
    // photo, and the command is still bound to the page's plan.
    let dry = try await world.shell(
      "\(world.reconcile) | \(command) | setsid cairn-trash --dry-run")
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(try dry.records(ofType: "result").count == 2, "\(dry.stdout)")
    #expect(world.server.log.mutating.isEmpty)
    // And for real.
    let real = try await world.shell("\(world.reconcile) | \(command) | setsid cairn-trash --yes")
    #expect(real.status == 0, "\(real.stderr)")
    #expect(world.trashed == Set(world.names.prefix(2)))

    // Another change to the plan (one more photo gone) is refused, storing nothing.
    try world.delete(world.names[5])
    let changed = try await world.shell("\(world.reconcile) | \(command) --exclude all-pending")
    #expect(changed.status == 25, "\(changed.stderr)")
    #expect(changed.stderr.contains("refused by --plan"), "\(changed.stderr)")
    #expect(world.trashed == Set(world.names.prefix(2)))
  }

  @Test func excludingALivePhotosVideoOnThePageKeepsTheCommandBound() async throws {
    let world = try await LibraryWorld(photos: 8, livePhotos: ["IMG_LIVE"])
    defer { Task { await world.stop() } }
    #expect(try await world.seed().status == 0)
    for name in ["IMG_0001.JPG", "IMG_LIVE.HEIC", "IMG_LIVE.MOV"] { try world.delete(name) }
    let (review, digest) = try await Self.reviewDigest(
      world, page: world.dir.path + "/review.html")
    #expect(review.status == 0, "\(review.stderr)")
    // Keep the motion video: cairn-reconcile then proposes the still alone, for review.
    let command = "cairn-gate --plan \(digest) --exclude \(world.ids["IMG_LIVE.MOV"]!)"
    for trash in ["setsid cairn-trash --yes", "setsid cairn-trash --dry-run"] {
      let run = try await world.shell("\(world.reconcile) | \(command) | \(trash)")
      #expect(run.status == 0, "\(run.stderr)")
    }
    let real = try await world.shell(
      "\(world.reconcile) | \(command) | setsid cairn-trash --yes")
    #expect(real.status == 0, "\(real.stderr)")
    #expect(world.trashed == ["IMG_0001.JPG"])
  }

  @Test func aThresholdRefusalIsOverriddenByTheCommandThePageBuilds() async throws {
    let world = try await LibraryWorld(photos: 12)
    world.extra["CAIRN_FLOOR"] = "3"
    world.extra["CAIRN_THRESHOLD_PERCENT"] = "10"
    defer { Task { await world.stop() } }
    let seed = try await world.seed()
    #expect(seed.status == 0, "\(seed.stderr)")
    let gone = Array(world.names.prefix(5))
    for name in gone { try world.delete(name) }
    let page = world.dir.path + "/review.html"
    let (review, digest) = try await Self.reviewDigest(world, page: page)
    #expect(review.status == 25, "\(review.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("refused by the threshold rail"))
    #expect(html.contains(#"<input type="checkbox" id="override">"#))

    let kept = world.ids[gone[0]]!
    let command = "cairn-gate --plan \(digest) --override-threshold \(digest) --exclude \(kept)"
    if HeadlessBrowser.isAvailable {
      let shown = try await HeadlessBrowser.render(page, fragment: "exclude=\(kept)&override=yes")
      let built = shown.dom.firstMatch(of: /<pre id="command">([^<]*)<\/pre>/)?.1
      #expect(built.map(String.init) == command)
    }
    // Without the override the exclusion is stored and the threshold still refuses, naming
    // the threshold, not the page.
    let refused = try await world.shell(
      "\(world.reconcile) | cairn-gate --plan \(digest) --exclude \(kept) | setsid cairn-trash --yes"
    )
    #expect(refused.status == 25, "\(refused.stderr)")
    #expect(refused.stderr.contains("refused by the threshold rail"), "\(refused.stderr)")
    #expect(!refused.stderr.contains("refused by --plan"), "\(refused.stderr)")
    // The page's command with its override: the forced first dry run, then for real.
    for _ in 0..<2 {
      let run = try await world.shell(
        "\(world.reconcile) | \(command) | setsid cairn-trash --yes")
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(world.trashed == Set(gone.dropFirst()))
  }

  @Test func anOverrideNamingAnotherPlanIsRefused() async throws {
    let world = try await LibraryWorld(photos: 12)
    world.extra["CAIRN_FLOOR"] = "3"
    world.extra["CAIRN_THRESHOLD_PERCENT"] = "10"
    defer { Task { await world.stop() } }
    #expect(try await world.seed().status == 0)
    for name in world.names.prefix(5) { try world.delete(name) }
    let other = String(repeating: "ab", count: 32)
    let run = try await world.shell(
      "\(world.reconcile) | cairn-gate --override-threshold \(other) | setsid cairn-trash --yes")
    #expect(run.status == 25, "\(run.stderr)")
    #expect(run.stderr.contains("--override-threshold names plan \(other)"), "\(run.stderr)")
    #expect(world.server.log.mutating.isEmpty)
  }
}

import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// `cairn-gate --review` when the server fails while thumbnails are fetched: the page is still
/// written, soon, and says how many pictures are missing and why.
@Suite(.serialized)
struct ReviewFetchLimitTests {
  /// Every photo pending review (a plan the rails pass, whatever its size: the page is written
  /// either way, but the run's status then says only what the fetch did).
  static func stream(_ f: ActFixture) throws -> String {
    try f.write("pending.ndjson", f.reconcileStream(f.photos.map { f.candidate($0, .pending) }))
  }

  @Test func aServerThatDiesMidwayIsGivenUpOnAndThePageSaysSo() async throws {
    let f = try await ActFixture(photoCount: 20)
    defer { Task { await f.stop() } }
    // Four thumbnails come; then the server hangs, as one that died behind a proxy: each
    // request times out (six seconds here, room for a loaded machine), none is refused.
    f.server.faults.inject(
      Fault(method: "GET", path: "/api/assets/:id/thumbnail", count: 4, action: .delay(seconds: 0)))
    f.server.faults.inject(
      Fault(
        method: "GET", path: "/api/assets/:id/thumbnail", count: 100, action: .delay(seconds: 20)))
    let page = f.dir.path + "/died.html"
    let gate = try await f.shell(
      "cairn-gate --review '\(page)' < '\(try Self.stream(f))'", extra: ["CAIRN_HTTP_TIMEOUT": "6"])
    #expect(gate.status == 0, "\(gate.stderr)")
    #expect(gate.stderr.contains("thumbnail fetching gave up after 3 requests in a row failed"))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.matches(of: /data-src="data:image\/jpeg/).count == 4)
    let down = html.matches(of: /data-missing="serverDown"/).count
    let failed = html.matches(of: /data-missing="serverError"/).count
    #expect(down > 0 && down + failed == 16, "\(down) down, \(failed) failed")
    #expect(html.contains("without a thumbnail: not fetched: the server stopped answering"))
    // Not all twenty were asked for once the server was taken for gone: four answered, at
    // most six at once, three failures in a row.
    let asked = f.server.log.all.filter { $0.path.hasSuffix("/thumbnail") }.count
    #expect(asked <= 12, "\(asked) thumbnail requests")
  }

  @Test func aServerThatRefusesEveryConnectionIsGivenUpOnAtOnce() async throws {
    let f = try await ActFixture(photoCount: 20)
    defer { Task { await f.stop() } }
    f.server.faults.inject(
      Fault(method: "GET", path: "/api/assets/:id/thumbnail", count: 100, action: .reset))
    let page = f.dir.path + "/reset.html"
    let gate = try await f.shell("cairn-gate --review '\(page)' < '\(try Self.stream(f))'")
    #expect(gate.status == 0, "\(gate.stderr)")
    #expect(gate.stderr.contains("thumbnail fetching gave up after 3 requests in a row failed"))
    let asked = f.server.log.all.filter { $0.path.hasSuffix("/thumbnail") }.count
    #expect(asked <= 8, "\(asked) thumbnail requests")
  }

  @Test func aHangingServerIsCutOffAtTheDeadline() async throws {
    let f = try await ActFixture(photoCount: 12)
    defer { Task { await f.stop() } }
    f.server.faults.inject(
      Fault(
        method: "GET", path: "/api/assets/:id/thumbnail", count: 100, action: .delay(seconds: 4)))
    let page = f.dir.path + "/hung.html"
    let started = Date()
    let gate = try await f.shell(
      "cairn-gate --review '\(page)' --review-deadline 1 < '\(try Self.stream(f))'")
    let took = Date().timeIntervalSince(started)
    #expect(gate.status == 0, "\(gate.stderr)")
    #expect(took < 4, "took \(took) s")  // the deadline, not the server's four seconds
    #expect(
      gate.stderr.contains("thumbnail fetching stopped at its deadline (1 s): 12 not fetched"))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.matches(of: /data-missing="deadline"/).count == 12)
    #expect(html.contains("12 without a thumbnail: not fetched: the deadline"))
  }

  @Test func aDeadlineOutOfRangeIsAUsageError() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let result = try await f.shell("cairn-gate --review x.html --review-deadline 0 < /dev/null")
    #expect(result.status == 64)
    #expect(result.stderr.contains("--review-deadline takes a number of seconds"))
  }

  @Test func theExclusionsOfEarlierPagesAreListedWithTheirUndoCommand() async throws {
    let f = try await ActFixture()
    defer { Task { await f.stop() } }
    let first = try f.write(
      "first.ndjson", f.reconcileStream([f.candidate(f.photos[0]), f.candidate(f.photos[1])]))
    let excluded = try await f.shell(
      "cairn-gate --exclude \(f.photos[1].id) < '\(first)' > /dev/null")
    #expect(excluded.status == 0, "\(excluded.stderr)")
    let later = try f.write("later.ndjson", f.reconcileStream([f.candidate(f.photos[0])]))
    let page = f.dir.path + "/later.html"
    let gate = try await f.shell("cairn-gate --review '\(page)' < '\(later)' > /dev/null")
    #expect(gate.status == 0, "\(gate.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("<h2>Excluded earlier <span class=\"n\">1</span></h2>"))
    #expect(html.contains("cairn-observe include \(f.photos[1].checksum)"))
    #expect(html.contains("excluded at cairn-gate"))
  }
}

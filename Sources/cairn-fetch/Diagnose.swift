import CairnImmich
import CairnSupport

/// `cairn-fetch diagnose`: what the listing holds, on stderr, for a person.
enum Diagnose {
  static func print(_ listing: ServerListing, _ report: LivePhotoReport) {
    let visibility = listing.perVisibility
    say("assets: \(listing.assets.count) (\(listing.trashed) in the trash)")
    for name in AssetVisibility.listed.map(\.rawValue) {
      say("  \(name): \(visibility[name] ?? 0)")
    }
    say("partner assets skipped: \(listing.partnerSkipped)")
    if listing.lockedSkipped > 0 { say("locked assets skipped: \(listing.lockedSkipped)") }
    say("Live Photos: \(report.pairs) complete")
    say("  stills whose motion video is missing: \(report.dangling.count)")
    for asset in report.dangling.prefix(20) {
      say("    \(asset.id) \(asset.originalFileName) → \(asset.livePhotoVideoId ?? "")")
    }
    say("  hidden videos no still points at: \(report.orphans.count)")
    for asset in report.orphans.prefix(20) {
      say("    \(asset.id) \(asset.originalFileName)")
    }
  }

  static func say(_ line: String) { Diagnostics.writeStderr(line + "\n") }
}

import CairnEngine
import CairnRecords
import CairnSafety
import Foundation

/// The review page: one self-contained HTML file showing the gate's whole plan as pictures, with
/// boxes that build the `cairn-gate` command line to copy.
///
/// Free of credentials by construction: it is made only from `ReviewInput`, which holds no
/// credential; every text from the library or the server is escaped; images are embedded as
/// `data:` URIs; and its Content-Security-Policy allows no request at all, only its own inline
/// script (by hash), inline styles and `data:` images. Links to Immich are plain `<a href>`.
/// It does show the photos, their names and folders, so it is private: cairn-nightly keeps it
/// 0600 and attaches it to nothing unless asked (`CAIRN_NOTIFY_ATTACH_REVIEW_PAGE`).
package enum ReviewPage {
  package static func html(_ input: ReviewInput) -> String {
    let input = input.withinBudget()
    var page = ""
    page += """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(policy)">
      <meta name="referrer" content="no-referrer">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>cairn review: plan \(input.streamDigest.prefix(12))</title>
      <style>\(style)</style>
      </head>

      """
    page += "<body data-plan=\"\(HTMLText.escape(input.streamDigest))\">\n"
    page += header(input)
    page += CommandBar.html(input)
    let halves = input.motionHalves
    var live = LaterTiles.live
    for section in ReviewSection.all(input) {
      page += render(section, input, halves, live: &live)
    }
    page += EarlierExclusions.html(input.earlierExclusions)
    page += "<script>\(ReviewScript.source)</script>\n</body>\n</html>\n"
    return page
  }

  /// Nothing from anywhere: only `data:` images, inline styles and this page's own script.
  static var policy: String {
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
      + "script-src \(ReviewScript.cspSource); base-uri 'none'; form-action 'none'"
  }

  // MARK: - Header

  static func header(_ input: ReviewInput) -> String {
    let plan = input.plan
    var out = "<header>\n<h1>cairn review</h1>\n"
    out += "<p class=\"about\">This page talks to nothing: not to your Immich server, not to "
    out += "cairn's state. Ticking a box changes nothing. What acts is the command below, run in "
    out += "place of <code>cairn-gate</code> in your pipeline; it is bound to this plan (as your "
    out += "own exclusions leave it, so it can be run again after a dry run), and "
    out += "<code>cairn-gate</code> refuses it (storing nothing) for any other.</p>\n"
    if let refusal = input.refusal {
      out += "<p class=\"refused\"><strong>The safety rails refused this plan:</strong> "
      out += "\(HTMLText.escape(refusal))</p>\n"
    } else {
      out += "<p class=\"passed\">The plan passed the safety rails.</p>\n"
    }
    let approvedNote = plan.approved.isEmpty ? "" : " (\(plan.approved.count) approved by you)"
    out += "<ul class=\"counts\">"
    out += "<li><strong>\(plan.toTrash.count)</strong> to trash\(approvedNote)</li>"
    out += "<li><strong>\(plan.pending.count)</strong> pending review</li>"
    out += "<li><strong>\(plan.held.count)</strong> held</li>"
    if !plan.kept.isEmpty {
      out += "<li><strong>\(plan.kept.count)</strong> kept by the age window</li>"
    }
    out += "<li><strong>\(plan.excluded.count)</strong> excluded</li>"
    out += "<li><strong>\(plan.toRestore.count)</strong> to restore</li></ul>\n"
    var notes = input.notes.map(HTMLText.escape)
    for (why, count) in input.missing {
      notes.append("\(count) without a thumbnail: \(HTMLText.escape(why.summary))")
    }
    if !plan.burst.isEmpty {
      notes.append(
        "\(plan.burst.count) deletions were confirmed at once, as after offloading photos to "
          + "free space (marked <em>burst</em>); <code>cairn-gate --exclude burst</code> keeps "
          + "them all")
    }
    if !notes.isEmpty {
      out += "<ul class=\"notes\">" + notes.map { "<li>\($0)</li>" }.joined() + "</ul>\n"
    }
    out += "<p class=\"meta\">plan <code>\(HTMLText.escape(input.streamDigest))</code>, made "
    out += "\(HTMLText.time(input.generatedAt))</p>\n</header>\n"
    return out
  }

  // MARK: - Sections

  /// One bucket's section; `live` is how many tiles may still be drawn at once (`LaterTiles`).
  static func render(
    _ section: ReviewSection, _ input: ReviewInput, _ halves: [String: CandidateRecord],
    live: inout Int
  ) -> String {
    var out = "<section class=\"bucket\" id=\"\(section.id)\">\n"
    out += "<h2>\(HTMLText.escape(section.title)) <span class=\"n\">\(section.count)</span></h2>\n"
    out += "<p class=\"note\">\(HTMLText.escape(section.note))</p>\n"
    let burst = Set(input.plan.burst.map(\.checksum))
    for folder in section.folders {
      out += "<div class=\"group folder\" id=\"\(folder.id)\">\n<h3>"
      out += "\(HTMLText.isolated(folder.name)) <span class=\"n\">\(folder.count)</span>"
      out += groupBoxes(section.kinds) + "</h3>\n"
      for day in folder.days {
        out += "<div class=\"group day\" id=\"\(day.id)\">\n<h4>"
        out += "\(HTMLText.escape(day.name)) <span class=\"n\">\(day.items.count)</span>"
        out += groupBoxes(section.kinds) + "</h4>\n<div class=\"tiles\">\n"
        let tiles = day.items.map { candidate in
          let motion = candidate.livePhotoVideoId.flatMap { halves[$0.lowercased()] }
          return tile(
            candidate, motion: motion, section.kinds, input,
            inBurst: burst.contains(candidate.checksum))
        }
        out += LaterTiles.html(tiles, budget: &live)
        out += "</div>\n</div>\n"
      }
      out += "</div>\n"
    }
    return out + "</section>\n"
  }

  static func groupBoxes(_ kinds: [String]) -> String {
    kinds.map {
      " <label class=\"all\"><input type=\"checkbox\" class=\"group-pick\" data-kind=\"\($0)\"> "
        + "\(label($0)) all</label>"
    }.joined()
  }

  /// A box's words: an exclusion is for good, and says so where it is ticked.
  static func label(_ kind: String) -> String {
    kind == "exclude" ? "exclude for good" : kind
  }

  // MARK: - Tiles

  /// One photo; `motion` is its Live Photo video when that is a candidate too, whose path and
  /// bucket the tile shows and whose id its boxes carry along (`data-also`).
  static func tile(
    _ c: CandidateRecord, motion: CandidateRecord?, _ kinds: [String], _ input: ReviewInput,
    inBurst: Bool
  ) -> String {
    let id = c.assetId.lowercased()
    let name = ReviewSection.name(c)
    var out = "<figure class=\"tile\" data-asset=\"\(HTMLText.escape(id))\">\n"
    out += picture(input.thumbnails[id], alt: name, className: "still")
    if let video = c.livePhotoVideoId?.lowercased() {
      out += picture(input.thumbnails[video], alt: name + " (motion video)", className: "motion")
    }
    out += "<figcaption>\n<div class=\"name\">\(HTMLText.isolated(name))</div>\n"
    let taken = c.fileCreatedAt.map(HTMLText.time) ?? "date unknown"
    out += "<div class=\"date\">taken \(taken)</div>\n"
    for path in c.paths {
      out += "<div class=\"path\">last seen at \(HTMLText.isolated(path))</div>\n"
    }
    if let motion {
      for path in motion.paths {
        out += "<div class=\"path\">motion video last seen at \(HTMLText.isolated(path))</div>\n"
      }
      if motion.bucket != c.bucket {
        out += "<div class=\"why\">motion video: \(HTMLText.escape(motion.bucket.rawValue)), "
        out += "\(HTMLText.escape(motion.detail ?? motion.reason))</div>\n"
      }
    }
    out += "<div class=\"why\"><span class=\"reason\">\(HTMLText.escape(c.reason))</span>"
    if let detail = c.detail { out += ": \(HTMLText.escape(detail))" }
    out += "</div>\n"
    let facts = badges(c, input, inBurst: inBurst)
    if !facts.isEmpty {
      out += "<ul class=\"facts\">" + facts.map { "<li>\($0)</li>" }.joined() + "</ul>\n"
    }
    if let web = input.webBase, HTMLText.isAssetId(id) {
      out += "<a class=\"open\" href=\"\(HTMLText.escape(web))/photos/\(id)\" "
      out += "rel=\"noopener noreferrer\">open in Immich</a>\n"
    }
    if HTMLText.isAssetId(id) {
      let video = motion.map { $0.assetId.lowercased() }.flatMap {
        HTMLText.isAssetId($0) ? " data-also=\"\($0)\"" : nil
      }
      for kind in kinds {
        out += "<label class=\"\(kind)\"><input type=\"checkbox\" class=\"pick\" "
        out += "data-kind=\"\(kind)\" data-id=\"\(id)\"\(video ?? "")> \(label(kind))</label>\n"
      }
    }
    return out + "</figcaption>\n</figure>\n"
  }

  static func picture(_ outcome: ThumbnailOutcome?, alt: String, className: String) -> String {
    switch outcome ?? .missing(.notFetched) {
    case .image(let type, let bytes):
      // Kept out of `src` until the tile nears the view (the script moves it there), so a page
      // of thousands decodes only the pictures on screen.
      let uri = "data:\(type);base64,\(Data(bytes).base64EncodedString())"
      let text = HTMLText.escape(HTMLText.showingBidiControls(alt))
      return "<img class=\"\(className)\" alt=\"\(text)\" data-src=\"\(uri)\">\n"
    case .missing(let why):
      let label = className == "motion" ? "motion video: \(why.placeholder)" : why.placeholder
      return "<div class=\"\(className) placeholder\" data-missing=\"\(why.rawValue)\">"
        + "\(HTMLText.escape(label))</div>\n"
    }
  }

  /// What makes this candidate worth a second look, in words.
  static func badges(_ c: CandidateRecord, _ input: ReviewInput, inBurst: Bool) -> [String] {
    var facts: [String] = []
    if c.isFavorite == true { facts.append("favourite on Immich") }
    if c.livePhotoVideoId != nil {
      if c.bucket == .restore {
        facts.append("Live Photo: its motion video comes back with it, if a cairn run trashed it")
      } else if c.livePhotoVideoKept == true {
        facts.append("Live Photo: the still goes alone; its motion video stays on the server")
      } else if c.livePhotoVideoChecksum != nil {
        facts.append("Live Photo: its motion video goes with it")
      } else {
        facts.append("Live Photo: its motion video is not listed and stays")
      }
    }
    if inBurst { facts.append("burst: one of many deletions confirmed at once") }
    if let confirmed = c.confirmedAt {
      let by =
        c.confirmedBy == DeletionConfirmation.watcherSource
        ? "seen happening by cairn-observe watch" : "confirmed by a trash"
      facts.append("deletion \(by), \(HTMLText.time(confirmed))")
    }
    if c.knownReason == .seenUnhashed {
      facts.append(
        "seen arriving by cairn-observe watch and gone before it was hashed: matched by its "
          + "name and time, never by its bytes, so it goes only if you approve it")
    }
    if let missing = c.missingSince {
      facts.append("missing from scans since \(HTMLText.time(missing))")
    }
    if c.bucket == .held {
      facts.append(
        HTMLText.escape(GatePreview.eligibility(c.eligibleAt, now: input.generatedAt)))
    }
    if input.plan.approved.contains(where: { $0.assetId == c.assetId }) {
      facts.append("approved by you")
    }
    return facts
  }

  static let style = """
    body{font:14px/1.4 system-ui,sans-serif;margin:0 1.5em 2em;color:#222;background:#fafafa}\
    h1{margin:.6em 0 .2em}h2{margin-top:1.6em;border-bottom:2px solid #ccc}\
    h3{margin:1em 0 .3em;font-size:1.05em}h4{margin:.6em 0 .3em;font-size:.95em;color:#555}\
    .n{display:inline-block;min-width:1.4em;padding:0 .4em;border-radius:1em;background:#e3e3e3;\
    font-size:.85em;text-align:center}.about{max-width:60em}.refused{background:#fde2e1;\
    padding:.5em;border-left:4px solid #c62828}.passed{color:#2e7d32}\
    .counts{display:flex;gap:1.5em;list-style:none;padding:0}.notes li{color:#8a4b00}\
    .command{position:sticky;top:0;background:#fff;border:1px solid #ccc;padding:.3em .8em;\
    z-index:2;box-shadow:0 2px 4px rgba(0,0,0,.15)}#command{white-space:pre-wrap;\
    word-break:break-all;background:#f0f0f0;padding:.5em;user-select:all;max-height:6em;\
    overflow:auto;margin:.3em 0}.command p{margin:.3em 0}#copied{margin-left:.6em;color:#2e7d32}\
    .earlier td{padding:.2em .6em;vertical-align:top;font-size:.9em}.earlier code{word-break:break-all}.tiles{display:flex;flex-wrap:wrap;gap:.8em}\
    .tile{margin:0;width:220px;background:#fff;border:1px solid #ddd;border-radius:6px;\
    padding:6px;position:relative}.tile img.still,.tile .still{width:100%;height:160px;\
    object-fit:contain;background:#eee;display:flex;align-items:center;justify-content:center}\
    .tile .motion{position:absolute;top:10px;right:10px;width:56px;height:42px;\
    object-fit:cover;border:2px solid #fff;background:#ccc;font-size:9px;display:flex;\
    align-items:center;justify-content:center;text-align:center}\
    .placeholder{color:#777;font-style:italic}.name{font-weight:600;word-break:break-all}\
    .date,.path{color:#555;font-size:.85em;word-break:break-all}.why{font-size:.85em}\
    .reason{font-family:monospace}.facts{margin:.2em 0;padding-left:1.1em;font-size:.85em}\
    .open{font-size:.85em}label{font-size:.85em;margin-right:.6em}\
    label.all{font-weight:normal;margin-left:.8em}p.later{color:#8a4b00;margin:.3em 0}
    """
}

import CairnStream

/// Every setting a run's outcome depends on, each defined once (see `SettingRule`).
///
/// To add a setting: add a `static let` rule here (`wholeNumber`, `percentage`, `choice`, or a
/// `SettingRule` of its own for another kind of value), add its `entry` to `all`, read it with
/// `rule.value(in: configuration)` (or `value(flag:in:)` where a tool has a flag for it), and
/// give it an `.It Ev` paragraph in cairn(7)'s ENVIRONMENT that says `default` and the default:
/// `SettingsTableTests` holds the page to the table, and `cairn-fetch check` reports every
/// setting of `all`.
package enum SettingsTable {
  package static let quarantineDays = SettingRule.wholeNumber(
    key: "CAIRN_QUARANTINE_DAYS", flag: "quarantine-days", label: "quarantine", range: 0...90,
    default: 14, unit: "days",
    meaning: "Days a confirmed deletion waits before it may be trashed (0 to 90)")

  package static let strictness = SettingRule<Strictness>.choice(
    key: "CAIRN_STRICTNESS", flag: "strictness", label: "strictness", default: .trusting,
    meaning: "trusting: unconfirmed deletions may be trashed; strict: they wait for review")

  package static let thresholdPercent = SettingRule.percentage(
    key: "CAIRN_THRESHOLD_PERCENT", flag: "threshold", label: "threshold", default: 1,
    of: "matched assets",
    meaning: "Most candidates one run may trash, as a percentage of matched assets")

  package static let floor = SettingRule.wholeNumber(
    key: "CAIRN_FLOOR", flag: "floor", label: "floor", range: 0...1_000_000, default: 5,
    unit: "candidates", meaning: "Plans with fewer candidates than this pass the threshold")

  package static let httpTimeout = SettingRule.wholeNumber(
    key: "CAIRN_HTTP_TIMEOUT", label: "request timeout", range: 1...600, default: 30,
    unit: "seconds", meaning: "Seconds each request to the server may take")

  package static let httpAttempts = SettingRule.wholeNumber(
    key: "CAIRN_HTTP_ATTEMPTS", label: "request attempts", range: 1...10, default: 4,
    unit: "at most", meaning: "How often a request that is safe to repeat is tried")

  package static let syncMaxLines = SettingRule.wholeNumber(
    key: "CAIRN_SYNC_MAX_LINES", label: "sync stream limit", range: 1000...1_000_000_000,
    default: 10_000_000, fallbackText: "10,000,000", unit: "lines",
    meaning: "Lines one sync stream may send before cairn-fetch lists page by page instead")

  package static let settleWait = SettingRule.wholeNumber(
    key: "CAIRN_SETTLE_WAIT", label: "settle wait", range: 0...3600,
    default: httpTimeout.fallback + 5, unit: "seconds",
    meaning: "Seconds the next run waits for the outcome of an interrupted run's DELETE"
  ).deriving("the request timeout plus 5") { configuration throws(CairnError) in
    // The longest the interrupted run itself would have waited for its answer.
    try httpTimeout.value(in: configuration) + 5
  }

  package static let watchSettle = SettingRule.wholeNumber(
    key: "CAIRN_WATCH_SETTLE", label: "watch settle", range: 0...600_000, default: 2000,
    unit: "ms",
    meaning: "Milliseconds a watched root goes without a deletion before its held "
      + "deletions are recorded")

  package static let reviewInImmich = SettingRule.onOff(
    key: "CAIRN_REVIEW_IN_IMMICH", label: "review in Immich", default: false,
    meaning: "on: mark waiting candidates in Immich and read the decisions tagged there",
    describe: { on in on ? "on (marks waiting candidates, reads the decisions tagged there)" : "off"
    })

  package static let notifyAttachReviewPage = SettingRule.onOff(
    key: "CAIRN_NOTIFY_ATTACH_REVIEW_PAGE", label: "review page in notifications", default: false,
    meaning: "on: cairn-nightly attaches the review page (thumbnails, names and folders of the "
      + "photos) to ntfy notifications",
    describe: { on in
      on ? "on (ntfy gets the photos' thumbnails, names and folders)" : "off (nothing of a photo)"
    })

  package static let maxAgeDays = SettingRule<Int?>(
    key: "CAIRN_MAX_AGE_DAYS", flag: nil, label: "age window", fallback: nil,
    meaning: "Deletions of photos taken more than this many days ago are not propagated",
    expected: "a whole number of days from 30 to 3650 (as the original app's setting)",
    read: { text -> Int?? in
      if text.isEmpty { return .some(nil) }
      guard let days = Int(text), (30...3650).contains(days) else { return nil }
      return .some(days)
    },
    show: { days in days.map { "photos taken more than \($0) days ago are kept" } ?? "off" },
    fallbackText: "off")

  package static let ignoredPaths = SettingRule<IgnoredPaths>(
    key: IgnoredPaths.setting, flag: nil, label: "ignored paths", fallback: .none,
    meaning: "Parts of each root never scanned nor judged: globs relative to the root",
    expected: "globs separated by colons, each inside its root (no . or .. segment)",
    read: { text in try? IgnoredPaths(text.split(separator: ":").map(String.init)) },
    show: { $0.isEmpty ? "none" : $0.patterns.joined(separator: ", ") }, fallbackText: "none")

  package static let library = SettingRule<[String]>.folders(
    key: "CAIRN_LIBRARY", label: "library",
    meaning: "The library folders that cairn-hash scans when given none, and the watcher watches")

  package static let trashFolders = SettingRule<[String]>.folders(
    key: "CAIRN_TRASH_FOLDERS", label: "trash folders",
    meaning: "More trash folders to read deletion signals from",
    describe: { extra in
      var builtIn = "the freedesktop.org Trash, .stversions and .dtrash in each root"
      #if os(macOS)
        builtIn += ", ~/.Trash"
      #endif
      return extra.isEmpty ? builtIn : builtIn + "; and " + extra.joined(separator: ", ")
    })

  /// The settings in the order `check` reports them.
  package static let all: [SettingEntry] = [
    quarantineDays.entry, strictness.entry, thresholdPercent.entry, floor.entry,
    httpTimeout.entry, httpAttempts.entry, syncMaxLines.entry, settleWait.entry,
    watchSettle.entry, maxAgeDays.entry, ignoredPaths.entry, library.entry, trashFolders.entry,
    reviewInImmich.entry, notifyAttachReviewPage.entry,
  ]
}

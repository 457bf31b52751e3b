import CairnCore
import Foundation

@testable import CairnReconcile
@testable import CairnState

// Tests write their scans as arrays of `ScannedFile`; the store takes `ScanFiles` (files read
// in place from the last snapshot, or parsed). These wrap an array as parsed files.

extension PartitionStore {
  @discardableResult
  func recordScan(
    _ files: [ScannedFile], completeRoots: Set<String>, scopedRoots: Set<String> = [],
    at now: Date, preloaded: ScanSnapshotPreload? = nil
  ) throws(CairnError) -> ScanRecordingSummary {
    try recordScan(
      ScanFiles(files), completeRoots: completeRoots, scopedRoots: scopedRoots, at: now,
      preloaded: preloaded)
  }

  func reconcile(
    files: [ScannedFile], scan: (any ScanContents)? = nil, roots: [RootStatus],
    assets: any AssetListing, settings: ReconciliationSettings, now: Date
  ) throws(CairnError) -> ReconciliationOutput {
    try reconcile(
      files: ScanFiles(files), scan: scan, roots: roots, assets: assets, settings: settings,
      now: now)
  }

  func reconciliationInput(
    files: [ScannedFile], scan: (any ScanContents)? = nil, roots: [RootStatus],
    assets: any AssetListing, settings: ReconciliationSettings, now: Date
  ) throws(CairnError) -> ReconciliationInput {
    try reconciliationInput(
      files: ScanFiles(files), scan: scan, roots: roots, assets: assets, settings: settings,
      now: now)
  }
}

extension ScanSnapshot.Contents {
  init(roots: [String], files: [ScannedFile], absent: [String], sharedIdentities: [String]) {
    self.init(
      roots: roots, files: ScanFiles(files), absent: absent, sharedIdentities: sharedIdentities)
  }
}

extension ScanDelta {
  init?(files: [ScannedFile], previous: ScanSnapshot) {
    self.init(files: ScanFiles(files), previous: previous)
  }
}

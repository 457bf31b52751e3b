import CairnCore
import Foundation

extension PartitionStore {
  /// Loads this partition's memory and runs the engine on it: the engine's input from the store,
  /// the scan and the server listing. Call after the scan has been recorded.
  public func reconciliationInput(
    files: [ScannedFile], roots: [RootStatus], assets: [AssetRecord],
    settings: ReconciliationSettings, now: Date
  ) throws(CairnError) -> ReconciliationInput {
    ReconciliationInput(
      files: files, roots: roots, observed: try observed.snapshot(),
      missingSince: try signals.missing(), confirmations: try signals.confirmations(),
      anchors: try anchors.all(), exclusions: try exclusions.checksums(), assets: assets,
      settings: settings, now: now)
  }

  /// Runs the engine and records what it found gone (first-missing times) and when.
  public func reconcile(
    files: [ScannedFile], roots: [RootStatus], assets: [AssetRecord],
    settings: ReconciliationSettings, now: Date
  ) throws(CairnError) -> ReconciliationOutput {
    let input = try reconciliationInput(
      files: files, roots: roots, assets: assets, settings: settings, now: now)
    let output = ReconciliationEngine.reconcile(input)
    try signals.recordMissing(output.gone, at: now)
    try meta.set(.lastReconcileAt, now)
    return output
  }
}

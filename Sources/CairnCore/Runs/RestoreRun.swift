import Foundation

/// Brings assets of cairn runs back from the Immich trash, checks that they are active again,
/// and journals each restore under the run that trashed it.
package struct RestoreRun {
  package let server: any RunServer
  package let journal: Journal

  package init(server: any RunServer, journal: Journal) {
    self.server = server
    self.journal = journal
  }

  /// One asset to restore and the run that trashed it.
  package struct Target: Sendable, Equatable {
    package var id: String
    package var runID: String
    package var checksum: String?
    package var originalFileName: String?
    package var livePhotoVideo: Bool

    package init(
      id: String, runID: String, checksum: String? = nil, originalFileName: String? = nil,
      livePhotoVideo: Bool = false
    ) {
      self.id = id.lowercased()
      self.runID = runID
      self.checksum = checksum
      self.originalFileName = originalFileName
      self.livePhotoVideo = livePhotoVideo
    }
  }

  package struct Outcome: Sendable {
    package var restored: [Target] = []
    package var failed: [Target] = []
    /// Checksums of restored assets (as the server reports them): the caller excludes them so
    /// the next run doesn't trash them again.
    package var restoredChecksums: [String] = []
    package var failure: CairnError?
  }

  package func execute(_ targets: [Target], dryRun: Bool, emit: (ResultRecord) -> Void) async
    -> Outcome
  {
    var outcome = Outcome()
    if dryRun {
      for target in targets { emit(result(target, "would-restore", nil)) }
      return outcome
    }
    for batch in targets.chunked(1000) {
      do throws(CairnError) {
        try await server.restore(assetIDs: batch.map(\.id))
      } catch {
        outcome.failure = error
        for (run, group) in Dictionary(grouping: batch, by: \.runID) {
          try? journal.append(
            JournalEntry(
              .failed, runID: run, assetIDs: group.map(\.id), step: "restore",
              message: error.message))
        }
        for target in batch { emit(result(target, "failed", error.message)) }
        outcome.failed.append(contentsOf: batch)
        continue
      }
      // The server counts ids, not rows it changed: ask about each asset.
      var verified: [Target] = []
      for target in batch {
        do throws(CairnError) {
          if let asset = try await server.asset(id: target.id), !asset.isTrashed {
            verified.append(target)
            if let checksum = asset.checksum ?? target.checksum {
              outcome.restoredChecksums.append(checksum)
            }
            emit(result(target, "restored", nil))
          } else {
            outcome.failed.append(target)
            emit(result(target, "failed", "still in the trash after the restore"))
          }
        } catch {
          outcome.failure = error
          outcome.failed.append(target)
          emit(result(target, "failed", "could not verify: \(error.message)"))
        }
      }
      outcome.restored.append(contentsOf: verified)
      do {
        for (run, group) in Dictionary(grouping: verified, by: \.runID).sorted(by: {
          $0.key < $1.key
        }) {
          try journal.append(JournalEntry(.restored, runID: run, assetIDs: group.map(\.id)))
        }
      } catch {
        outcome.failure = error
      }
    }
    return outcome
  }

  private func result(_ target: Target, _ action: String, _ message: String?) -> ResultRecord {
    ResultRecord(
      assetId: target.id, action: action, runId: target.runID, checksum: target.checksum,
      originalFileName: target.originalFileName, livePhotoVideo: target.livePhotoVideo ? true : nil,
      message: message)
  }
}

// The game solve's checkpoints (docs/PLAYERS.md "Checkpoints"): which
// finished contexts a checkpoint holds and in what order, when the solve
// loads, writes and deletes it, and how a stopped solve says where its work
// is. The file format is checkpoint.h's. In a cluster of more than one rank
// each rank keeps its own vectors' work in its own file (RankCheckpointPath),
// written by all ranks together between levels, and the one before it until
// every rank has written the new one: ranks killed while writing leave a
// level every rank still has, where they all resume. Internal to the solver.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "checkpoint.h"
#include "game_solver.h"
#include "level_schedule.h"
#include "level_share.h"
#include "solve_state.h"

namespace martiandice::solver {

// A point of the solve: every level before `level` finished, and the first
// `vectors` score vectors of that level.
struct SolvePoint {
  int level = 0;
  std::size_t vectors = 0;
};

class SolveCheckpoint {
 public:
  // `report` gets the checkpoints' figures (earlier_seconds, checkpoints_*).
  SolveCheckpoint(const GameSolveOptions& options, SolveState& state, const LevelSchedule& schedule,
                  LevelShare& share, GameSolveReport* report);

  bool enabled() const { return !path_.empty(); }
  // The counters of the work loaded (zero if none).
  const CheckpointCounters& loaded() const { return loaded_; }

  // Where the solve starts: a checkpoint of this solve loaded (its vectors
  // into the state), else the start, the first checkpoint written now (a
  // path that cannot be written fails before the work). In a cluster
  // (collective): the latest level every rank's files hold, this rank's own
  // vectors loaded (the caller shares them). Errors: CheckReplaceable's (a
  // path the writes would refuse, before it is read), the read's (DataLoss,
  // FailedPrecondition), an unusable checkpoint's (DataLoss) and the
  // write's; in a cluster any rank's, and the transport's.
  absl::StatusOr<SolvePoint> Open();
  // Writes the work finished before `at`, with the counters `counters`.
  absl::Status Write(SolvePoint at, const CheckpointCounters& counters);
  // Whether one is due after a level: checkpoint_interval seconds since the
  // last write, and 20 times that write's duration.
  bool Due() const;
  // Stopped at `at`: saves the work (if there is a checkpoint) and returns
  // Cancelled saying where the solve stopped and how to go on.
  absl::Status Interrupt(SolvePoint at, const CheckpointCounters& counters);
  // `status` (the solve failed at `at`), saying where the finished work is
  // saved if there is a checkpoint (and it could be written).
  absl::Status SaveAfter(const absl::Status& status, SolvePoint at,
                         const CheckpointCounters& counters);
  // After a finished solve: rewrites it whole if kept (and `solved` any
  // level in this run), else deletes it.
  absl::Status Finish(bool solved, const CheckpointCounters& counters);

 private:
  CheckpointIdentity Identity() const;
  absl::StatusOr<SolvePoint> OpenShared();
  bool shared() const { return share_.enabled() && schedule_.ranks() > 1; }
  std::string previous() const { return path_ + ".previous"; }
  template <typename Fn>
  void ForEachFinished(SolvePoint at, Fn fn) const;
  absl::Status Load(CheckpointReader& reader);

  SolveState& state_;
  const LevelSchedule& schedule_;
  LevelShare& share_;
  GameSolveReport* const report_;
  const std::string path_;
  const std::string resume_hint_;  // the Cancelled message's last words
  const double interval_;
  const bool keep_;
  CheckpointCounters loaded_;
  double last_write_end_ = 0, last_write_seconds_ = 0;  // schedule seconds
};

// The checkpoint file of `rank` of `ranks` for the solve's checkpoint
// `path`: `path` alone, else `path`.rank-R-of-N.
std::string RankCheckpointPath(const std::string& path, int rank, int ranks);

// A checkpoint file of `path` left by a solve of another number of processes
// than `ranks` (its first rank's file, and that number), where this solve's
// own is missing; none otherwise.
struct OtherLayout {
  std::string file;
  int ranks = 1;
};
std::optional<OtherLayout> OtherLayoutCheckpoint(const std::string& path, int ranks);

}  // namespace martiandice::solver

// A level's zero-score cycles in lockstep rounds: in groups of at most
// kCyclesInFlight cycles, each in a slot (its solver, buffers and stats).
// Each round every live cycle steps on the worker threads (its last round's
// results read, its next round's turns posted: cycle_task.h), then every
// posted turn is solved in one batch of the turn batch solver (turn_batch.h).
// Internal to the solver.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cycle_solve.h"
#include "level_schedule.h"
#include "pair_kernel.h"
#include "score_law_cache.h"
#include "solve_state.h"
#include "turn_batch.h"
#include "workers.h"

namespace martiandice::solver {

// Most cycles in flight at once: bounds the memory of their solvers (a
// recorded policy per mover, twice: about 80 KB a mover) and of a batch, and
// how long a stop waits. 32 keeps the official 3-player solve's peak near
// 40 MB and solves as fast as 256 on two cores; a backend that wants larger
// batches raises it.
inline constexpr std::size_t kCyclesInFlight = 32;

class CycleRounds {
 public:
  // `laws`: the settling passes' turn-score laws; `pool`: the threads of the
  // steps (ThreadedTurnBatch's too, when it solves the batches). Keeps
  // references to all.
  CycleRounds(const GameSolveOptions& options, SolveState& state, LevelSchedule& schedule,
              ScoreLawCache& laws, TurnBatchSolver& batch, WorkerPool& pool);
  ~CycleRounds();

  // How far a level's cycles got: the prefix of its vectors done, and the
  // error that ended it (ok if none).
  struct Done {
    std::size_t vectors = 0;
    absl::Status status;
  };
  // Solves the cycles among level `level`'s vectors from `from` on (the
  // final-round ones are FinalRound's, solved before), a group at a time,
  // with progress. The stop flag is polled between batches: a group stopped
  // or failed is dropped (its counters too; it is solved again on resume).
  // Errors: the batch solver's and the worker pool's (workers.h).
  Done SolveLevel(int level, std::size_t from);

  // Every slot's stats (one entry per slot, made as needed).
  const std::vector<const SolveStats*>& stats() const { return stats_; }

 private:
  struct Slot;
  Slot& SlotAt(std::size_t k);
  absl::StatusOr<bool> RunGroup(long long before);
  absl::Status Step();
  absl::Status SolveBatch();

  SolveState& state_;
  LevelSchedule& schedule_;
  ScoreLawCache& laws_;
  TurnBatchSolver& batch_;
  const int guess_order_, probe_order_;
  WorkerPool& pool_;  // every round's steps (the threaded batches' too)
  std::optional<PairKernel::Shared> pair_shared_;  // two players, kAuto
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<const SolveStats*> stats_;
  std::vector<Slot*> live_;            // the group's cycles not done
  std::vector<char> done_;             // per live cycle: ended by the last step
  std::vector<TurnRequest> requests_;  // a round's batch (storage swapped with the slots')
  std::vector<TurnResult> results_;
};

}  // namespace martiandice::solver

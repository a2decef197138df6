// A level's zero-score cycles, on one of two schedules (each cycle a task
// that posts a round of turns per step: cycle_task.h):
// - lockstep rounds, for a turn batch solver of the caller's (a GPU, a
//   cluster: large batches): in groups of at most GameSolveOptions::cycles_in_flight cycles,
//   each in a slot (its solver, buffers and stats); each round every live
//   cycle steps on the worker threads, then every posted turn is solved in
//   one batch (turn_batch.h);
// - streams, for the worker threads' own solve: each worker takes the next
//   cycle and runs it to its end, its rounds' turns a batch it solves itself
//   (a one-thread ThreadedTurnBatch), so a cycle's data stays with one
//   thread (in its core's cache) and no worker waits at a round's end
//   (lockstep on two threads cost 7-9 % of a 3-player solve's time).
// Both give the same values, bit for bit (turn_batch.h's contract).
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

class CycleRounds {
 public:
  // `laws`: the settling passes' turn-score laws; `pool`: the threads of the
  // steps and streams; `batch`: the lockstep rounds' solver, or null for
  // streams. Keeps references to all.
  CycleRounds(const GameSolveOptions& options, SolveState& state, LevelSchedule& schedule,
              ScoreLawCache& laws, TurnBatchSolver* batch, WorkerPool& pool);
  ~CycleRounds();

  // How far a level's cycles got: the prefix of its vectors done, and the
  // error that ended it (ok if none).
  struct Done {
    std::size_t vectors = 0;
    absl::Status status;
  };
  // Solves the cycles among level `level`'s vectors from `from` on (the
  // final-round ones are FinalRound's, solved before), with progress. The
  // stop flag is polled between batches (lockstep: a group stopped is
  // dropped, its counters too, and solved again on resume) or before each
  // cycle is taken (streams: the cycles taken are finished). Work that
  // fails is dropped (lockstep: the group; streams: the level from `from`).
  // Errors: the batch solver's and the worker pool's (workers.h).
  Done SolveLevel(int level, std::size_t from);

  // Every slot's stats (one entry per slot, made as needed).
  const std::vector<const SolveStats*>& stats() const { return stats_; }

 private:
  struct Slot;
  Slot& SlotAt(std::size_t k);
  Done Lockstep(int level, std::size_t from);
  Done Streams(int level, std::size_t from);
  absl::Status RunCycle(int worker, const int* s);
  absl::StatusOr<bool> RunGroup(long long before);
  absl::Status Step();
  absl::Status SolveBatch();

  SolveState& state_;
  LevelSchedule& schedule_;
  ScoreLawCache& laws_;
  TurnBatchSolver* const batch_;  // lockstep's; null: streams
  const int guess_order_, probe_order_;
  const std::size_t cycles_in_flight_;  // a lockstep group's most cycles
  WorkerPool& pool_;  // every round's steps (the threaded batches' too)
  std::optional<PairKernel::Shared> pair_shared_;  // two players, kAuto
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<const SolveStats*> stats_;
  std::vector<Slot*> live_;            // the group's cycles not done
  std::vector<char> done_;             // per live cycle: ended by the last step
  std::vector<TurnRequest> requests_;  // a round's batch (storage swapped with the slots')
  std::vector<TurnResult> results_;
  std::vector<std::unique_ptr<ThreadedTurnBatch>> own_;  // streams: per worker
};

}  // namespace martiandice::solver

// A level's zero-score cycles, on one of two schedules (each cycle a task
// that posts a round of turns per step: cycle_task.h):
// - lockstep rounds, for a turn batch solver of the caller's (a GPU, a
//   cluster: large batches): at most GameSolveOptions::cycles_in_flight
//   cycles at a time, each in a slot (its solver, buffers and stats); each
//   round every live cycle steps on the worker threads, then every posted
//   turn is solved in one batch (turn_batch.h); a slot whose cycle ends
//   takes the next one at once, so the batches stay full;
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

// The lockstep rounds' most cycles in flight: options.cycles_in_flight, or
// where it is 0 the turn batch's choice (TurnBatchSolver::CyclesInFlight;
// kCyclesInFlight without one). Not range-checked: the solve checks it.
std::size_t CyclesInFlight(const GameSolveOptions& options);

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
  // stop flag is polled before each cycle is taken: once it is set none is
  // taken, and the cycles taken are finished. Work that fails drops the
  // level's cycles from `from` on, their counters too (solved again on
  // resume). Errors: the batch solver's and the worker pool's (workers.h).
  Done SolveLevel(int level, std::size_t from);

  // Every slot's stats (one entry per slot, made as needed).
  const std::vector<const SolveStats*>& stats() const { return stats_; }

 private:
  struct Slot;
  Slot& SlotAt(std::size_t k);
  Done Lockstep(int level, std::size_t from);
  Done Streams(int level, std::size_t from);
  absl::Status RunCycle(int worker, const int* s);
  struct Group;
  absl::Status TopUp(Group& group, const std::vector<std::uint64_t>& vectors, std::size_t* next,
                     long long* finished);
  absl::Status Step(Group& group, std::vector<Slot*>& cycles, long long* finished);
  absl::Status SolveBatch(Group& group);

  SolveState& state_;
  LevelSchedule& schedule_;
  ScoreLawCache& laws_;
  TurnBatchSolver* const batch_;  // lockstep's; null: streams
  const int guess_order_, probe_order_;
  const std::size_t cycles_in_flight_;  // lockstep's most cycles at a time
  WorkerPool& pool_;                    // every round's steps (the threaded batches' too)
  std::optional<PairKernel::Shared> pair_shared_;  // two players, kAuto
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<const SolveStats*> stats_;
  // Lockstep's one group, or two taking turns (a batch solver beside the steps).
  std::unique_ptr<Group[]> groups_;
  std::optional<WorkerPool> beside_;  // two taking turns: the batch's helper thread
  std::vector<std::unique_ptr<ThreadedTurnBatch>> own_;  // streams: per worker
};

}  // namespace martiandice::solver

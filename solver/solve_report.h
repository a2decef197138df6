// The game solve's counters: what each thread measures (SolveStats), the
// part a checkpoint keeps across runs (CheckpointCounters), and the one
// merge of both into the GameSolveReport. Internal to the solver.
#pragma once

#include <span>
#include <vector>

#include "checkpoint.h"
#include "game_solver.h"

namespace martiandice::solver {

// What one thread measured.
struct SolveStats {
  CheckpointCounters counters;  // the part a checkpoint keeps
  // This run's only: GameSolveReport's fields of the same names.
  long long settle_passes = 0, settle_reused = 0;
  std::vector<MixedCycleReport> mixed;
  long long probe_apart = 0;
  double probe_largest = 0;
  std::vector<std::vector<int>> probe_examples;
  long long probe_unconverged = 0;
  std::vector<std::vector<int>> probe_unconverged_examples;
  std::vector<std::vector<int>> unconverged_examples;
};

// Adds a solved zero-score cycle's figures.
void RecordCycle(int rounds, double residual, double error, CheckpointCounters& counters);

// Adds mover's tie counts (one context's decision points).
void CountTies(long long tied, long long kingmaking, CheckpointCounters& counters);

// `loaded` (a checkpoint's counters) plus every thread's.
CheckpointCounters MergeCounters(const CheckpointCounters& loaded,
                                 std::span<const SolveStats* const> threads);

// Sets `report`'s counters from `all` (MergeCounters's) and the threads'
// figures of this run; the other fields are left as they are.
void ReportCounters(const CheckpointCounters& all, std::span<const SolveStats* const> threads,
                    GameSolveReport* report);

}  // namespace martiandice::solver

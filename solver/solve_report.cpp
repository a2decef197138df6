// The game solve's counters merged: the threads' with the checkpoint's, and
// into the report.
#include "solve_report.h"

#include <algorithm>

namespace martiandice::solver {

void RecordCycle(int rounds, double residual, double error, CheckpointCounters& counters) {
  ++counters.cycles;
  counters.rounds += rounds;
  counters.max_rounds = std::max<std::uint32_t>(counters.max_rounds, rounds);
  counters.max_residual = std::max(counters.max_residual, residual);
  counters.error_bound = std::max(counters.error_bound, error);
}

void CountTies(long long tied, long long kingmaking, CheckpointCounters& counters) {
  counters.tied += tied;
  counters.kingmaking += kingmaking;
  counters.kingmaking_contexts += kingmaking > 0;
}

CheckpointCounters MergeCounters(const CheckpointCounters& loaded,
                                 std::span<const SolveStats* const> threads) {
  CheckpointCounters all = loaded;
  for (const SolveStats* thread : threads) {
    const CheckpointCounters& c = thread->counters;
    all.turn_solves += c.turn_solves;
    all.cycles += c.cycles;
    all.rounds += c.rounds;
    all.tied += c.tied;
    all.kingmaking += c.kingmaking;
    all.kingmaking_contexts += c.kingmaking_contexts;
    all.max_rounds = std::max(all.max_rounds, c.max_rounds);
    all.max_residual = std::max(all.max_residual, c.max_residual);
    all.error_bound = std::max(all.error_bound, c.error_bound);
    all.mixed_cycles += c.mixed_cycles;
    all.mixing_error = std::max(all.mixing_error, c.mixing_error);
  }
  return all;
}

namespace {

// Each thread's examples, then the first kProbeExamples of them all.
std::vector<std::vector<int>> FirstExamples(std::span<const SolveStats* const> threads,
                                            std::vector<std::vector<int>> SolveStats::*examples) {
  std::vector<std::vector<int>> all;
  for (const SolveStats* thread : threads) {
    all.insert(all.end(), (thread->*examples).begin(), (thread->*examples).end());
  }
  std::sort(all.begin(), all.end());
  if (all.size() > static_cast<size_t>(kProbeExamples)) all.resize(kProbeExamples);
  return all;
}

}  // namespace

void ReportCounters(const CheckpointCounters& all, std::span<const SolveStats* const> threads,
                    GameSolveReport* report) {
  report->turn_solves = static_cast<long long>(all.turn_solves);
  report->cycles = static_cast<long long>(all.cycles);
  report->max_rounds = static_cast<int>(all.max_rounds);
  report->mean_rounds =
      all.cycles > 0 ? static_cast<double>(all.rounds) / static_cast<double>(all.cycles) : 0;
  report->max_residual = all.max_residual;
  report->error_bound = all.error_bound;
  report->tied_decisions = static_cast<long long>(all.tied);
  report->kingmaking = static_cast<long long>(all.kingmaking);
  report->kingmaking_contexts = static_cast<long long>(all.kingmaking_contexts);
  report->mixed_cycles = static_cast<long long>(all.mixed_cycles);
  report->mixing_error = all.mixing_error;
  for (const SolveStats* thread : threads) {
    report->settle_passes += thread->settle_passes;
    report->settle_reused += thread->settle_reused;
    report->mixed.insert(report->mixed.end(), thread->mixed.begin(), thread->mixed.end());
    report->probe_apart += thread->probe_apart;
    report->probe_largest = std::max(report->probe_largest, thread->probe_largest);
    report->probe_unconverged += thread->probe_unconverged;
  }
  report->probe_examples = FirstExamples(threads, &SolveStats::probe_examples);
  report->probe_unconverged_examples =
      FirstExamples(threads, &SolveStats::probe_unconverged_examples);
  report->unconverged_examples = FirstExamples(threads, &SolveStats::unconverged_examples);
  std::sort(
      report->mixed.begin(), report->mixed.end(),
      [](const MixedCycleReport& a, const MixedCycleReport& b) { return a.scores < b.scores; });
}

}  // namespace martiandice::solver

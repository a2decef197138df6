// The order of the game solve: score vectors by the sum of their totals (a
// scoring turn raises it), solved backward from the largest sum, a level (one
// sum) at a time; the vectors of a level are independent (final_round.h,
// cycle_rounds.h solve them). Also the solve's clock, its progress reports
// (weighted by each vector's expected cost) and its stop flag. Internal to
// the solver. In a cluster (solve_cluster.h) each rank solves its share of
// every level: the vectors whose seat 0 total is the rank modulo the ranks
// (SolveState::Own), so that a turn of seats 1.. reads the rank's own values
// and only seat 0's reads another's (level_share.h sends those).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "game_solver.h"
#include "solve_state.h"

namespace martiandice::solver {

class LevelSchedule {
 public:
  LevelSchedule(const GameSolveOptions& options, const SolveState& state);

  int levels() const { return static_cast<int>(by_sum_.size()); }
  // The k-th level solved: this rank's score vectors of the k-th largest
  // sum, packed mixed radix (Unpack); alone, all of them.
  const std::vector<std::uint64_t>& Level(int k) const {
    return (state_.ranks > 1 ? mine_ : by_sum_)[by_sum_.size() - 1 - k];
  }
  // Every rank's vectors of the k-th level, in order.
  const std::vector<std::uint64_t>& AllOf(int k) const { return by_sum_[by_sum_.size() - 1 - k]; }
  // The k-th level's sum of totals.
  int Sum(int k) const { return levels() - 1 - k; }
  // The rank that solves the packed score vector `code`.
  int Owner(std::uint64_t code) const {
    return RankOfTotal(static_cast<int>(code / lead_), state_.ranks);
  }
  int rank() const { return state_.rank; }
  int ranks() const { return state_.ranks; }
  // Every seat's total of a packed score vector, into s[0..players).
  void Unpack(std::uint64_t code, int* s) const;

  // Progress weight of a packed score vector (its expected turn solves).
  long long VectorCost(std::uint64_t code) const;
  // Progress weight of the work before level `level`'s vector `vectors`.
  long long CostBefore(int level, std::size_t vectors) const;
  double Fraction(long long cost) const;
  // The work loaded from a checkpoint (the rate of progress excludes it).
  void SetResumed(long long cost) { resumed_cost_ = cost; }

  double Seconds() const;  // since the schedule was made
  // Whether to stop now, within a level. In a cluster never: the ranks
  // agree between levels (StopAsked, level_share.h).
  bool Stopped() const { return !clustered_ && StopAsked(); }
  // Whether the stop flag is set.
  bool StopAsked() const { return stop_ != nullptr && stop_->load(std::memory_order_relaxed); }
  // Calls the progress callback (from the calling thread), `done` the cost
  // of the work done.
  void Progress(long long done);
  // Progress(done) if the progress interval has passed since the last call.
  void ProgressIfDue(long long done);

 private:
  std::vector<std::vector<std::uint64_t>> ScoreVectorsBySum(const std::vector<int>& floor) const;

  const SolveState& state_;
  const int n_, wide_;
  const std::uint64_t lead_;  // seat 0's place in a packed vector: wide^(players - 1)
  const std::function<void(const GameSolveProgress&)> progress_;
  const double progress_interval_;
  const std::atomic<bool>* const stop_;
  const std::chrono::steady_clock::time_point begin_ = std::chrono::steady_clock::now();
  const bool clustered_;                            // a cluster's rank (GameSolveOptions::cluster)
  std::vector<std::vector<std::uint64_t>> by_sum_;  // score vectors by sum of totals
  std::vector<std::vector<std::uint64_t>> mine_;    // this rank's of them (more than one rank)
  std::vector<long long> level_cost_;               // per level solved (Level(k))
  long long total_cost_ = 0, resumed_cost_ = 0;     // progress weights
  double last_progress_ = 0;                        // seconds, at the last callback
};

}  // namespace martiandice::solver

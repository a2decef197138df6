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

#include <algorithm>
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

  int levels() const { return static_cast<int>(mine_.size()); }
  // The k-th level solved: this rank's score vectors of the k-th largest
  // sum, packed mixed radix (Unpack), in increasing order; alone, all of them.
  const std::vector<std::uint64_t>& Level(int k) const { return mine_[mine_.size() - 1 - k]; }
  // Calls visit(code) for every rank's vectors of the k-th level in
  // increasing order (each rank's Level(k) a subsequence), made on the fly:
  // a rank lists only its own (8 bytes a vector), not the whole game's.
  template <class Visit>
  void ForEachOf(int k, Visit&& visit) const {
    int s[kMaxPlayers];
    Compose(0, Sum(k), 0, s, visit);
  }
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
  // This rank's score vectors (alone: all) by the sum of their totals.
  std::vector<std::vector<std::uint64_t>> ScoreVectorsBySum() const;
  // Whether totals s (each at or above the floor) have a context: the last
  // seat is below the target, else the game is over.
  bool HasContext(const int* s) const { return s[n_ - 1] < state_.rules.target; }
  // ForEachOf's enumeration: seats `seat`.. get totals summing to `left`
  // (each in [floor, wide)), in lexicographic order, which is the packed
  // codes' increasing order; `code` holds the seats before.
  template <class Visit>
  void Compose(int seat, int left, std::uint64_t code, int* s, Visit& visit) const {
    if (seat == n_ - 1) {
      if (left < floor_[seat] || left >= wide_) return;
      s[seat] = left;
      if (HasContext(s)) visit(code * wide_ + left);
      return;
    }
    const int rest = n_ - 1 - seat;  // seats after this one
    const int most = std::min(wide_ - 1, left - floor_rest_[seat + 1]);
    for (int v = std::max(floor_[seat], left - rest * (wide_ - 1)); v <= most; ++v) {
      s[seat] = v;
      Compose(seat + 1, left - v, code * wide_ + v, s, visit);
    }
  }

  const SolveState& state_;
  const int n_, wide_;
  const std::uint64_t lead_;  // seat 0's place in a packed vector: wide^(players - 1)
  const std::function<void(const GameSolveProgress&)> progress_;
  const double progress_interval_;
  const std::atomic<bool>* const stop_;
  const std::chrono::steady_clock::time_point begin_ = std::chrono::steady_clock::now();
  const bool clustered_;                  // a cluster's rank (GameSolveOptions::cluster)
  int floor_[kMaxPlayers] = {};           // each seat's least total (GameSolveOptions::floor)
  int floor_rest_[kMaxPlayers + 1] = {};  // the floor's sum over seats j..
  std::vector<std::vector<std::uint64_t>> mine_;  // this rank's score vectors by sum of totals
  std::vector<long long> level_cost_;             // per level solved (Level(k))
  long long total_cost_ = 0, resumed_cost_ = 0;   // progress weights
  double last_progress_ = 0;                      // seconds, at the last callback
};

}  // namespace martiandice::solver

// The levels of the game solve and the progress.
#include "level_schedule.h"

#include <algorithm>

#include "solve_cluster.h"

namespace martiandice::solver {

LevelSchedule::LevelSchedule(const GameSolveOptions& options, const SolveState& state)
    : state_(state),
      n_(options.players),
      wide_(state.wide),
      lead_([&] {
        std::uint64_t lead = 1;
        for (int j = 1; j < options.players; ++j) lead *= state.wide;
        return lead;
      }()),
      progress_(options.progress),
      progress_interval_(options.progress_interval),
      stop_(options.stop),
      clustered_(options.cluster != nullptr) {
  for (int j = 0; j < static_cast<int>(options.floor.size()) && j < n_; ++j) {
    floor_[j] = options.floor[j];
  }
  for (int j = n_ - 1; j >= 0; --j) floor_rest_[j] = floor_rest_[j + 1] + floor_[j];
  mine_ = ScoreVectorsBySum();
  level_cost_.assign(mine_.size(), 0);
  for (int k = 0; k < levels(); ++k) {
    for (std::uint64_t code : Level(k)) level_cost_[k] += VectorCost(code);
    total_cost_ += level_cost_[k];
  }
}

// This rank's score vectors (every one alone), by the sum of their totals,
// each sum's in increasing order: ForEachOf's enumeration, the owned kept.
std::vector<std::vector<std::uint64_t>> LevelSchedule::ScoreVectorsBySum() const {
  std::vector<std::vector<std::uint64_t>> by_sum(n_ * (wide_ - 1) + 1);
  int s[kMaxPlayers];
  for (int sum = 0; sum < static_cast<int>(by_sum.size()); ++sum) {
    auto keep = [&](std::uint64_t code) {
      if (Owner(code) == state_.rank) by_sum[sum].push_back(code);
    };
    Compose(0, sum, 0, s, keep);
  }
  return by_sum;
}

void LevelSchedule::Unpack(std::uint64_t code, int* s) const {
  for (int j = n_ - 1; j >= 0; --j) {
    s[j] = static_cast<int>(code % wide_);
    code /= wide_;
  }
}

// Progress weight of a score vector, in hundredths of a turn solve.
long long LevelSchedule::VectorCost(std::uint64_t code) const {
  int s[kMaxPlayers];
  Unpack(code, s);
  const int first = state_.FirstMover(s);
  static constexpr long long kCycle = static_cast<long long>(kCycleCost * 100 + 0.5);
  static constexpr long long kFinal = static_cast<long long>(kFinalCost * 100 + 0.5);
  return first == 0 ? kCycle * n_ : kFinal * (n_ - first);
}

long long LevelSchedule::CostBefore(int level, std::size_t vectors) const {
  long long cost = 0;
  for (int k = 0; k < level; ++k) cost += level_cost_[k];
  for (std::size_t v = 0; v < vectors; ++v) cost += VectorCost(Level(level)[v]);
  return cost;
}

double LevelSchedule::Fraction(long long cost) const {
  return total_cost_ > 0 ? static_cast<double>(cost) / static_cast<double>(total_cost_) : 1.0;
}

double LevelSchedule::Seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
}

void LevelSchedule::Progress(long long done) {
  last_progress_ = Seconds();
  if (!progress_) return;
  GameSolveProgress p;
  p.fraction = Fraction(done);
  p.seconds = last_progress_;
  if (done == total_cost_) {
    p.seconds_left = 0;
  } else if (done > resumed_cost_ && p.seconds > 0) {
    p.seconds_left = p.seconds * static_cast<double>(total_cost_ - done) /
                     static_cast<double>(done - resumed_cost_);
  }
  progress_(p);
}

void LevelSchedule::ProgressIfDue(long long done) {
  if (progress_ && Seconds() - last_progress_ >= progress_interval_) Progress(done);
}

}  // namespace martiandice::solver

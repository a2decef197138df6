// Internal: the N-player turn solve (docs/PLAYERS.md): the mover's dynamic
// program with the tie convention, carrying other utilities along.
#include "convention_turn.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace martiandice::internal {
namespace {

constexpr int kMaxCarried = 8;
// A chosen action may lose this much to another per decision and still count
// as optimal over the range [lo, hi] (rounding of equal values; see
// Parametric::kSlack in turn_model.cpp).
constexpr double kSlack = 1e-16;

// One action at a decision: the mover's value and the carried utilities.
struct Action {
  double value = 0;
  const double* carried = nullptr;
};

class ConventionSolver {
 public:
  ConventionSolver(const TurnModel& model, const std::vector<double>& utility,
                   std::span<const std::vector<double>> carried_utilities, unsigned watched,
                   ConventionTurn* out, std::vector<double>& stop_carried,
                   std::vector<double>& law_value, std::vector<double>& law_carried)
      : model_(model),
        k_(static_cast<int>(carried_utilities.size())),
        watched_(watched),
        start_(model.Id(0, 0, 0, 0, 0)),
        out_(*out),
        stop_carried_(stop_carried),
        law_value_(law_value),
        law_carried_(law_carried) {
    const int size = model.size();
    out_.carried_count = k_;
    out_.tied_decisions = out_.kingmaking = 0;
    out_.lo = -HUGE_VAL;
    out_.hi = HUGE_VAL;
    TurnValues& v = out_.values;
    v.stop.resize(size);
    v.roll.assign(size, std::numeric_limits<double>::quiet_NaN());
    v.value.resize(size);
    for (int id = 0; id < size; ++id) v.stop[id] = utility[model.state(id).score];
    out_.carried.resize(static_cast<size_t>(size) * k_);
    stop_carried_.resize((model.MaxScore() + 1) * k_);
    for (int s = 0; s <= model.MaxScore(); ++s) {
      for (int k = 0; k < k_; ++k) stop_carried_[s * k_ + k] = carried_utilities[k][s];
    }
    law_value_.resize(model.LawCount());
    law_carried_.resize(static_cast<size_t>(model.LawCount()) * k_);
  }

  void Run() {
    for (int level = 0; level <= model_.rules().dice; ++level) {
      OutcomeLaws(level);
      StopOrRoll(level);
    }
  }

 private:
  const double* StopCarried(int id) const { return &stop_carried_[model_.state(id).score * k_]; }
  double* CarriedOf(int id) { return &out_.carried[static_cast<size_t>(id) * k_]; }

  // The chosen action stays optimal under a shift d of utility[0] while
  // gap + dslope * d >= -kSlack (|d| <= 1: it is a probability).
  void Keep(const Action& chosen, const Action& other) {
    double gap = std::max(0.0, chosen.value - other.value);
    double dslope = chosen.carried[0] - other.carried[0];
    if (gap + kSlack >= std::abs(dslope)) return;
    if (dslope > 0) {
      out_.lo = std::max(out_.lo, -(gap + kSlack) / dslope);
    } else if (dslope < 0) {
      out_.hi = std::min(out_.hi, (gap + kSlack) / -dslope);
    }
  }

  // Counts a tie between the chosen action and another, and kingmaking when a
  // watched carried utility differs between them.
  void CountTie(const Action& chosen, const Action& other, bool* tied, bool* kingmaking) const {
    *tied = true;
    for (unsigned bits = watched_; bits != 0; bits &= bits - 1) {
      int k = std::countr_zero(bits);
      if (std::abs(chosen.carried[k] - other.carried[k]) > kConventionTie) *kingmaking = true;
    }
  }

  // Phase "choose a take" for one class of outcomes: rays (if shown) and the
  // earthling takes of the counts present; the convention picks rays, then
  // more dice, among the actions tied with the best.
  Action ChooseTake(const Action* take, std::uint32_t present, bool has_rays, const Action& rays) {
    double best = has_rays ? rays.value : -HUGE_VAL;
    for (std::uint32_t bits = present; bits != 0; bits &= bits - 1) {
      best = std::max(best, take[std::countr_zero(bits)].value);
    }
    const double bar = best - kConventionTie;
    Action chosen;
    if (has_rays && rays.value >= bar) {
      chosen = rays;
    } else {
      // The best is a take here, so the scan down from the most dice ends.
      int x = 31 - std::countl_zero(present);
      while (!(present >> x & 1u) || take[x].value < bar) --x;
      chosen = take[x];
    }
    bool tied = false, kingmaking = false;
    auto consider = [&](const Action& other) {
      if (other.carried == chosen.carried) return;  // the chosen action itself
      if (other.value >= bar) CountTie(chosen, other, &tied, &kingmaking);
      Keep(chosen, other);
    };
    if (has_rays) consider(rays);
    for (std::uint32_t bits = present; bits != 0; bits &= bits - 1) {
      consider(take[std::countr_zero(bits)]);
    }
    out_.tied_decisions += tied;
    out_.kingmaking += kingmaking;
    return chosen;
  }

  // Phase "outcome laws": for each group (position after the tanks) at this
  // level and each q, the weighted sums over the q other dice's outcome
  // classes of the chosen action's value and carried utilities.
  void OutcomeLaws(int level) {
    const TurnValues& v = out_.values;
    Action take[kMaxDice + 1];
    double sums[kMaxCarried];
    for (int group : model_.Level(level)) {
      const CanonState& g = model_.state(group);
      for (int x = 1; g.untaken > 0 && x <= g.left; ++x) {
        const int child = model_.EarthChild(group, x);
        take[x] = {v.value[child], CarriedOf(child)};
      }
      const Action turn_over = {v.stop[group], StopCarried(group)};
      for (int q = 0; q <= g.left; ++q) {
        const int ray_child = model_.RayChild(group, q);
        const bool has_rays = ray_child >= 0;
        const Action rays = has_rays ? Action{v.value[ray_child], CarriedOf(ray_child)} : Action{};
        double sum = 0;
        std::fill(sums, sums + k_, 0.0);
        for (const EarthClass& cls : model_.Classes(g.untaken, q)) {
          // Without rays and without an earthling to take, the turn is over.
          Action chosen = cls.present != 0 ? ChooseTake(take, cls.present, has_rays, rays)
                          : has_rays       ? rays
                                           : turn_over;
          sum += cls.weight_d * chosen.value;
          for (int k = 0; k < k_; ++k) sums[k] += cls.weight_d * chosen.carried[k];
        }
        const int law = model_.LawIndex(group, q);
        law_value_[law] = sum;
        std::copy(sums, sums + k_, &law_carried_[static_cast<size_t>(law) * k_]);
      }
    }
  }

  // Phase "stop or roll": the roll value from the outcome laws, then the
  // convention's choice (stop when tied; no stopping before the first roll).
  void StopOrRoll(int level) {
    TurnValues& v = out_.values;
    double roll_carried[kMaxCarried];
    for (int id : model_.Level(level)) {
      double* carried = CarriedOf(id);
      const Action stop = {v.stop[id], StopCarried(id)};
      if (level == 0) {
        v.value[id] = stop.value;
        std::copy(stop.carried, stop.carried + k_, carried);
        continue;
      }
      double roll = 0;
      std::fill(roll_carried, roll_carried + k_, 0.0);
      for (const RollTerm& term : model_.Terms(id)) {
        roll += term.weight_d * law_value_[term.law];
        const double* law = &law_carried_[static_cast<size_t>(term.law) * k_];
        for (int k = 0; k < k_; ++k) roll_carried[k] += term.weight_d * law[k];
      }
      v.roll[id] = roll;
      const Action rolling = {roll, roll_carried};
      const bool rolls = id == start_ || roll > stop.value + kConventionTie;
      if (id != start_) {
        const Action& chosen = rolls ? rolling : stop;
        const Action& other = rolls ? stop : rolling;
        if (other.value >= chosen.value - kConventionTie) {
          bool tied = false, kingmaking = false;
          CountTie(chosen, other, &tied, &kingmaking);
          out_.tied_decisions += tied;
          out_.kingmaking += kingmaking;
        }
        Keep(chosen, other);
      }
      const Action& chosen = rolls ? rolling : stop;
      v.value[id] = chosen.value;
      std::copy(chosen.carried, chosen.carried + k_, carried);
    }
  }

  const TurnModel& model_;
  const int k_;
  const unsigned watched_;
  const int start_;
  ConventionTurn& out_;
  // Scratch reused by the thread's next solve.
  std::vector<double>& stop_carried_;  // carried utilities by score, score-major
  std::vector<double>& law_value_;
  std::vector<double>& law_carried_;
};

}  // namespace

void SolveConvention(const TurnModel& model, const std::vector<double>& utility,
                     std::span<const std::vector<double>> carried_utilities, unsigned watched,
                     ConventionTurn* out) {
  // Reused across solves on this thread: repeated solves allocate nothing.
  thread_local std::vector<double> stop_carried, law_value, law_carried;
  ConventionSolver(model, utility, carried_utilities, watched, out, stop_carried, law_value,
                   law_carried)
      .Run();
}

}  // namespace martiandice::internal

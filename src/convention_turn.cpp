// Internal: the N-player turn solve (docs/PLAYERS.md): the mover's dynamic
// program with the tie convention, carrying other utilities along.
#include "convention_turn.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace martiandice::internal {
namespace {

// A chosen action may lose this much to another per decision and still count
// as optimal over the range [lo, hi] (rounding of equal values; see
// Parametric::kSlack in turn_model.cpp).
constexpr double kSlack = 1e-16;

// Every position, law and final score holds a record of W = 1 + K numbers:
// the mover's value, then the K carried utilities' expectations.
template <class Real, int W>
class ConventionSolver {
 public:
  ConventionSolver(const TurnModel& model, const std::vector<double>& utility,
                   std::span<const std::vector<double>> carried_utilities, unsigned watched,
                   ConventionTurn* out, std::vector<Real>& node, std::vector<Real>& law,
                   std::vector<Real>& stop)
      : model_(model),
        watched_(watched),
        start_(model.Id(0, 0, 0, 0, 0)),
        out_(*out),
        node_(node),
        laW(law),
        stop_(stop) {
    node_.resize(static_cast<size_t>(model.size()) * W);
    laW.resize(static_cast<size_t>(model.LawCount()) * W);
    stop_.resize(static_cast<size_t>(model.MaxScore() + 1) * W);
    for (int s = 0; s <= model.MaxScore(); ++s) {
      stop_[s * W] = utility[s];
      for (int k = 1; k < W; ++k) stop_[s * W + k] = carried_utilities[k - 1][s];
    }
    out_.tied_decisions = out_.kingmaking = 0;
    out_.lo = -HUGE_VAL;
    out_.hi = HUGE_VAL;
  }

  void Run() {
    for (int level = 0; level <= model_.rules().dice; ++level) {
      OutcomeLaws(level);
      StopOrRoll(level);
    }
    const Real* start = Node(start_);
    out_.value = static_cast<double>(start[0]);
    out_.carried.resize(W - 1);
    for (int k = 1; k < W; ++k) out_.carried[k - 1] = static_cast<double>(start[k]);
  }

 private:
  Real* Node(int id) { return &node_[static_cast<size_t>(id) * W]; }
  const Real* Stop(int id) const { return &stop_[model_.state(id).score * W]; }

  // The chosen action stays optimal under a shift d of utility[0] while
  // gap + dslope * d >= -kSlack (|d| <= 1: it is a probability).
  void Keep(const Real* chosen, const Real* other) {
    const double gap = std::max(0.0, static_cast<double>(chosen[0] - other[0]));
    const double dslope = static_cast<double>(chosen[1] - other[1]);
    if (gap + kSlack >= std::abs(dslope)) return;
    if (dslope > 0) {
      out_.lo = std::max(out_.lo, -(gap + kSlack) / dslope);
    } else if (dslope < 0) {
      out_.hi = std::min(out_.hi, (gap + kSlack) / -dslope);
    }
  }

  // Kingmaking: a tied action that a watched carried utility tells apart.
  bool TellsApart(const Real* chosen, const Real* other) const {
    for (unsigned bits = watched_; bits != 0; bits &= bits - 1) {
      const int k = 1 + std::countr_zero(bits);
      if (std::abs(static_cast<double>(chosen[k] - other[k])) > kConventionTie) return true;
    }
    return false;
  }

  // Phase "choose a take" for one class of outcomes: rays (if shown) and the
  // earthling takes of the counts present; the convention picks rays, then
  // more dice, among the actions tied with the best.
  const Real* ChooseTake(const Real* const* take, std::uint32_t present, const Real* rays) {
    Real best = rays != nullptr ? rays[0] : Real(-HUGE_VAL);
    for (std::uint32_t bits = present; bits != 0; bits &= bits - 1) {
      best = std::max(best, take[std::countr_zero(bits)][0]);
    }
    const Real bar = best - Real(kConventionTie);
    const Real* chosen = nullptr;
    if (rays != nullptr && rays[0] >= bar) {
      chosen = rays;
    } else {
      // The best is a take here, so the scan down from the most dice ends.
      int x = 31 - std::countl_zero(present);
      while (!(present >> x & 1u) || take[x][0] < bar) --x;
      chosen = take[x];
    }
    // The order of the takes is kept per group (KeepTakeOrder); here only
    // the choice between rays and the best take.
    const Real* best_take = nullptr;
    for (std::uint32_t bits = present; bits != 0; bits &= bits - 1) {
      const Real* t = take[std::countr_zero(bits)];
      if (best_take == nullptr || t[0] > best_take[0]) best_take = t;
    }
    if (rays != nullptr) Keep(chosen, chosen == rays ? best_take : rays);
    bool tied = false, kingmaking = false;
    auto consider = [&](const Real* other) {
      if (other == chosen || other[0] < bar) return;
      tied = true;
      kingmaking = kingmaking || TellsApart(chosen, other);
    };
    if (rays != nullptr) consider(rays);
    for (std::uint32_t bits = present; bits != 0; bits &= bits - 1) {
      consider(take[std::countr_zero(bits)]);
    }
    out_.tied_decisions += tied;
    out_.kingmaking += kingmaking;
    return chosen;
  }

  // The takes of a group ranked by value: each keeps its place against the
  // next one, so every class's best take stays its best over [lo, hi].
  void KeepTakeOrder(const Real* const* take, int left) {
    int order[kMaxDice + 1];
    for (int x = 1; x <= left; ++x) {
      int i = x - 1;
      for (; i > 0 && take[order[i - 1]][0] < take[x][0]; --i) order[i] = order[i - 1];
      order[i] = x;
    }
    for (int i = 0; i + 1 < left; ++i) Keep(take[order[i]], take[order[i + 1]]);
  }

  // Phase "outcome laws": for each group (position after the tanks) at this
  // level and each q, the weighted sums over the q other dice's outcome
  // classes of the chosen action's record.
  void OutcomeLaws(int level) {
    const Real* take[kMaxDice + 1];
    Real sums[1 + kMaxCarried];
    for (int group : model_.Level(level)) {
      const CanonState& g = model_.state(group);
      for (int x = 1; g.untaken > 0 && x <= g.left; ++x) take[x] = Node(model_.EarthChild(group, x));
      if (g.untaken > 1) KeepTakeOrder(take, g.left);
      const Real* turn_over = Stop(group);
      for (int q = 0; q <= g.left; ++q) {
        const int ray_child = model_.RayChild(group, q);
        const Real* rays = ray_child >= 0 ? Node(ray_child) : nullptr;
        std::fill(sums, sums + W, Real(0));
        for (const EarthClass& cls : model_.Classes(g.untaken, q)) {
          // Without rays and without an earthling to take, the turn is over.
          const Real* chosen = cls.present != 0 ? ChooseTake(take, cls.present, rays)
                               : rays != nullptr ? rays
                                                 : turn_over;
          const Real weight = cls.weight_d;
          for (int k = 0; k < W; ++k) sums[k] += weight * chosen[k];
        }
        std::copy(sums, sums + W, &laW[static_cast<size_t>(model_.LawIndex(group, q)) * W]);
      }
    }
  }

  // Phase "stop or roll": the roll's record from the outcome laws, then the
  // convention's choice (stop when tied; no stopping before the first roll).
  void StopOrRoll(int level) {
    Real roll[1 + kMaxCarried];
    for (int id : model_.Level(level)) {
      Real* node = Node(id);
      const Real* stop = Stop(id);
      if (level == 0) {
        std::copy(stop, stop + W, node);
        continue;
      }
      std::fill(roll, roll + W, Real(0));
      for (const RollTerm& term : model_.Terms(id)) {
        const Real* law = &laW[static_cast<size_t>(term.law) * W];
        const Real weight = term.weight_d;
        for (int k = 0; k < W; ++k) roll[k] += weight * law[k];
      }
      const bool rolls = id == start_ || roll[0] > stop[0] + Real(kConventionTie);
      const Real* chosen = rolls ? roll : stop;
      if (id != start_) {
        const Real* other = rolls ? stop : roll;
        if (other[0] >= chosen[0] - Real(kConventionTie)) {
          ++out_.tied_decisions;
          out_.kingmaking += TellsApart(chosen, other);
        }
        Keep(chosen, other);
      }
      std::copy(chosen, chosen + W, node);
    }
  }

  const TurnModel& model_;
  const unsigned watched_;
  const int start_;
  ConventionTurn& out_;
  // Scratch reused by the thread's next solve.
  std::vector<Real>& node_;  // per position
  std::vector<Real>& laW;   // per (group, q) law
  std::vector<Real>& stop_;  // per final score
};

template <class Real, int W>
void SolveWidth(const TurnModel& model, const std::vector<double>& utility,
                std::span<const std::vector<double>> carried_utilities, unsigned watched,
                ConventionTurn* out) {
  // Reused across solves on this thread: repeated solves allocate nothing.
  thread_local std::vector<Real> node, law, stop;
  ConventionSolver<Real, W>(model, utility, carried_utilities, watched, out, node, law, stop)
      .Run();
}

// The record width is a compile-time constant: the inner sums unroll.
template <class Real>
void Solve(const TurnModel& model, const std::vector<double>& utility,
           std::span<const std::vector<double>> carried, unsigned watched, ConventionTurn* out) {
  switch (carried.size()) {
    case 1: return SolveWidth<Real, 2>(model, utility, carried, watched, out);
    case 2: return SolveWidth<Real, 3>(model, utility, carried, watched, out);
    case 3: return SolveWidth<Real, 4>(model, utility, carried, watched, out);
    case 4: return SolveWidth<Real, 5>(model, utility, carried, watched, out);
    case 5: return SolveWidth<Real, 6>(model, utility, carried, watched, out);
    case 6: return SolveWidth<Real, 7>(model, utility, carried, watched, out);
    case 7: return SolveWidth<Real, 8>(model, utility, carried, watched, out);
    default: return SolveWidth<Real, 9>(model, utility, carried, watched, out);
  }
}

}  // namespace

void SolveConvention(const TurnModel& model, const std::vector<double>& utility,
                     std::span<const std::vector<double>> carried_utilities, unsigned watched,
                     Arithmetic arithmetic, ConventionTurn* out) {
  if (arithmetic == Arithmetic::kExtended) {
    Solve<long double>(model, utility, carried_utilities, watched, out);
  } else {
    Solve<double>(model, utility, carried_utilities, watched, out);
  }
}

}  // namespace martiandice::internal

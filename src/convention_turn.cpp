// Internal: the N-player turn solve (docs/PLAYERS.md): the mover's dynamic
// program with the tie convention, carrying other utilities along.
#include "convention_turn.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

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
                   std::vector<Real>& stop, double* roll_out = nullptr)
      : model_(model),
        watched_(watched),
        start_(model.Id(0, 0, 0, 0, 0)),
        out_(*out),
        node_(node),
        laws_(law),
        stop_(stop),
        roll_out_(roll_out) {
    node_.resize(static_cast<size_t>(model.size()) * W);
    laws_.resize(static_cast<size_t>(model.LawCount()) * W);
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
  // earthling takes it allows (cls.take[], ascending); the convention picks
  // rays, then more dice, among the actions tied with the best.
  const Real* ChooseTake(const Real* const* take, const EarthClass& cls, const Real* rays) {
    const int n = cls.takes;
    const Real* t[3] = {take[cls.take[0]], take[cls.take[1]], take[cls.take[2]]};
    const Real* best_take = t[0];
    for (int i = 1; i < n; ++i) best_take = t[i][0] > best_take[0] ? t[i] : best_take;
    const Real best = rays != nullptr && rays[0] > best_take[0] ? rays[0] : best_take[0];
    const Real bar = best - Real(kConventionTie);
    const Real* chosen = nullptr;
    int tied = 0;
    if (rays != nullptr && rays[0] >= bar) {
      chosen = rays;
      ++tied;
    }
    for (int i = n - 1; i >= 0; --i) {  // most dice first
      if (t[i][0] >= bar) {
        if (chosen == nullptr) chosen = t[i];
        ++tied;
      }
    }
    // The order of the takes is kept per group (KeepTakeOrder); here only
    // the choice between rays and the best take.
    if (rays != nullptr) Keep(chosen, chosen == rays ? best_take : rays);
    if (tied > 1) {
      ++out_.tied_decisions;
      bool kingmaking = rays != nullptr && rays != chosen && rays[0] >= bar &&
                        TellsApart(chosen, rays);
      for (int i = 0; i < n; ++i) {
        if (t[i] != chosen && t[i][0] >= bar) kingmaking = kingmaking || TellsApart(chosen, t[i]);
      }
      out_.kingmaking += kingmaking;
    }
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
          const Real* chosen = cls.present != 0 ? ChooseTake(take, cls, rays)
                               : rays != nullptr ? rays
                                                 : turn_over;
          const Real weight = cls.weight_d;
          for (int k = 0; k < W; ++k) sums[k] += weight * chosen[k];
        }
        std::copy(sums, sums + W, &laws_[static_cast<size_t>(model_.LawIndex(group, q)) * W]);
      }
    }
  }

  // The roll's record: the terms' weighted law records. In double, summed
  // as the two-player solve sums (four interleaved partial sums: one chain
  // of dependent additions would wait on the adder), which also keeps the
  // two solvers' two-player values together.
  void RollSums(std::span<const RollTerm> terms, Real* roll) const {
    if constexpr (!std::is_same_v<Real, double>) {
      // x87 has 8 registers: one chain per number is faster there.
      std::fill(roll, roll + W, Real(0));
      for (const RollTerm& term : terms) {
        const Real* law = &laws_[static_cast<size_t>(term.law) * W];
        const Real weight = term.weight_d;
        for (int k = 0; k < W; ++k) roll[k] += weight * law[k];
      }
      return;
    }
    Real part[4][W] = {};
    const size_t n = terms.size();
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      for (int j = 0; j < 4; ++j) {
        const Real* law = &laws_[static_cast<size_t>(terms[i + j].law) * W];
        const Real weight = terms[i + j].weight_d;
        for (int k = 0; k < W; ++k) part[j][k] += weight * law[k];
      }
    }
    for (; i < n; ++i) {
      const Real* law = &laws_[static_cast<size_t>(terms[i].law) * W];
      const Real weight = terms[i].weight_d;
      for (int k = 0; k < W; ++k) part[0][k] += weight * law[k];
    }
    for (int k = 0; k < W; ++k) roll[k] = (part[0][k] + part[1][k]) + (part[2][k] + part[3][k]);
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
        if (roll_out_ != nullptr) roll_out_[id] = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      RollSums(model_.Terms(id), roll);
      if (roll_out_ != nullptr) roll_out_[id] = static_cast<double>(roll[0]);
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
  std::vector<Real>& laws_;   // per (group, q) law
  std::vector<Real>& stop_;  // per final score
  double* const roll_out_;   // per position: the mover's roll value (optional)
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

void SolveConventionRolls(const TurnModel& model, const std::vector<double>& utility,
                          Arithmetic arithmetic, std::vector<double>* roll) {
  roll->resize(static_cast<size_t>(model.size()));
  const std::vector<double> carried[1] = {utility};  // the record's width is at least 2
  ConventionTurn out;
  if (arithmetic == Arithmetic::kExtended) {
    thread_local std::vector<long double> node, law, stop;
    ConventionSolver<long double, 2>(model, utility, carried, 0, &out, node, law, stop,
                                     roll->data())
        .Run();
  } else {
    thread_local std::vector<double> node, law, stop;
    ConventionSolver<double, 2>(model, utility, carried, 0, &out, node, law, stop, roll->data())
        .Run();
  }
}

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

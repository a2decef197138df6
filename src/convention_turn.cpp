// Internal: the N-player turn solve (docs/PLAYERS.md): the mover's dynamic
// program with the tie convention, carrying other utilities along.
#include "convention_turn.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "turn_lanes.h"

namespace martiandice::internal {
namespace {

// Every position, law and final score holds a record of W = 1 + K numbers:
// the mover's value, then the K carried utilities' expectations (K = 0: the
// mover's value alone). In double a record of two or more numbers is padded
// to an even stride (zeros), so the record sums run on pairs of lanes (SSE2,
// every x86-64); a record of one is not padded (half the memory, and the
// mover's value is summed in the same order either way). Its own DP, not the
// plain solve's DoubleDP: tied actions (within kConventionTie) go by the
// convention, where the plain solve keeps the first best exactly.
template <class Real, int W>
class ConventionSolver {
  static_assert(W >= 1);
  static constexpr int S = std::is_same_v<Real, double> && W > 1 ? (W + 1) / 2 * 2 : W;  // stride

 public:
  ConventionSolver(const TurnModel& model, const std::vector<double>& utility,
                   std::span<const std::vector<double>> carried_utilities, unsigned watched,
                   ConventionTurn* out, std::vector<Real>& node, std::vector<Real>& law,
                   std::vector<Real>& stop, double* roll_out = nullptr,
                   ConventionPolicy* policy = nullptr)
      : model_(model),
        watched_(watched),
        start_(model.Id(0, 0, 0, 0, 0)),
        out_(*out),
        node_(node),
        laws_(law),
        stop_(stop),
        roll_out_(roll_out),
        policy_(policy),
        lane_(policy != nullptr && policy->zero_lane >= 0 ? 1 + policy->zero_lane : 0) {
    node_.resize(static_cast<size_t>(model.size()) * S);
    laws_.resize(static_cast<size_t>(model.LawCount()) * S);
    stop_.resize(static_cast<size_t>(model.MaxScore() + 1) * S);
    for (int s = 0; s <= model.MaxScore(); ++s) {
      stop_[s * S] = utility[s];
      for (int k = 1; k < S; ++k) stop_[s * S + k] = k < W ? carried_utilities[k - 1][s] : 0.0;
    }
    out_.tied_decisions = out_.kingmaking = 0;
    if (policy_ != nullptr) {
      policy_->rolls.resize(model.size());
      policy_->take.resize(model.LawClassCount());
    }
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
    out_.wide_value = start[0];
    out_.wide_carried.resize(W - 1);
    for (int k = 1; k < W; ++k) out_.wide_carried[k - 1] = start[k];
    if (policy_ != nullptr) {
      policy_->below = tracking_ ? below_ : 0.0;
      policy_->above = tracking_ ? above_ : 0.0;
    }
  }

 private:
  Real* Node(int id) { return &node_[static_cast<size_t>(id) * S]; }
  const Real* Stop(int id) const { return &stop_[model_.state(id).score * S]; }

  // Kingmaking: a tied action that a watched carried utility tells apart.
  bool TellsApart(const Real* chosen, const Real* other) const {
    for (unsigned bits = watched_; bits != 0; bits &= bits - 1) {
      const int k = 1 + std::countr_zero(bits);
      if (std::abs(static_cast<double>(chosen[k] - other[k])) > kConventionTie) return true;
    }
    return false;
  }

  bool KingmakingStands(const Real* x, const Real* y, double s) const {
    if (std::abs(s) > kRoundingSlope) return false;
    for (unsigned bits = watched_; bits != 0; bits &= bits - 1) {
      const int k = 1 + std::countr_zero(bits);
      const double gap = std::abs(static_cast<double>(x[k] - y[k]));
      if (std::abs(gap - kConventionTie) <= kRangeSlack) return false;
    }
    return true;
  }

  // No range: the solve stops keeping one.
  void Close() {
    below_ = above_ = widen_ = 0;
    tracking_ = false;
  }
  void Narrowed() { widen_ = kRangeSlack + std::max(below_, above_); }

  // Range of utility[0] (docs: ConventionPolicy): a quantity m + s Δ, with
  // Δ the move of utility[0], keeps its sign over the range, kRangeSlack to
  // spare; the range shrinks (a division only then) or closes.
  void KeepSign(double m, double s) {
    const double a = std::abs(m) - kRangeSlack;
    if (m < 0) s = -s;
    if (a <= 0) {
      Close();
    } else if (s > 0 && a < s * below_) {
      below_ = a / s;
      Narrowed();
    } else if (s < 0 && a < -s * above_) {
      above_ = a / -s;
      Narrowed();
    }
  }
  // Two options' values stay on the same side of each other's tie band, so
  // the choice and the tie count stand. Tied options: their watched
  // utilities (kingmaking) also move apart by the zero-score chances'
  // difference times their own zero-score utility's move, so that
  // difference must be rounding (then the kingmaking test keeps its answer
  // with kRangeSlack to spare), else there is no range.
  void KeepPair(const Real* x, const Real* y) {
    if constexpr (W == 1) return;  // no lane to keep a range by
    const double d = static_cast<double>(x[0] - y[0]);
    const double s = static_cast<double>(x[lane_] - y[lane_]);
    if (s == 0) return;  // the difference does not move
    if (watched_ != 0 && std::abs(d) <= kConventionTie && !KingmakingStands(x, y, s)) {
      Close();
      return;
    }
    KeepSign(d - kConventionTie, s);
    KeepSign(d + kConventionTie, s);
  }

  // Phase "choose a take" for one class of outcomes at a group with J
  // untaken earthling types: rays (if shown: rv is their value, else -inf)
  // and the earthling takes the class allows (cls.take[], ascending, padded
  // with the largest to J entries); the convention picks rays, then more
  // dice, among the actions tied with the best. `tv[x]` is take[x]'s value
  // to the mover. *pick: the take chosen, 0 for the rays.
  template <int J>
  const Real* ChooseTake(const Real* const* take, const Real* tv, const EarthClass& cls,
                         const Real* rays, Real rv, int* pick) {
    const int a = cls.take[0], b = J >= 2 ? cls.take[1] : a, c = J >= 3 ? cls.take[2] : b;
    const Real va = tv[a], vb = tv[b], vc = tv[c];
    Real best = std::max(rv, va);
    if constexpr (J >= 2) best = std::max(best, vb);
    if constexpr (J >= 3) best = std::max(best, vc);
    const Real bar = best - Real(kConventionTie);
    const bool rays_tied = rv >= bar;
    int x = a;
    if constexpr (J >= 2) x = vb >= bar ? b : x;
    if constexpr (J >= 3) x = vc >= bar ? c : x;
    const Real* chosen = rays_tied ? rays : take[x];
    *pick = rays_tied ? 0 : x;
    // Options below `near` stay below the best over the range too (see
    // KeepNear); ties are among the near ones, so usually the best alone is
    // near and nothing else is counted.
    const Real near = bar - Real(widen_);
    int n = (rv >= near) + (va >= near);
    if constexpr (J >= 2) n += cls.takes >= 2 && vb >= near;
    if constexpr (J >= 3) n += cls.takes >= 3 && vc >= near;
    if (n > 1) [[unlikely]] {
      int tied = rays_tied + (va >= bar);
      if constexpr (J >= 2) tied += cls.takes >= 2 && vb >= bar;
      if constexpr (J >= 3) tied += cls.takes >= 3 && vc >= bar;
      if (tied > 1) {
        ++out_.tied_decisions;
        bool kingmaking = rays_tied && rays != chosen && TellsApart(chosen, rays);
        for (int i = 0; i < cls.takes; ++i) {
          const Real* t = take[cls.take[i]];
          if (t != chosen && tv[cls.take[i]] >= bar) {
            kingmaking = kingmaking || TellsApart(chosen, t);
          }
        }
        out_.kingmaking += kingmaking;
      }
      if (tracking_) KeepNear(take, tv, cls, rays, rv, near);
    }
    return chosen;
  }

  // The pairs among a class's options near its best (see ChooseTake).
  [[gnu::noinline]] void KeepNear(const Real* const* take, const Real* tv, const EarthClass& cls,
                                  const Real* rays, Real rv, Real near) {
    const Real* option[4];
    int n = 0;
    if (rv >= near) option[n++] = rays;
    for (int i = 0; i < cls.takes; ++i) {
      if (tv[cls.take[i]] >= near) option[n++] = take[cls.take[i]];
    }
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) KeepPair(option[i], option[j]);
    }
  }

  // Phase "outcome laws": for each group (position after the tanks) at this
  // level and each q, the weighted sums over the q other dice's outcome
  // classes of the chosen action's record.
  void OutcomeLaws(int level) {
    for (int group : model_.Level(level)) {
      switch (model_.state(group).untaken) {
        case 0:
          GroupLaws<0>(group);
          break;
        case 1:
          GroupLaws<1>(group);
          break;
        case 2:
          GroupLaws<2>(group);
          break;
        default:
          GroupLaws<3>(group);
          break;
      }
    }
  }

  template <int J>
  void GroupLaws(int group) {
    const Real* take[kMaxDice + 1];
    Real tv[kMaxDice + 1];
    const std::int32_t* const take_id = model_.EarthChildren(group);
    alignas(16) Real sums[S];
    const CanonState& g = model_.state(group);
    for (int x = 1; J > 0 && x <= g.left; ++x) {
      take[x] = Node(take_id[x]);
      tv[x] = take[x][0];
    }
    const Real* turn_over = Stop(group);
    const EarthClass* const data = model_.ClassData();
    const std::int32_t* const row = model_.ClassRow(J);
    const std::int32_t* const ray_children = model_.RayChildren(group);
    Real* law = &laws_[static_cast<size_t>(model_.LawIndex(group, 0)) * S];
    for (int q = 0; q <= g.left; ++q, law += S) {
      const int ray_child = ray_children[q];
      const Real* rays = ray_child >= 0 ? Node(ray_child) : nullptr;
      const Real rv = rays != nullptr ? rays[0] : Real(-HUGE_VAL);
      // Without rays and without an earthling to take, the turn is over.
      const Real* none = rays != nullptr ? rays : turn_over;
      const EarthClass* cls = data + row[q];
      const EarthClass* const end = data + row[q + 1];
      std::uint8_t* pick = policy_ != nullptr
                               ? &policy_->take[model_.LawClassBegin(model_.LawIndex(group, q))]
                               : nullptr;
      // No untaken type shown (classes are sorted by mask, so it comes
      // first): always possible with a taken type to show, else only with
      // no dice.
      if (J < 3 || q == 0) {
        const Real weight = cls->weight_d;
        for (int k = 0; k < S; ++k) sums[k] = weight * none[k];
        if (pick != nullptr) *pick++ = 0;  // the rays, or the turn ends without them
        ++cls;
      } else {
        for (int k = 0; k < S; ++k) sums[k] = Real(0);
      }
      if constexpr (J > 0) {
        for (; cls != end; ++cls) {
          int x;
          const Real* chosen = ChooseTake<J>(take, tv, *cls, rays, rv, &x);
          if (pick != nullptr) *pick++ = static_cast<std::uint8_t>(x);  // 0: the rays
          const Real weight = cls->weight_d;
          for (int k = 0; k < S; ++k) sums[k] += weight * chosen[k];
        }
      }
      for (int k = 0; k < S; ++k) law[k] = sums[k];
    }
  }

  // The roll's record: the terms' weighted law records. In double, summed
  // as every double turn solve sums (RollSum), which also keeps the two
  // solvers' two-player values together.
  void RollSums(int id, Real* roll) const {
    const RollTerms terms = model_.Terms(id);
    if constexpr (std::is_same_v<Real, double>) {
      RollSum<double, S>(terms, laws_.data(), roll);
    } else {
      // x87 has 8 registers: one chain per number is faster there. The
      // weights are the extended ones: their rounding is the sums' own.
      const std::span<const Wide> weights = model_.WideWeights(id);
      std::fill(roll, roll + S, Real(0));
      for (size_t i = 0; i < terms.size(); ++i) {
        const Real* law = &laws_[static_cast<size_t>(terms[i].law) * S];
        const Real weight = weights[i];
        for (int k = 0; k < S; ++k) roll[k] += weight * law[k];
      }
    }
  }

  // Phase "stop or roll": the roll's record from the outcome laws, then the
  // convention's choice (stop when tied; no stopping before the first roll).
  void StopOrRoll(int level) {
    alignas(16) Real roll[S];
    for (int id : model_.Level(level)) {
      Real* node = Node(id);
      const Real* stop = Stop(id);
      if (level == 0) {
        for (int k = 0; k < S; ++k) node[k] = stop[k];
        if (roll_out_ != nullptr) roll_out_[id] = std::numeric_limits<double>::quiet_NaN();
        if (policy_ != nullptr) policy_->rolls[id] = 0;
        continue;
      }
      RollSums(id, roll);
      if (roll_out_ != nullptr) roll_out_[id] = static_cast<double>(roll[0]);
      const bool rolls = id == start_ || roll[0] > stop[0] + Real(kConventionTie);
      const Real* chosen = rolls ? roll : stop;
      if (policy_ != nullptr) policy_->rolls[id] = rolls;
      if (id != start_) {
        if (tracking_ && WideAbs(roll[0] - stop[0]) < Real(kConventionTie + widen_)) {
          KeepPair(roll, stop);
        }
        const Real* other = rolls ? stop : roll;
        if (other[0] >= chosen[0] - Real(kConventionTie)) {
          ++out_.tied_decisions;
          out_.kingmaking += TellsApart(chosen, other);
        }
      }
      for (int k = 0; k < S; ++k) node[k] = chosen[k];
    }
  }

  const TurnModel& model_;
  const unsigned watched_;
  const int start_;
  ConventionTurn& out_;
  // Scratch reused by the thread's next solve.
  std::vector<Real>& node_;         // per position
  std::vector<Real>& laws_;         // per (group, q) law
  std::vector<Real>& stop_;         // per final score
  double* const roll_out_;          // per position: the mover's roll value (optional)
  ConventionPolicy* const policy_;  // the actions chosen (optional)
  const int lane_;                  // the zero-score lane; 0: no range kept
  bool tracking_ = lane_ > 0;       // keeping a range of utility[0]
  double below_ = kRangeCap, above_ = kRangeCap;
  // How far below the tie bar an option can still matter: 0 without a range.
  double widen_ = tracking_ ? kRangeSlack + kRangeCap : 0.0;
};

template <class Real, int W>
void SolveWidth(const TurnModel& model, const std::vector<double>& utility,
                std::span<const std::vector<double>> carried_utilities, unsigned watched,
                ConventionTurn* out, ConventionPolicy* policy) {
  // Reused across solves on this thread: repeated solves allocate nothing.
  thread_local std::vector<Real> node, law, stop;
  ConventionSolver<Real, W>(model, utility, carried_utilities, watched, out, node, law, stop,
                            nullptr, policy)
      .Run();
}

// The record width is a compile-time constant: the inner sums unroll.
template <class Real>
void Solve(const TurnModel& model, const std::vector<double>& utility,
           std::span<const std::vector<double>> carried, unsigned watched, ConventionTurn* out,
           ConventionPolicy* policy) {
  switch (carried.size()) {
    case 1:
      return SolveWidth<Real, 2>(model, utility, carried, watched, out, policy);
    case 2:
      return SolveWidth<Real, 3>(model, utility, carried, watched, out, policy);
    case 3:
      return SolveWidth<Real, 4>(model, utility, carried, watched, out, policy);
    case 4:
      return SolveWidth<Real, 5>(model, utility, carried, watched, out, policy);
    case 5:
      return SolveWidth<Real, 6>(model, utility, carried, watched, out, policy);
    case 6:
      return SolveWidth<Real, 7>(model, utility, carried, watched, out, policy);
    case 7:
      return SolveWidth<Real, 8>(model, utility, carried, watched, out, policy);
    default:
      return SolveWidth<Real, 9>(model, utility, carried, watched, out, policy);
  }
}

}  // namespace

void SolveConventionRolls(const TurnModel& model, const std::vector<double>& utility,
                          Arithmetic arithmetic, std::vector<double>* roll,
                          ConventionPolicy* policy) {
  roll->resize(static_cast<size_t>(model.size()));
  ConventionTurn out;  // records of the mover's value alone: nothing carried
  if (policy != nullptr) policy->zero_lane = -1;  // no lane to keep a range by
  if (arithmetic == Arithmetic::kExtended) {
    thread_local std::vector<Wide> node, law, stop;
    ConventionSolver<Wide, 1>(model, utility, {}, 0, &out, node, law, stop, roll->data(), policy)
        .Run();
  } else {
    thread_local std::vector<double> node, law, stop;
    ConventionSolver<double, 1>(model, utility, {}, 0, &out, node, law, stop, roll->data(), policy)
        .Run();
  }
}

void SolveConvention(const TurnModel& model, const std::vector<double>& utility,
                     std::span<const std::vector<double>> carried_utilities, unsigned watched,
                     Arithmetic arithmetic, ConventionTurn* out, ConventionPolicy* policy) {
  if (arithmetic == Arithmetic::kExtended) {
    Solve<Wide>(model, utility, carried_utilities, watched, out, policy);
  } else {
    Solve<double>(model, utility, carried_utilities, watched, out, policy);
  }
}

// Levels from the start down: a position's chance is complete once every
// level above has passed it on. Within a level the positions pass theirs to
// the outcome laws first (a roll without tanks feeds the position's own
// laws), then the level's laws pass theirs to the positions below.
void PolicyScoreLaw(const TurnModel& model, const ConventionPolicy& policy,
                    std::vector<Wide>* law) {
  thread_local std::vector<Wide> reach, law_reach;
  reach.assign(static_cast<size_t>(model.size()), Wide(0));
  law_reach.assign(static_cast<size_t>(model.LawCount()), Wide(0));
  law->assign(static_cast<size_t>(model.MaxScore() + 1), Wide(0));
  reach[model.Id(0, 0, 0, 0, 0)] = 1;
  const EarthClass* const data = model.ClassData();
  for (int level = model.rules().dice; level >= 0; --level) {
    for (int id : model.Level(level)) {
      const Wide chance = reach[id];
      if (chance == 0) continue;
      if (policy.rolls[id] == 0) {
        (*law)[model.state(id).score] += chance;
        continue;
      }
      const RollTerms terms = model.Terms(id);
      const std::span<const Wide> weights = model.WideWeights(id);
      for (size_t i = 0; i < terms.size(); ++i) law_reach[terms[i].law] += chance * weights[i];
    }
    for (int group : model.Level(level)) {
      const CanonState& g = model.state(group);
      const std::int32_t* const row = model.ClassRow(std::min<int>(g.untaken, 3));
      const std::int32_t* const take_id = model.EarthChildren(group);
      const std::int32_t* const ray_children = model.RayChildren(group);
      for (int q = 0; q <= g.left; ++q) {
        const Wide chance = law_reach[model.LawIndex(group, q)];
        if (chance == 0) continue;
        const std::uint8_t* take = &policy.take[model.LawClassBegin(model.LawIndex(group, q))];
        // Runs of classes with the same action (so the same child): their
        // integer weights summed first.
        const EarthClass* cls = data + row[q];
        const EarthClass* const end = data + row[q + 1];
        while (cls != end) {
          const std::uint8_t x = *take;
          const std::int32_t to = x == 0 ? ray_children[q] : take_id[x];  // -1: the turn ends
          // Signed: a run weighs under 3^13, and x87 converts a signed
          // integer in one instruction (an unsigned one needs a fix-up).
          std::int64_t weight = 0;
          do {
            weight += static_cast<std::int64_t>(cls->weight);
            ++cls;
            ++take;
          } while (cls != end && *take == x);
          const Wide part = chance * static_cast<Wide>(weight);
          if (to < 0) {
            (*law)[g.score] += part;  // neither rays nor earthlings: the turn ends
          } else {
            reach[to] += part;
          }
        }
      }
    }
  }
}

}  // namespace martiandice::internal

// Internal: a policy's zero chances over a whole turn (zero_chances.h), in
// one walk over the turn model (its classes split by face order where the
// policy's pick needs it).
#include "zero_chances.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>

#include "martiandice/state_space.h"
#include "solved_turn.h"
#include "table_format.h"
#include "take_options.h"
#include "win_values.h"

namespace martiandice::internal {
namespace {

// A policy at each canonical position a take leads to: the option's value
// (Decide's better of stopping and rolling on) and whether it rolls on.
struct Decisions {
  std::vector<double> value;
  std::vector<std::uint8_t> rolls;
};

// `position(id, state, stop, roll)` sets a position's stop value and, with
// dice left, its roll value, as the policy's AdviseTakes reads them.
template <typename Compare, typename Position>
Decisions DecideAll(const TurnModel& model, const Compare& compare, const Position& position) {
  Decisions d;
  d.value.assign(model.size(), 0.0);
  d.rolls.assign(model.size(), 0);
  const int start = model.Id(0, 0, 0, 0, 0);  // no take leads there
  for (int id = 0; id < model.size(); ++id) {
    if (id == start) continue;
    ApproxValue stop, best;
    std::optional<ApproxValue> roll;
    position(id, model.state(id), stop, roll);
    d.rolls[id] = internal::Decide(compare, stop, roll, best) == Then::kRoll;
    d.value[id] = best.approx;
  }
  return d;
}

// A class whose pick depends on which earthling type shows which count.
constexpr int kAmbiguous = -2;

// A pick chooses the take the policy's AdviseTakes chooses and returns the
// position it leads to (`value`: the positions' values):
//   operator()(value, after, rays, earth, cls): from one class of outcomes
//       at a group: the rays (the position they lead to; -1 where none show)
//       and each earthling count the class shows (cls.take[]: x dice, the
//       position earth[x]); `after`: the positions' zero chances once
//       reached. kAmbiguous where face identity may decide.
//   InOrder(value, rays, to, count, n): from the rays and the earthling
//       takes one ordered outcome shows, in face order (to[i]: count[i] dice).

// AdviseWinTakes' pick (PickByConvention): among the takes tied with the
// best, the rays, then the most dice; the types showing equally many dice
// lead to mirror images. Never ambiguous.
struct ConventionPick {
  WinCompare compare;
  int operator()(const double* value, const double*, int rays, const std::int32_t* earth,
                 const EarthClass& cls) const {
    int to[3], count[3];
    for (int i = 0; i < cls.takes; ++i) count[i] = cls.take[i], to[i] = earth[cls.take[i]];
    return InOrder(value, rays, to, count, cls.takes);
  }
  int InOrder(const double* value, int rays, const int* to, const int* count, int n) const {
    double most = rays >= 0 ? value[rays] : -HUGE_VAL;  // Better is >: the first maximum's value
    for (int i = 0; i < n; ++i) most = std::max(most, value[to[i]]);
    const ApproxValue best{most};
    if (rays >= 0 && compare.Tied(ApproxValue{value[rays]}, best)) return rays;
    int pick = -1;
    for (int i = 0; i < n; ++i) {
      if (compare.Tied(ApproxValue{value[to[i]]}, best) && (pick < 0 || count[i] > count[pick])) {
        pick = i;
      }
    }
    return to[pick];  // the best ties with itself
  }
};

// AdviseRoll's pick, the first optimal take in face order. Only the takes
// within kReach of the best can be picked (with a relative tolerance, a take
// tied with one tied with the best can be). Where the earthling takes among
// them all show one count (mirror images), the pick does not depend on
// which types show it: the rays (first in face order), unless that count is
// better than the rays. Where several counts are within reach, face
// identity may decide, unless every take within reach leads to the same
// zero chance (as everywhere in a lost turn).
struct FaceOrderPick {
  TurnCompare compare;
  static constexpr double kReach = 4 * TurnCompare::kTolerance;
  int operator()(const double* value, const double* after, int rays, const std::int32_t* earth,
                 const EarthClass& cls) const {
    int to[4], n = 0;
    if (rays >= 0) to[n++] = rays;
    for (int i = 0; i < cls.takes; ++i) to[n++] = earth[cls.take[i]];
    double top = value[to[0]];
    for (int i = 1; i < n; ++i) top = std::max(top, value[to[i]]);
    bool rays_near = false, alike = true;
    int earthling = -1, earthlings = 0, near = -1;
    for (int i = 0; i < n; ++i) {
      const double v = value[to[i]];
      if (top - v > kReach * std::max(std::abs(top), std::abs(v))) continue;  // out of reach
      alike = alike && (near < 0 || after[to[i]] == after[near]);
      near = to[i];
      if (to[i] == rays) {
        rays_near = true;
      } else {
        earthling = to[i];
        ++earthlings;
      }
    }
    if (earthlings <= 1) {
      const bool earthling_better =
          rays_near && earthlings == 1 &&
          compare.Better(ApproxValue{value[earthling]}, ApproxValue{value[rays]});
      return rays_near && !earthling_better ? rays : earthling;
    }
    return alike ? near : kAmbiguous;
  }
  int InOrder(const double* value, int rays, const int* to, const int*, int n) const {
    int option[4], m = 0;
    if (rays >= 0) option[m++] = rays;
    for (int i = 0; i < n; ++i) option[m++] = to[i];
    int best = 0;
    for (int i = 1; i < m; ++i) {
      if (compare.Better(ApproxValue{value[option[i]]}, ApproxValue{value[option[best]]})) best = i;
    }
    int first = 0;  // the first tied with the best: `best` at the latest
    while (!compare.Tied(ApproxValue{value[option[first]]}, ApproxValue{value[option[best]]})) {
      ++first;
    }
    return option[first];
  }
};

// An ambiguous class of the q other dice at group `g` split into its
// ordered outcomes (ForEachEarthOutcome's, the counts the untaken types show
// in face order), each picked in order. Returns the class's weighted zero
// chance.
template <typename Pick>
double SplitClass(const Pick& pick, const double* value, const double* after, const CanonState& g,
                  int q, int rays, const std::int32_t* earth, const EarthClass& cls) {
  double sum = 0;
  ForEachEarthOutcome(std::min<int>(g.untaken, 3), q, [&](const int* c, std::uint64_t weight) {
    int to[3], count[3], n = 0;
    std::uint32_t present = 0;
    for (int i = 0; i < 3; ++i) {
      if (c[i] == 0) continue;
      present |= 1u << c[i];
      to[n] = earth[c[i]];
      count[n++] = c[i];
    }
    if (present != cls.present) return;
    sum += static_cast<double>(weight) * after[pick.InOrder(value, rays, to, count, n)];
  });
  return sum;
}

// The class walk: *zero gets, by position, the chance that rolling on from
// it scores 0. Levels from no dice left up, as the turn solvers go: a
// level's outcome laws (by group and q, the classes' picks) read the levels
// below, then its positions sum their laws. Returns the classes split.
template <typename Pick>
int ClassWalk(const TurnModel& model, const Decisions& d, const Pick& pick,
              std::vector<double>* zero) {
  std::vector<double> after(model.size());  // reached by a take, its decision followed
  std::vector<double> law(model.LawCount());
  zero->assign(model.size(), 0.0);
  int split = 0;
  const EarthClass* const data = model.ClassData();
  for (int level = 0; level <= model.rules().dice; ++level) {
    for (int group : model.Level(level)) {
      const CanonState& g = model.state(group);
      const double over = g.score == 0;  // neither rays nor earthlings: the turn ends
      const std::int32_t* const row = model.ClassRow(std::min<int>(g.untaken, 3));
      const std::int32_t* const earth = model.EarthChildren(group);
      const std::int32_t* const rays = model.RayChildren(group);
      for (int q = 0; q <= g.left; ++q) {
        double sum = 0;
        for (const EarthClass* cls = data + row[q]; cls != data + row[q + 1]; ++cls) {
          const int to = cls->present == 0
                             ? rays[q]
                             : pick(d.value.data(), after.data(), rays[q], earth, *cls);
          if (to == kAmbiguous) {
            sum += SplitClass(pick, d.value.data(), after.data(), g, q, rays[q], earth, *cls);
            ++split;
          } else {
            sum += cls->weight_d * (to < 0 ? over : after[to]);
          }
        }
        law[model.LawIndex(group, q)] = sum;
      }
    }
    for (int id : model.Level(level)) {
      const CanonState& s = model.state(id);
      if (s.left > 0) {
        double sum = 0;
        for (const RollTerm& term : model.Terms(id)) sum += term.weight_d * law[term.law];
        (*zero)[id] = sum;
      }
      after[id] = d.rolls[id] ? (*zero)[id] : static_cast<double>(s.score == 0);
    }
  }
  return split;
}

}  // namespace

absl::StatusOr<std::unique_ptr<const ZeroChances>> ZeroChances::ForTable(
    const GameTable& table, const GameContext& context) {
  if (absl::Status status = ValidateContext(table.rules(), table.players(), context);
      !status.ok()) {
    return status;
  }
  const WinValues values(TableAccess::Data(table), context);
  if (absl::Status status = values.Verify(); !status.ok()) return status;
  const WinCompare compare{TableAccess::Data(table).tie_tolerance};
  std::unique_ptr<ZeroChances> zero(new ZeroChances(table.rules(), TurnModel::Get(table.rules())));
  const Decisions d = DecideAll(
      *zero->model_, compare,
      [&](int, const CanonState& s, ApproxValue& stop, std::optional<ApproxValue>& roll) {
        values.Stop(s.score, stop);
        const Canon c{s.tanks, s.rays, s.earth[0], s.earth[1], s.earth[2], s.left, s.score};
        if (std::optional<double> r = values.Roll(c)) roll = ApproxValue{*r};
      });
  zero->split_classes_ = ClassWalk(*zero->model_, d, ConventionPick{compare}, &zero->by_position_);
  return std::unique_ptr<const ZeroChances>(std::move(zero));
}

std::unique_ptr<const ZeroChances> ZeroChances::ForTurn(const TurnSolution& turn) {
  const SolvedTurn& t = SolvedTurnAccess::Of(turn);
  std::unique_ptr<ZeroChances> zero(new ZeroChances(turn.rules(), t.model));
  const Decisions d = DecideAll(
      *t.model, TurnCompare{},
      [&](int id, const CanonState& s, ApproxValue& stop, std::optional<ApproxValue>& roll) {
        stop.approx = t.utility[s.score];
        if (s.left > 0) roll = ApproxValue{t.Clamped(id, /*roll=*/true)};
      });
  zero->split_classes_ = ClassWalk(*t.model, d, FaceOrderPick{}, &zero->by_position_);
  return zero;
}

absl::StatusOr<double> ZeroChances::At(const Dice& aside) const {
  if (absl::Status status = CheckStart(rules_, aside); !status.ok()) return status;
  return by_position_[model_->IdOf(aside)];
}

}  // namespace martiandice::internal

// Internal: the shape of a best-move answer shared by the turn queries
// (query.cpp) and the win queries (win_query.cpp): stop-or-roll decisions and
// the ranked takes from a roll, for any comparison of values and any source of
// stop and roll values; one body for the public RollAdvice and for
// ApproxAdvice, its twin on doubles alone, without allocation, for a walk
// over every roll of a turn (400,000 decisions: the reference the tests hold
// zero_chances.h to). Also the turn queries' comparison, which zero_chances.h
// follows.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <type_traits>

#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/turn_query.h"

namespace martiandice::internal {

// A value without its exact rational: what the walks compare.
struct ApproxValue {
  double approx = 0;
};

// TakeOption on ApproxValue.
struct ApproxTake {
  Face take = Face::kRay;
  int count = 0;
  Dice aside_after;
  ApproxValue stop;
  std::optional<ApproxValue> roll;
  ApproxValue value;
  Then then = Then::kStop;
  bool optimal = false;
};

// RollAdvice on ApproxValue, its takes in place (no allocation).
struct ApproxAdvice {
  // A roll has four takes at most (rays and three earthling types).
  struct Takes {
    using value_type = ApproxTake;
    std::array<ApproxTake, 4> items;
    int n = 0;
    ApproxTake& emplace_back() { return items[n++]; }  // fresh: an advice is filled once
    void reserve(int) {}
    int size() const { return n; }
    bool empty() const { return n == 0; }
    ApproxTake& operator[](int i) { return items[i]; }
    const ApproxTake& operator[](int i) const { return items[i]; }
    ApproxTake* begin() { return items.data(); }
    ApproxTake* end() { return items.data() + n; }
  };
  Dice aside_after_tanks;
  Takes options;
  bool turn_over = false;
  int turn_over_score = 0;
  ApproxValue value;
  std::optional<int> best;
};

// A value of `approx` without an exact rational (V: Value or ApproxValue).
template <typename V>
V ApproxOnly(double approx) {
  V value;
  value.approx = approx;
  return value;
}

// A comparison policy provides, for Value and ApproxValue alike:
//   bool Better(const V& a, const V& b)  a is preferred to b (the maximum)
//   bool Tied(const V& a, const V& b)    a and b count as equal
// Better must be false for equal values, so the first of equal maxima wins.

// The turn queries' comparison: exact when both values are exact, else
// within a relative tolerance (1e-12, far above a double solve's rounding).
struct TurnCompare {
  static constexpr double kTolerance = 1e-12;
  // Sign of a - b.
  template <typename V>
  static int Sign(const V& a, const V& b) {
    if constexpr (std::is_same_v<V, Value>) {
      if (a.exact && b.exact) return *a.exact < *b.exact ? -1 : (*a.exact > *b.exact ? 1 : 0);
    }
    const double margin = kTolerance * std::max(std::abs(a.approx), std::abs(b.approx));
    if (a.approx - b.approx > margin) return 1;
    if (b.approx - a.approx > margin) return -1;
    return 0;
  }
  template <typename V>
  bool Better(const V& a, const V& b) const {
    return Sign(a, b) > 0;
  }
  template <typename V>
  bool Tied(const V& a, const V& b) const {
    return Sign(a, b) == 0;
  }
};

// The better of stopping and rolling on (`roll` unset: no dice left) into `best`.
template <typename Compare, typename V>
Then Decide(const Compare& compare, const V& stop, const std::optional<V>& roll, V& best) {
  if (!roll) {
    best = stop;
    return Then::kStop;
  }
  best = compare.Better(*roll, stop) ? *roll : stop;
  if (compare.Tied(stop, *roll)) return Then::kEither;
  return compare.Better(stop, *roll) ? Then::kStop : Then::kRoll;
}

// Every take from `roll` at `aside` (already validated), as an Advice
// (RollAdvice or ApproxAdvice). `values` provides, for V = Value and ApproxValue:
//   void Position(const Dice& after, V& stop, std::optional<V>& roll)
//       the stop value and (if dice are left) the roll value of a set-aside;
//   void Stop(int score, V& value)  the value of ending the turn with `score`.
template <typename Advice = RollAdvice, typename Compare, typename Values>
Advice AdviseTakes(const Rules& rules, const Dice& aside, const Dice& roll, const Compare& compare,
                   const Values& values) {
  Advice advice;
  advice.options.reserve(4);  // rays and three earthling types at most: one allocation
  advice.aside_after_tanks = aside;
  advice.aside_after_tanks.add(Face::kTank, roll.count(Face::kTank));
  for (Face face : {Face::kRay, Face::kHuman, Face::kCow, Face::kChicken}) {
    if (roll.count(face) == 0 || (IsEarthling(face) && aside.count(face) > 0)) continue;
    auto& option = advice.options.emplace_back();
    option.take = face;
    option.count = roll.count(face);
    option.aside_after = advice.aside_after_tanks;
    option.aside_after.add(face, option.count);
    values.Position(option.aside_after, option.stop, option.roll);
    option.then = Decide(compare, option.stop, option.roll, option.value);
  }
  if (advice.options.empty()) {
    advice.turn_over = true;
    advice.turn_over_score = TurnScore(rules, advice.aside_after_tanks);
    values.Stop(advice.turn_over_score, advice.value);
    return advice;
  }
  int best = 0;
  for (int i = 1; i < static_cast<int>(advice.options.size()); ++i) {
    if (compare.Better(advice.options[i].value, advice.options[best].value)) best = i;
  }
  advice.value = advice.options[best].value;
  for (auto& option : advice.options) option.optimal = compare.Tied(option.value, advice.value);
  // The reported best is the first optimal option in face order.
  for (int i = 0; i < static_cast<int>(advice.options.size()); ++i) {
    if (advice.options[i].optimal) {
      advice.best = i;
      break;
    }
  }
  return advice;
}

// AdviseRoll's takes from a valid `roll` at a valid `aside`, on doubles: the
// same picks where `solution` is of double precision (turn_query.cpp).
ApproxAdvice AdviseRollApprox(const TurnSolution& solution, const Dice& aside, const Dice& roll);

}  // namespace martiandice::internal

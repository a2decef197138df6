// Internal: the shape of a best-move answer shared by the turn queries
// (query.cpp) and the win queries (win_query.cpp): stop-or-roll decisions and
// the ranked takes from a roll, for any comparison of values and any source of
// stop and roll values.
#pragma once

#include <optional>

#include "martiandice/dice.h"
#include "martiandice/turn_query.h"
#include "martiandice/rules.h"

namespace martiandice::internal {

// A comparison policy provides:
//   bool Better(const Value& a, const Value& b)  a is preferred to b (the maximum)
//   bool Tied(const Value& a, const Value& b)    a and b count as equal
// Better must be false for equal values, so the first of equal maxima wins.

// The better of stopping and rolling on (`roll` unset: no dice left) into `best`.
template <typename Compare>
Then Decide(const Compare& compare, const Value& stop, const std::optional<Value>& roll,
            Value& best) {
  if (!roll) {
    best = stop;
    return Then::kStop;
  }
  best = compare.Better(*roll, stop) ? *roll : stop;
  if (compare.Tied(stop, *roll)) return Then::kEither;
  return compare.Better(stop, *roll) ? Then::kStop : Then::kRoll;
}

// Every take from `roll` at `aside` (already validated). `values` provides:
//   void Position(const Dice& after, Value& stop, std::optional<Value>& roll)
//       the stop value and (if dice are left) the roll value of a set-aside;
//   Value Stop(int score)  the value of ending the turn with `score`.
template <typename Compare, typename Values>
RollAdvice AdviseTakes(const Rules& rules, const Dice& aside, const Dice& roll,
                       const Compare& compare, const Values& values) {
  RollAdvice advice;
  advice.options.reserve(4);  // rays and three earthling types at most: one allocation
  advice.aside_after_tanks = aside;
  advice.aside_after_tanks.add(Face::kTank, roll.count(Face::kTank));
  for (Face face : {Face::kRay, Face::kHuman, Face::kCow, Face::kChicken}) {
    if (roll.count(face) == 0 || (IsEarthling(face) && aside.count(face) > 0)) continue;
    TakeOption& option = advice.options.emplace_back();
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
    advice.value = values.Stop(advice.turn_over_score);
    return advice;
  }
  int best = 0;
  for (int i = 1; i < static_cast<int>(advice.options.size()); ++i) {
    if (compare.Better(advice.options[i].value, advice.options[best].value)) best = i;
  }
  advice.value = advice.options[best].value;
  for (TakeOption& option : advice.options)
    option.optimal = compare.Tied(option.value, advice.value);
  // The reported best is the first optimal option in face order.
  for (int i = 0; i < static_cast<int>(advice.options.size()); ++i) {
    if (advice.options[i].optimal) {
      advice.best = i;
      break;
    }
  }
  return advice;
}

}  // namespace martiandice::internal

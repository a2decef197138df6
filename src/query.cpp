// Best-move queries: stop-or-roll at a position, and every take from a roll.
#include "martiandice/query.h"

#include <cmath>

#include "martiandice/state_space.h"
#include "solved_turn.h"

namespace martiandice {
namespace {

using internal::SolvedTurn;

// Relative tolerance under which double values count as tied.
constexpr double kDoubleTieTolerance = 1e-12;

// Sign of a - b; exact when both are exact, else within the double tolerance.
int CompareValues(const Value& a, const Value& b) {
  if (a.exact && b.exact) return *a.exact < *b.exact ? -1 : (*a.exact > *b.exact ? 1 : 0);
  double margin = kDoubleTieTolerance * std::max(std::abs(a.approx), std::abs(b.approx));
  if (a.approx - b.approx > margin) return 1;
  if (b.approx - a.approx > margin) return -1;
  return 0;
}

Value StopValue(const SolvedTurn& t, int score) {
  Value v{t.utility[score], std::nullopt};
  if (t.exact) v.exact = t.exact_utility[score];
  return v;
}

Value RollValue(const SolvedTurn& t, int id) {
  Value v{t.values.roll[id], std::nullopt};
  if (t.exact) v.exact = t.ExactRoll(id);
  return v;
}

// The better of stopping and rolling on (`roll` unset: no dice left).
Then Decide(const Value& stop, const std::optional<Value>& roll, Value& best) {
  if (!roll) {
    best = stop;
    return Then::kStop;
  }
  int c = CompareValues(stop, *roll);
  best = c >= 0 ? stop : *roll;
  return c > 0 ? Then::kStop : (c < 0 ? Then::kRoll : Then::kEither);
}

TakeOption MakeOption(const SolvedTurn& t, const Dice& after_tanks, Face face, int count) {
  TakeOption option;
  option.take = face;
  option.count = count;
  option.aside_after = after_tanks;
  option.aside_after.add(face, count);
  int id = t.model->IdOf(option.aside_after);
  const internal::CanonState& s = t.model->state(id);
  option.stop = StopValue(t, s.score);
  if (s.left > 0) option.roll = RollValue(t, id);
  option.then = Decide(option.stop, option.roll, option.value);
  return option;
}

}  // namespace

std::string_view ThenName(Then then) {
  switch (then) {
    case Then::kStop:
      return "stop";
    case Then::kRoll:
      return "roll";
    case Then::kEither:
      return "either";
  }
  return "?";
}

absl::StatusOr<PositionEval> EvaluatePosition(const TurnSolution& solution, const Dice& aside) {
  const SolvedTurn& t = solution.impl();
  if (absl::Status s = ValidateAside(t.rules, aside); !s.ok()) return s;
  int id = t.model->IdOf(aside);
  const internal::CanonState& s = t.model->state(id);
  PositionEval eval;
  eval.aside = aside;
  eval.dice_left = s.left;
  if (s.left > 0) eval.roll = RollValue(t, id);
  if (aside.empty()) {
    eval.value = *eval.roll;
    eval.action = Then::kRoll;
    return eval;
  }
  eval.stop = StopValue(t, s.score);
  eval.action = Decide(*eval.stop, eval.roll, eval.value);
  return eval;
}

absl::StatusOr<RollAdvice> AdviseRoll(const TurnSolution& solution, const Dice& aside,
                                      const Dice& roll) {
  const SolvedTurn& t = solution.impl();
  if (absl::Status s = ValidateRoll(t.rules, aside, roll); !s.ok()) return s;
  RollAdvice advice;
  advice.aside_after_tanks = aside;
  advice.aside_after_tanks.add(Face::kTank, roll.count(Face::kTank));
  for (Face face : {Face::kRay, Face::kHuman, Face::kCow, Face::kChicken}) {
    if (roll.count(face) == 0 || (IsEarthling(face) && aside.count(face) > 0)) continue;
    advice.options.push_back(MakeOption(t, advice.aside_after_tanks, face, roll.count(face)));
  }
  if (advice.options.empty()) {
    advice.turn_over = true;
    advice.turn_over_score = TurnScore(t.rules, advice.aside_after_tanks);
    advice.value = StopValue(t, advice.turn_over_score);
    return advice;
  }
  int best = 0;
  for (int i = 1; i < static_cast<int>(advice.options.size()); ++i) {
    if (CompareValues(advice.options[i].value, advice.options[best].value) > 0) best = i;
  }
  advice.best = best;
  advice.value = advice.options[best].value;
  for (TakeOption& option : advice.options) {
    option.optimal = CompareValues(option.value, advice.value) == 0;
  }
  // The reported best is the first optimal option in face order.
  for (int i = 0; i < static_cast<int>(advice.options.size()); ++i) {
    if (advice.options[i].optimal) {
      advice.best = i;
      break;
    }
  }
  return advice;
}

}  // namespace martiandice

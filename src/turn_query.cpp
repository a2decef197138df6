// Best-move queries over a solved turn: stop-or-roll at a position, and every
// take from a roll (the option logic is shared with the win queries).
#include "martiandice/turn_query.h"

#include <algorithm>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "martiandice/state_space.h"
#include "solved_turn.h"
#include "take_options.h"

namespace martiandice {
namespace {

using internal::SolvedTurn;
using internal::TurnCompare;

Value StopValue(const SolvedTurn& t, int score) {
  Value v{t.utility[score], std::nullopt};
  if (t.exact) v.exact = t.exact_utility[score];
  return v;
}

Value RollValue(const SolvedTurn& t, int id) {
  Value v{t.Clamped(id, /*roll=*/true), std::nullopt};
  if (t.exact) v.exact = t.ExactRoll(id);
  return v;
}

// Stop and roll values from the solved turn; an ApproxValue leaves the exact
// values out.
struct TurnValuesSource {
  const SolvedTurn& t;
  template <typename V>
  void Position(const Dice& after, V& stop, std::optional<V>& roll) const {
    int id = t.model->IdOf(after);
    const internal::CanonState& s = t.model->state(id);
    Stop(s.score, stop);
    if (s.left == 0) return;
    if constexpr (std::is_same_v<V, Value>) {
      roll = RollValue(t, id);
    } else {
      roll = internal::ApproxOnly<V>(t.Clamped(id, /*roll=*/true));
    }
  }
  template <typename V>
  void Stop(int score, V& value) const {
    if constexpr (std::is_same_v<V, Value>) {
      value = StopValue(t, score);
    } else {
      value = internal::ApproxOnly<V>(t.utility[score]);
    }
  }
};

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
  const SolvedTurn& t = internal::SolvedTurnAccess::Of(solution);
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
  eval.action = internal::Decide(TurnCompare{}, *eval.stop, eval.roll, eval.value);
  return eval;
}

absl::StatusOr<ChoiceReview> ReviewChoice(const RollAdvice& advice, Face take, Then then) {
  if (advice.turn_over) {
    return absl::InvalidArgumentError("no take is legal from this roll: the turn is over");
  }
  if (then == Then::kEither) {
    return absl::InvalidArgumentError("a choice either stops or rolls on, not either");
  }
  if (then != Then::kStop && then != Then::kRoll) {
    return absl::InvalidArgumentError(
        absl::StrCat("then: ", static_cast<int>(then), " is neither stop nor roll on"));
  }
  if (!IsFace(take)) {
    return absl::InvalidArgumentError(
        absl::StrCat("take: ", static_cast<int>(take), " is not a face (0 to 4)"));
  }
  const auto option = std::find_if(advice.options.begin(), advice.options.end(),
                                   [&](const TakeOption& o) { return o.take == take; });
  if (option == advice.options.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("take ", std::string(FaceName(take)), " is not a legal take from this roll"));
  }
  if (then == Then::kRoll && !option->roll) {
    return absl::InvalidArgumentError(absl::StrCat("no dice are left after taking ",
                                                   std::string(FaceName(take)),
                                                   ": the turn ends, it cannot roll on"));
  }
  ChoiceReview review;
  review.value = then == Then::kStop ? option->stop : *option->roll;
  review.best = advice.value;
  review.optimal = option->optimal && (option->then == Then::kEither || option->then == then);
  const bool exact = review.best.exact && review.value.exact;
  if (review.optimal) {
    review.loss.approx = 0;
    if (exact) review.loss.exact = Rational(0);
  } else {
    review.loss.approx = review.best.approx - review.value.approx;
    if (exact) review.loss.exact = *review.best.exact - *review.value.exact;
  }
  return review;
}

absl::StatusOr<RollAdvice> AdviseRoll(const TurnSolution& solution, const Dice& aside,
                                      const Dice& roll) {
  const SolvedTurn& t = internal::SolvedTurnAccess::Of(solution);
  if (absl::Status s = ValidateRoll(t.rules, aside, roll); !s.ok()) return s;
  return internal::AdviseTakes(t.rules, aside, roll, TurnCompare{}, TurnValuesSource{t});
}

namespace internal {

ApproxAdvice AdviseRollApprox(const TurnSolution& solution, const Dice& aside, const Dice& roll) {
  const SolvedTurn& t = SolvedTurnAccess::Of(solution);
  return AdviseTakes<ApproxAdvice>(t.rules, aside, roll, TurnCompare{}, TurnValuesSource{t});
}

}  // namespace internal

}  // namespace martiandice

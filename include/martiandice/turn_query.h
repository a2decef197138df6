// Best-move queries over a solved turn: the value of stopping or rolling on
// from a position, and every legal take from a roll, ranked.
// All functions are thread-safe (they only read the solution).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/turn_solver.h"

namespace martiandice {

// What to do after a choice: stop, roll on, or either (equal values: exactly
// equal with Precision::kExact, within 1e-12 relative with kDouble).
enum class Then { kStop, kRoll, kEither };
// "stop", "roll" or "either".
std::string_view ThenName(Then then);

// A value under the objective; `exact` is set when the solution is exact.
struct Value {
  double approx = 0;
  std::optional<Rational> exact;
};

// Stop-or-roll decision at a position.
struct PositionEval {
  Dice aside;
  int dice_left = 0;
  std::optional<Value> stop;  // unset before the first roll (stopping is not allowed)
  std::optional<Value> roll;  // unset when no dice are left
  Value value;                // the better of the two
  Then action = Then::kRoll;
};

// One legal take from a roll.
struct TakeOption {
  Face take = Face::kRay;     // kRay or an earthling
  int count = 0;              // dice set aside by this take
  Dice aside_after;           // set aside after the take (this roll's tanks included)
  Value stop;                 // value if the player then stops
  std::optional<Value> roll;  // value if the player then rolls on; unset with no dice left
  Value value;                // the better of the two
  Then then = Then::kStop;
  bool optimal = false;  // value equals the best option's (several may be)
};

// Every legal take from a roll, in face order (ray, human, cow, chicken).
struct RollAdvice {
  Dice aside_after_tanks;  // the set-aside plus this roll's tanks
  std::vector<TakeOption> options;
  bool turn_over = false;   // no legal take: the turn ends now and is scored
  int turn_over_score = 0;  // the score in that case
  Value value;              // value of the roll under optimal play
  std::optional<int> best;  // index of the first optimal option; unset if turn over
};

// What one choice from a roll (a take, then stop or roll on) is worth against
// the best choice: the loss a review reports.
struct ChoiceReview {
  Value value;  // of the choice: the take's stop value, or its roll value
  Value best;   // of the roll under optimal play (RollAdvice::value)
  // best - value, or exactly 0 for an optimal choice; `exact` is set when
  // the advice is exact.
  Value loss;
  // Worth as much as the best: the take is optimal and `then` is its
  // decision (or either is), within the advice's comparison of values.
  bool optimal = false;
};

// Reviews the choice `take` then `then` (kStop or kRoll) from the roll
// `advice` ranks. Errors (InvalidArgument): a roll with no legal take, kEither
// or another value that is neither kStop nor kRoll, a take that is no face
// (IsFace) or not among advice.options, or rolling on with no dice left.
absl::StatusOr<ChoiceReview> ReviewChoice(const RollAdvice& advice, Face take, Then then);

// Stop-or-roll values at `aside`. Errors (InvalidArgument): `aside` is not a
// position the rules can produce (see ValidateAside).
absl::StatusOr<PositionEval> EvaluatePosition(const TurnSolution& solution, const Dice& aside);

// Ranks every take from `roll` rolled at `aside`. Errors (InvalidArgument):
// invalid position, no dice left, or a roll that does not show exactly the
// dice left to roll (see ValidateRoll).
absl::StatusOr<RollAdvice> AdviseRoll(const TurnSolution& solution, const Dice& aside,
                                      const Dice& roll);

}  // namespace martiandice

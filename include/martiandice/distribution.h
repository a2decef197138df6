// The law of a turn's final score when the turn is played optimally: a forward
// pass of probability from the start of the turn over every position, each roll
// outcome with its exact multinomial weight, following the solution's decisions.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/exact.h"
#include "martiandice/turn_solver.h"
#include "martiandice/win_query.h"

namespace martiandice {

// P(the turn ends with s points), s = 0..MaxTurnScore(rules).
struct ScoreDistribution {
  std::vector<double> probability;  // sums to 1 (up to rounding)
  std::vector<Rational> exact;      // the same exactly (exact solutions only; else empty)

  // Sum of s * probability[s].
  double Mean() const;
  // Exact mean (exact solutions only: requires `exact`; 0 when it is empty).
  Rational ExactMean() const;
};

// The policy followed is the one the queries advise: from each roll the first
// optimal take in face order (ray, human, cow, chicken; RollAdvice::best), then
// roll on only when rolling is strictly better (Then::kRoll; a tie stops), as
// `martiandice simulate` plays. Ties change nothing for the objective's own
// expected value, only (rarely) for the score law.

// The score law of a fresh turn played optimally for `solution`'s objective.
// With an exact solution, decisions are exact and `exact` holds rationals
// (their mean equals StartValue() exactly for the expected-score objective):
// the double solution of the same objective decides wherever its values are
// apart by more than its tie tolerance, the exact solution decides near-ties.
// Cost: one AdviseRoll per reachable (position, roll) pair, about 0.5 million
// for the official rules; exact solutions cost more (rational arithmetic).
// Errors: none in practice (a failed query is returned).
absl::StatusOr<ScoreDistribution> TurnScoreDistribution(const TurnSolution& solution);

// The score law of the turn of the seat to move at `context`, played to win
// (AdviseWin's decisions). Errors: InvalidArgument for an invalid context (see
// ValidateContext); DataLoss for a corrupt block of a mapped table (AdviseWin's).
// Doubles only; `exact` is empty.
absl::StatusOr<ScoreDistribution> TurnScoreDistribution(const GameTable& table,
                                                        const GameContext& context);

// The law of the rest of a turn from the set-aside `start` (a valid position
// with dice left; empty: a fresh turn, as above), when the player rolls at
// once and then plays as above: what a roll on from `start` leads to.
// probability[0] is the chance that rolling on ends the turn with no points.
// Cost: the forward pass over the positions reachable from `start`. Errors
// (InvalidArgument): `start` is not a position (ValidateAside) or leaves no
// dice; the context's, as above.
absl::StatusOr<ScoreDistribution> TurnScoreDistribution(const TurnSolution& solution,
                                                        const Dice& start);
absl::StatusOr<ScoreDistribution> TurnScoreDistribution(const GameTable& table,
                                                        const GameContext& context,
                                                        const Dice& start);

// Thread safety: these functions only read their arguments; any number of
// threads may call them.

}  // namespace martiandice

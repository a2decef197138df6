// Playing to win the game: best-move queries that maximise the mover's
// probability of winning, answered from a policy table (martiandice/table.h).
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/table.h"
#include "martiandice/turn_query.h"

namespace martiandice {

// A win query's answers: the turn decision in win probability of the mover,
// and every seat's win probability at the context.
struct WinEval {
  PositionEval position;  // values are the mover's win probability
  std::vector<double> win_probabilities;
};
struct WinAdvice {
  RollAdvice advice;  // values are the mover's win probability
  std::vector<double> win_probabilities;
};

// Stop-or-roll at `aside` in `context`. Errors: InvalidArgument for an
// invalid context or position; DataLoss when a block of a mapped table that
// the answer reads is corrupt (GameTable::Verify's message).
absl::StatusOr<WinEval> EvaluateWin(const GameTable& table, const GameContext& context,
                                    const Dice& aside);
// Every take from `roll` at `aside` in `context`, ranked by the mover's chance
// to win. advice.best is the tie convention's pick among the optimal takes
// (docs/PLAYERS.md: rays, then the earthling type showing the most dice, then
// Human, Cow, Chicken). Errors: InvalidArgument for an invalid context,
// position or roll; DataLoss as EvaluateWin's.
absl::StatusOr<WinAdvice> AdviseWin(const GameTable& table, const GameContext& context,
                                    const Dice& aside, const Dice& roll);

}  // namespace martiandice

// Internal: the chance that a turn scores 0 under a policy, from every
// set-aside of the turn (the advisor's zero chances, GameAdvice). The policy
// is a game table's at one context (AdviseWin's picks) or a solved turn's
// (AdviseRoll's). One walk sums it backwards over the turn model's canonical
// positions, roll terms and outcome classes (2,175, 21,640 and 21,326 at 13
// dice), the whole turn at once. The chance is the same at every set-aside
// of a canonical position (both policies' picks are alike under a
// relabelling of earthling types that keeps the untaken ones in face order).
// Where face order breaks a tie between takes of different counts
// (AdviseRoll's pick), the class is split into its ordered outcomes. The
// tests hold it to a walk over every concrete roll (400,000 decisions a turn).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "martiandice/turn_solver.h"
#include "turn_model.h"

namespace martiandice::internal {

// A set-aside to roll from: ValidateAside's errors, or InvalidArgument when
// no dice are left. TurnScoreDistribution's check (distribution.cpp).
absl::Status CheckStart(const Rules& rules, const Dice& aside);

class ZeroChances {
 public:
  // The win policy of `table` at `context`. Errors: ValidateContext's;
  // DataLoss for a corrupt record the turn reads.
  static absl::StatusOr<std::unique_ptr<const ZeroChances>> ForTable(const GameTable& table,
                                                                     const GameContext& context);
  // The policy of `turn`, a double-precision solution.
  static std::unique_ptr<const ZeroChances> ForTurn(const TurnSolution& turn);

  // The policy's TurnScoreDistribution from `aside`, probability[0], equal
  // within rounding (another order of summation): the chance that rolling
  // from `aside` and following the policy's picks ends the turn with 0
  // points. Errors: CheckStart's for `aside`. Thread-safe.
  absl::StatusOr<double> At(const Dice& aside) const;

  // The classes split into ordered outcomes (face order decided).
  int split_classes() const { return split_classes_; }

 private:
  ZeroChances(const Rules& rules, std::shared_ptr<const TurnModel> model)
      : rules_(rules), model_(std::move(model)) {}

  Rules rules_;
  std::shared_ptr<const TurnModel> model_;
  std::vector<double> by_position_;  // by canonical position (model_'s numbering)
  int split_classes_ = 0;
};

}  // namespace martiandice::internal

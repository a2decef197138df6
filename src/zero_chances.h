// Internal: the chance that a turn scores 0 under a policy, from every
// set-aside of the turn (the advisor's zero chances, GameAdvice). The policy
// is a game table's at one context (AdviseWin's picks) or a solved turn's
// (AdviseRoll's). Two walks sum it backwards:
//   - the class walk, over the turn model's canonical positions, roll terms
//     and outcome classes (2,175, 21,640 and 21,326 at 13 dice), the whole
//     turn at once. The chance is the same at every set-aside of a
//     canonical position (both policies' picks are alike under a
//     relabelling of earthling types that keeps the untaken ones in face
//     order). Where face order breaks a tie between takes of different
//     counts (AdviseRoll's pick), the class is split into its ordered
//     outcomes;
//   - the roll walk, over every concrete roll from each set-aside (400,000
//     decisions a turn), each set-aside once on first use: the reference the
//     tests hold the class walk to.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "martiandice/turn_solver.h"
#include "take_options.h"
#include "turn_model.h"

namespace martiandice::internal {

// A set-aside to roll from: ValidateAside's errors, or InvalidArgument when
// no dice are left. TurnScoreDistribution's check (distribution.cpp).
absl::Status CheckStart(const Rules& rules, const Dice& aside);

class ZeroChances {
 public:
  enum class Walk { kClasses, kRolls };

  // The win policy of `table` at `context` (the roll walk keeps the table
  // alive). Errors: ValidateContext's; DataLoss for a corrupt record the
  // turn reads.
  static absl::StatusOr<std::unique_ptr<const ZeroChances>> ForTable(const GameTable& table,
                                                                     const GameContext& context,
                                                                     Walk walk = Walk::kClasses);
  // The policy of `turn`, a double-precision solution (the roll walk keeps
  // it alive).
  static std::unique_ptr<const ZeroChances> ForTurn(const TurnSolution& turn,
                                                    Walk walk = Walk::kClasses);
  // Out of line: the map's code stays in the library (it links Abseil's
  // hash map privately).
  ~ZeroChances();

  // The policy's TurnScoreDistribution from `aside`, probability[0], equal
  // within rounding (another order of summation): the chance that rolling
  // from `aside` and following the policy's picks ends the turn with 0
  // points. Errors: CheckStart's for `aside`. Thread-safe.
  absl::StatusOr<double> At(const Dice& aside) const;

  // The walk that answers.
  Walk walk() const { return advise_ ? Walk::kRolls : Walk::kClasses; }
  // The class walk's classes split into ordered outcomes (face order decided).
  int split_classes() const { return split_classes_; }

 private:
  // The policy's advice from a valid roll at a valid set-aside.
  using Advise = std::function<ApproxAdvice(const Dice& aside, const Dice& roll)>;
  ZeroChances(const Rules& rules, Advise advise) : rules_(rules), advise_(std::move(advise)) {}
  absl::StatusOr<double> Compute(const Dice& aside) const;  // mutex_ held

  Rules rules_;
  // The class walk's chances by canonical position (model_'s numbering).
  std::shared_ptr<const TurnModel> model_;
  std::vector<double> by_position_;
  int split_classes_ = 0;
  // The roll walk's policy and the set-asides it has summed.
  Advise advise_;
  mutable std::mutex mutex_;
  mutable absl::flat_hash_map<std::uint32_t, double> memo_;  // by DiceKey
};

}  // namespace martiandice::internal

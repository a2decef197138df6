// Internal: the chance that the win policy's turn scores 0, from every
// set-aside of one context's turn (the advisor's zero chances, GameAdvice):
// summed backwards over the rolls, each position once on first use and kept,
// so that every later decision of the turn reads it.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/state_space.h"
#include "martiandice/table.h"
#include "win_values.h"

namespace martiandice::internal {

class ZeroChances {
 public:
  // The turn at `context` of `table` (kept alive). Errors: ValidateContext's;
  // DataLoss for a corrupt record the turn reads.
  static absl::StatusOr<std::unique_ptr<const ZeroChances>> Create(const GameTable& table,
                                                                   const GameContext& context);

  // TurnScoreDistribution(table, context, aside).probability[0], equal within
  // rounding (another order of summation): the chance that rolling from
  // `aside` and following AdviseWin's picks ends the turn with 0 points.
  // Errors: TurnScoreDistribution's for `aside` (invalid, or no dice left).
  // Thread-safe.
  absl::StatusOr<double> At(const Dice& aside) const;

 private:
  ZeroChances(const GameTable& table, const GameContext& context);
  double Compute(const Dice& aside) const;  // mutex_ held

  GameTable table_;
  WinValues values_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::uint32_t, double> memo_;  // by set-aside
  mutable std::vector<std::vector<RollOutcome>> rolls_;     // by dice left, on first use
};

}  // namespace martiandice::internal

// Turn positions (what is set aside) and roll distributions: which positions
// the rules can produce, and the exact multinomial law of every roll.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"

namespace martiandice {

// One outcome of rolling some dice: the faces shown and the number of the
// 6^n ordered die results that produce them (weights sum to exactly 6^n).
struct RollOutcome {
  Dice faces;
  std::uint64_t weight = 0;
};

// Every distinct outcome of rolling `dice` dice (0 <= dice <= kMaxDice), in a
// fixed order, with integer weights over 6^dice. Returns an empty list for a
// count out of range.
std::vector<RollOutcome> RollDistribution(int dice);

// 6^n as an exact integer (n <= 24).
std::uint64_t PowerOfSix(int n);

// Checks that `aside` is a position a turn can be in when the player decides
// what to do next: the start of the turn (nothing set aside), or any set-aside
// reachable after a choice. Errors (InvalidArgument) name the problem: more
// dice than the rules have, or tanks with no chosen face (a choice is
// compulsory, so tanks are never set aside alone).
absl::Status ValidateAside(const Rules& rules, const Dice& aside);

// Checks `roll` as the result of rolling every die not in `aside`: `aside`
// must be valid (see ValidateAside) with dice left, and the roll must show
// exactly that many dice.
absl::Status ValidateRoll(const Rules& rules, const Dice& aside, const Dice& roll);

// Size figures of a rule set's turn, computed by enumerating positions from
// the start of the turn with the rules (breadth-first over every roll).
struct StateSpaceStats {
  std::int64_t positions = 0;            // reachable decision positions, start included
  std::int64_t canonical_positions = 0;  // the same up to relabelling earthling types
  std::int64_t terminal_positions = 0;   // set-asides a turn can end with (scored)
  std::int64_t roll_pairs = 0;           // (position, distinct roll outcome) pairs
};

// Enumerates the turn under `rules` (InvalidArgument if the rules are out of range).
absl::StatusOr<StateSpaceStats> ComputeStateSpaceStats(const Rules& rules);

// Every reachable decision position (start first), in a deterministic order.
absl::StatusOr<std::vector<Dice>> ReachablePositions(const Rules& rules);

}  // namespace martiandice

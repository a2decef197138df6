// Internal: the numbers behind the fallback's objective at a context
// (advisor.h's FallbackObjective), from one scan of the totals: what
// PointsNeeded returns, what the advisor names and what the bots index their
// solved turns by (policy.cpp), so all three read the leader the same way.
#pragma once

#include <algorithm>

#include "martiandice/game_state.h"
#include "martiandice/rules.h"

namespace martiandice::internal {

// The highest total among the seats other than the mover, and how many of
// them hold it (1 or more with 2 or more players). Any context: seats out of
// range are simply not skipped.
struct OthersLead {
  int total = 0;
  int level = 0;
};
inline OthersLead LeadOfOthers(const GameContext& context) {
  OthersLead lead;
  for (int seat = 0; seat < static_cast<int>(context.scores.size()); ++seat) {
    if (seat == context.seat) continue;
    const int total = context.scores[seat];
    if (total > lead.total) lead = {total, 0};
    if (total == lead.total) ++lead.level;
  }
  return lead;
}

// The fallback at a context: capped:needed before the final round,
// final:needed/level in it.
struct FallbackTurnSpec {
  bool final_round = false;
  int needed = 1;  // PointsNeeded
  int level = 1;   // final round: the other seats level with the leader (1 or more)
};
inline FallbackTurnSpec FallbackTurnAt(const Rules& rules, const GameContext& context) {
  const OthersLead lead = LeadOfOthers(context);
  const bool seated = context.seat >= 0 && context.seat < static_cast<int>(context.scores.size());
  const int own = seated ? context.scores[context.seat] : 0;  // invalid: unspecified, defined
  FallbackTurnSpec spec;
  spec.final_round = FinalRoundBegun(rules, context.scores, context.seat);
  spec.needed = std::max(1, spec.final_round ? lead.total + 1 - own : rules.target - own);
  spec.level = std::max(lead.level, 1);
  return spec;
}

}  // namespace martiandice::internal

// Internal: the turn solve of the N-player game (docs/PLAYERS.md). The mover
// maximises its own utility and breaks ties by the fixed convention; other
// utilities (other seats' chances, the chance of a zero-score turn) are
// carried along as expectations under the actions the mover chooses.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "turn_model.h"

namespace martiandice::internal {

// Two values of the mover within this distance are tied (docs/PLAYERS.md).
inline constexpr double kConventionTie = 1e-12;
// Most carried utilities one solve takes.
inline constexpr int kMaxCarried = 8;

// Arithmetic of the solve: double, or x87 extended precision (64-bit
// significand), whose rounding is about 2,000 times smaller.
enum class Arithmetic { kDouble, kExtended };

struct ConventionTurn {
  double value = 0;             // the mover's expected utility from the start of the turn
  std::vector<double> carried;  // each carried utility's expectation from the start
  // The same before rounding to double (extended arithmetic: about 2,000
  // times finer; double: equal to them).
  Wide wide_value = 0;
  std::vector<Wide> wide_carried;
  long long tied_decisions = 0;  // decision points where another action was tied
  long long kingmaking = 0;      // ... and would change a watched carried utility
};

// The mover's actions as one solve chose them, for PolicyScoreLaw.
struct ConventionPolicy {
  std::vector<std::uint8_t> rolls;  // per position (TurnModel numbering): 1 if it rolls on
  // Per outcome class of every (group, q) law (TurnModel::LawClassBegin
  // numbering): the action chosen, x = the earthlings taken (the position
  // TurnModel::EarthChildren(group)[x]), or 0: the rays, or the turn's end
  // at the group where there are none (TurnModel::RayChildren(group)[q],
  // -1). One byte, not the position's four: a game solve keeps a recorded
  // policy per turn in flight, and their size is what stays in cache.
  std::vector<std::uint8_t> take;
  // Input: the carried utility that is the indicator of score 0, or -1. Its
  // expectation is every value's slope in utility[0], so the solve can find
  // how far utility[0] may move, all else fixed, before an action or a tie
  // count would change: [utility[0] - below, utility[0] + above], at most
  // kRangeCap each way, with kRangeSlack to spare against rounding.
  int zero_lane = -1;
  double below = 0, above = 0;  // output (0 with zero_lane < 0)
};

// The widest range a solve reports, and the room kept at every boundary.
inline constexpr double kRangeCap = 1.0 / 64;
inline constexpr double kRangeSlack = 1e-13;
// Zero-score chances of tied options this close differ by rounding only.
inline constexpr double kRoundingSlope = 1e-15;

// Solves the turn for the mover's `utility[score]` (score 0..MaxScore()) and
// carries `carried_utilities` (each indexed by score; 1..kMaxCarried of them).
// A tie is counted as kingmaking when the tied actions differ by more than
// kConventionTie in a carried utility whose bit is set in `watched`.
// With `policy`, also records the actions chosen (resized as needed).
// Deterministic; thread-safe (per-thread scratch).
void SolveConvention(const TurnModel& model, const std::vector<double>& utility,
                     std::span<const std::vector<double>> carried_utilities, unsigned watched,
                     Arithmetic arithmetic, ConventionTurn* out,
                     ConventionPolicy* policy = nullptr);

// The law of the turn score when the mover plays `policy` (recorded by a
// solve on `model`), in extended precision: (*law)[x] is the chance that the
// turn scores x, x = 0..MaxScore(). One pass down the turn carrying the
// chance of reaching each position: a solve with one lane per score costs far
// more. Thread-safe (per-thread scratch).
void PolicyScoreLaw(const TurnModel& model, const ConventionPolicy& policy, std::vector<Wide>* law);

// The same solve for the mover's `utility` alone, keeping every position's
// roll value: (*roll)[id] is the mover's expected utility of rolling on from
// position `id` (TurnModel numbering) and playing on by the convention; NaN
// with no dice left. Resizes *roll to model.size(). With `policy`, also
// records the actions chosen, the same as SolveConvention's for `utility`
// (no range: zero_lane is set to -1). Thread-safe.
void SolveConventionRolls(const TurnModel& model, const std::vector<double>& utility,
                          Arithmetic arithmetic, std::vector<double>* roll,
                          ConventionPolicy* policy = nullptr);

}  // namespace martiandice::internal

// The skill rating (docs/RATING.md): each decision classed by the chance to
// win it gave away against optimal play, and a player's decisions rated on a
// 0-100 scale from their mean loss per decision. `play`, `review`,
// `simulate --rate` and the page all rate through this file.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "martiandice/turn_query.h"

namespace martiandice::app {

// A decision's class by its loss (chance to win, 0..1) and whether the
// review found it optimal (ties with the best count as optimal).
enum class DecisionClass { kOptimal, kInaccuracy, kError, kBlunder };
inline constexpr int kDecisionClasses = 4;
// Below this loss a non-optimal decision is an inaccuracy (1 percentage
// point); from it on an error.
inline constexpr double kErrorFrom = 0.01;
// From this loss on, a blunder (5 percentage points).
inline constexpr double kBlunderFrom = 0.05;

DecisionClass ClassOf(bool optimal, double loss);
// Whether a roll, as `advice` ranks it, leaves its player a decision: more
// than one legal take, or a take with dice left after it (then stop or roll
// on). A roll whose one legal take leaves no dice offers nothing to choose:
// it is not rated (nor is a roll with no legal take).
bool IsDecision(const RollAdvice& advice);
// "optimal", "inaccuracy", "error", "blunder".
const char* ClassName(DecisionClass c);

// The rating's scale: 100 * 2^(-mean loss per decision / kHalfLoss), so a
// mean loss of kHalfLoss per decision rates 50 and every further kHalfLoss
// halves it.
inline constexpr double kHalfLoss = 0.01;

// Decisions counted and classed. Not thread-safe: one tally per thread.
struct RatingTally {
  std::int64_t decisions = 0;
  std::array<std::int64_t, kDecisionClasses> classes{};  // by DecisionClass
  double total_loss = 0;                                 // chance to win, summed

  void Add(bool optimal, double loss);
  std::int64_t optimal() const { return classes[0]; }
  double MeanLoss() const;
};

// A tally's rating: the score on the scale and the band it falls in.
struct Rating {
  double score = 0;       // 0..100; 100 only with no loss at all
  const char* band = "";  // "perfect", "master", ..., "beginner" (RatingBand)
};

// The band of a score: perfect (no loss), master (>= 90), expert (>= 75),
// strong (>= 50), casual (>= 25), beginner (< 25).
const char* RatingBand(double score);

// The rating of `tally`; nullopt with no decision.
std::optional<Rating> Rate(const RatingTally& tally);

// "Rating 87 of 100 (expert)"; a score rounds down, so only a game without
// loss says 100.
std::string RatingText(const Rating& rating);

// The non-optimal classes' counts for people: "3 inaccuracies, 1 error, 0 blunders".
std::string ClassCountsText(const RatingTally& tally);

// A tally for people: "1,234 decisions, 78.10% optimal (40 inaccuracies,
// 12 errors, 3 blunders), lost 0.52% a decision: rating 70 of 100 (strong)";
// "no decisions" for an empty one.
std::string TallyText(const RatingTally& tally);

// A tally as JSON: {"decisions", "optimal", "inaccuracies", "errors",
// "blunders", "total_loss", "mean_loss", "score" (null without decisions),
// "band" (null likewise)}.
std::string RatingJson(const RatingTally& tally);

}  // namespace martiandice::app

// Objectives: a utility of the turn's final score that the turn solver maximises
// in expectation (expected score, chance to reach K, expected capped score, the
// final round's chance to win, ...).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/exact.h"

namespace martiandice {

// Immutable value type; thread-safe to share.
class Objective {
 public:
  // `ev`: utility = score.
  static Objective ExpectedScore();
  // `reach:K`: utility = 1 if score >= k else 0 (probability of scoring at least k).
  static Objective ReachAtLeast(int k);
  // `capped:M`: utility = min(score, m).
  static Objective Capped(int m);
  // `final:M/K`: a turn of the final round, M points short of passing the
  // leader, K other seats (1 or more) level with that leader: utility = 1 for
  // a score of m or more, 1/(k+1) for m - 1 (the win shared with k seats),
  // else 0. The fallback's objective in the final round (advisor.h).
  static Objective FinalRound(int m, int k);
  // Any utility: `utility[s]` for final score s; scores past the end use the last
  // entry. Error if the table is empty.
  static absl::StatusOr<Objective> Custom(std::string name, std::vector<Rational> utility);
  // Parses "ev", "reach:K", "capped:M" or "final:M/K" (integers in 0..1000;
  // final's M in 1..1000, its K in 1..kMaxPlayers - 1). Errors name the
  // problem (unknown objective, missing or bad number).
  static absl::StatusOr<Objective> Parse(std::string_view spec);

  // The spec string ("ev", "reach:10", "final:7/1", or the custom name).
  const std::string& name() const { return name_; }
  // Whether the utility is a chance (reach:K, final:M/K: values are
  // probabilities, shown as percentages), not points (ev, capped:M) or a
  // custom table.
  bool is_chance() const { return kind_ == Kind::kReach || kind_ == Kind::kFinal; }
  // A key for caches of solved turns: two objectives with equal keys have the
  // same name and the same utility at every score (a custom objective's key
  // holds its name and utility table; equal utilities written differently,
  // e.g. with the last entry repeated, get different keys).
  std::string key() const;
  // One line for people: "expected score", "probability of scoring at least 10", ...
  std::string Describe() const;

  // What a turn ending with `score` points (0 or more) is worth: the score
  // (ev), 1 or 0 (reach:K), min(score, M) (capped:M), 1, 1/(K+1) or 0
  // (final:M/K), or the custom table's entry (its last entry past its end).
  // Exactly, and as the nearest double.
  Rational ExactUtility(int score) const;
  double Utility(int score) const;

 private:
  enum class Kind { kExpected, kReach, kCapped, kFinal, kCustom };
  Objective(Kind kind, int param, std::string name, int tied = 0)
      : kind_(kind), param_(param), tied_(tied), name_(std::move(name)) {}

  Kind kind_;
  int param_;
  int tied_;  // final:M/K's K
  std::string name_;
  std::vector<Rational> table_;
};

}  // namespace martiandice

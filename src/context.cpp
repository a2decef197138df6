// Turn-start contexts (martiandice/context.h): their checks and the scores'
// notation.
#include "martiandice/context.h"

#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace martiandice {
namespace {

// One seat's total checked: not negative, and below `limit`.
absl::Status CheckScore(const Rules& rules, int seat, int score, int limit) {
  if (score < 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("seat %d's score %d is negative", seat, score));
  }
  if (score >= limit) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "seat %d's score %d is unreachable: a game total never exceeds target - 1 + the "
        "highest turn score = %d",
        seat, score, rules.target - 1 + MaxTurnScore(rules)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidatePlayers(int players) {
  if (players >= kMinPlayers && players <= kMaxPlayers) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrFormat("a game has %d to %d players, not %d", kMinPlayers, kMaxPlayers, players));
}

absl::Status ValidateContext(const Rules& rules, int players, const GameContext& context) {
  if (absl::Status s = ValidateRules(rules); !s.ok()) return s;
  if (absl::Status s = ValidatePlayers(players); !s.ok()) return s;
  const int n = static_cast<int>(context.scores.size());
  if (n != players) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d score%s given but the game has %d players", n, n == 1 ? " is" : "s are", players));
  }
  if (context.seat < 0 || context.seat >= players) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "seat %d is out of range: seats are numbered 0..%d", context.seat, players - 1));
  }
  const int limit = rules.target + MaxTurnScore(rules);
  for (int j = 0; j < players; ++j) {
    if (absl::Status s = CheckScore(rules, j, context.scores[j], limit); !s.ok()) return s;
  }
  if (context.seat < FirstSeatToMove(rules, context.scores)) {
    int j = context.seat;  // the first seat from the mover on at the target
    while (context.scores[j] < rules.target) ++j;
    return absl::InvalidArgumentError(absl::StrFormat(
        "the game is already over: seat %d has %d (target %d) and has not played this round, "
        "so it reached the target in an earlier round, which ended the game before seat %d's "
        "turn",
        j, context.scores[j], rules.target, context.seat));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int>> ParseScores(std::string_view text) {
  std::vector<int> scores;
  int field = 0;
  for (absl::string_view part : absl::StrSplit(absl::string_view(text.data(), text.size()), ',')) {
    ++field;
    absl::string_view trimmed = absl::StripAsciiWhitespace(part);
    int value = 0;
    bool digits = !trimmed.empty() && trimmed.find_first_not_of("0123456789") == trimmed.npos;
    if (digits && !absl::SimpleAtoi(trimmed, &value)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("scores \"%s\": field %d (\"%s\") is too large for a game's total",
                          std::string(text), field, std::string(part)));
    }
    if (!digits) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "scores \"%s\": field %d (\"%s\") is not a non-negative whole number; expected "
          "comma-separated totals, seat 0 first, e.g. \"10,12\"",
          std::string(text), field, std::string(part)));
    }
    scores.push_back(value);
  }
  return scores;
}

}  // namespace martiandice

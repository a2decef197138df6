// `martiandice review`: reads played turns (a turn, or a game's turns with
// their scores) in a line format, and reports for every decision the optimal
// choice and what the actual choice lost, in expected score (turn objectives)
// or in win probability (objective win, from the policy table).
//
// Line format (keywords are case-insensitive; `#` starts a comment; blank
// lines are skipped):
//   roll DICE take FACE   the dice rolled (notation, e.g. 2T 3R 4H 3C 1K) and
//                         the face set aside: R, H, C, K, a name (ray, human,
//                         cow, chicken) or a count and letter (4H)
//   roll DICE             a roll with no legal take: the turn is over
//   stop                  the player stops (after a take with dice left)
//   scores S0,S1 [seat I] the game totals before the next turn and the seat
//                         to move (default 0); needed before every turn with
//                         --objective win unless --scores gives a single turn's
// After a take with dice left, the next line is `roll` (the player rolled on)
// or `stop`. A turn also ends when a roll has no legal take or no dice are
// left after a take. The next `roll` starts a new turn.
#pragma once

#include <istream>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "cli_query.h"

namespace martiandice {

// Largest review input, in bytes, and longest line.
inline constexpr std::size_t kReviewMaxInputBytes = 1 << 20;
inline constexpr std::size_t kReviewMaxLineBytes = 4096;

// Help text of `martiandice review --help` (the line format).
extern const std::string_view kReviewHelp;

struct ReviewRequest {
  // Objective, precision, rules and (win) the game context and tables; `aside`
  // must be empty. With --scores, a turn without a `scores` line uses it.
  cli::QueryInputs query;
  std::string input;  // a file path, or "-" for `stdin`
  bool json = false;
};

// Reviews the input and returns the report (text, or one JSON object line).
// Errors (InvalidArgument) name the line: bad syntax, bad notation, a roll
// that does not show the dice left, an illegal take, an impossible sequence;
// also an unreadable or oversized input, bad options, a missing table.
// `stdin` may be null (an empty input).
absl::StatusOr<std::string> RunReview(const ReviewRequest& request, std::istream* stdin_stream);

// The same for input text already read (`name` is used in the report).
absl::StatusOr<std::string> ReviewText(const ReviewRequest& request, std::string_view name,
                                       std::string_view text);

}  // namespace martiandice

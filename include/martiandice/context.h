// A turn's start in a game: every seat's total and the seat to move
// (GameContext), the number of players a game may have, and their checks.
#pragma once

#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/rules.h"

namespace martiandice {

// The players a game may have.
inline constexpr int kMinPlayers = 2;
inline constexpr int kMaxPlayers = 6;

// The start of a turn: every seat's game total (seat 0 first) and the seat to
// move. The round is final (someone reached the target) exactly when a seat
// before the mover has at least rules.target; the game ends after the last
// seat's turn of that round.
struct GameContext {
  std::vector<int> scores;
  int seat = 0;
};

// OK when a game may have `players` seats (kMinPlayers..kMaxPlayers), else
// InvalidArgument "a game has 2 to 6 players, not N".
absl::Status ValidatePlayers(int players);

// Checks a context for `players` seats under `rules`. Errors (InvalidArgument)
// name the problem: `players` out of range (ValidatePlayers), wrong number of scores, a negative
// score, a score no game can reach (above target - 1 + MaxTurnScore), a seat out of range, or a
// game that is already over (a seat at or after the mover has reached the target).
absl::Status ValidateContext(const Rules& rules, int players, const GameContext& context);

// Parses "S0,S1[,...]" into scores (errors name the bad field).
absl::StatusOr<std::vector<int>> ParseScores(std::string_view text);

}  // namespace martiandice

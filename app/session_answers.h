// The answers of a game followed entry by entry (serve's game sessions and
// the web module's coach, docs/SERVE.md "Game sessions"), written once:
// the game an `open` starts, and the JSON objects `open`, `enter` and
// `close` answer. The callers keep the games (GameSession) by id.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "game_session.h"
#include "martiandice/advisor.h"
#include "martiandice/game_state.h"

namespace martiandice::app {

// The game `open` (and `martiandice coach`) starts from its inputs: the
// rules (checked), every seat's total (default all 0), the players (default:
// the number of totals, else 2) and the seat to move (default 0). Errors
// name their input (InputError: "scores: ...", "players: ...", "seat: ...").
absl::StatusOr<GameState> SessionStart(const QueryInput& in);

// open's answer for game `id`: {"game","table","no_table","state","advice"}.
absl::StatusOr<std::string> SessionOpenJson(Advisor& advisor, int id, const TableCoverage& coverage,
                                            const GameSession& session,
                                            const std::optional<std::string>& tables);

// Applies the one line `entry` to `session` (made without quit: GameSession's
// `quit` false, as the session is closed instead) and answers enter's object:
// {"game","step","entry","turn_ends","state","advice"}, or for `help`
// {"game","step","message"}. Errors: a refused entry's ("entry: ..."), or the
// advice's after it (a table that fails); either way `session` is unchanged.
absl::StatusOr<std::string> SessionEnterJson(Advisor& advisor, int id, GameSession& session,
                                             std::string_view entry,
                                             const std::optional<std::string>& tables);

// close's answer: {"game","closed","over","scores","winners","log"}.
std::string SessionCloseJson(int id, const GameSession& session);

}  // namespace martiandice::app

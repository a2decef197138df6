// Playing to win the game: turn-start contexts (every seat's score and the seat
// to move), policy tables (precomputed win probabilities, see docs/FORMAT.md,
// and their records for inspection), and best-move queries that maximise the
// mover's probability of winning.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/dice.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"

namespace martiandice {

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

// Checks a context for `players` seats under `rules`. Errors (InvalidArgument)
// name the problem: wrong number of scores, a negative score, a score no game
// can reach (above target - 1 + MaxTurnScore), a seat out of range, or a game
// that is already over (a seat at or after the mover has reached the target).
absl::Status ValidateContext(const Rules& rules, int players, const GameContext& context);

// Parses "S0,S1[,...]" into scores (errors name the bad field).
absl::StatusOr<std::vector<int>> ParseScores(std::string_view text);

namespace internal {
struct TableData;
}  // namespace internal

// A loaded policy table for one rule set and player count. Immutable; any
// number of threads may query it. Cheap to copy (shared data).
// Format version 1 (two players) stores roll values; version 2 (three or more
// players, "values only") stores every seat's chances alone, and win queries
// solve the mover's turn from them on first use of a context (about 0.1-0.3
// ms for 13 dice), keeping the solved turns in a bounded cache (8 MiB) shared
// by the table's copies and safe for concurrent queries.
class GameTable {
 public:
  // Reads and verifies a table file (magic, version, rules hash, sizes,
  // checksums, exact end of file, every record). Errors, each naming the path:
  // NotFound / PermissionDenied for an unreadable path, InvalidArgument for a
  // directory or other non-regular file, DataLoss for a corrupt or truncated
  // file, FailedPrecondition for a table of a newer format version, of
  // another rules string or state layout (rules hash), or over 1 GiB (refused
  // unread). Memory used is bounded by the file's real size (plus the turn
  // cache of a version 2 table).
  static absl::StatusOr<GameTable> Open(const std::string& path);
  // The same from bytes already in memory.
  static absl::StatusOr<GameTable> FromBytes(std::string bytes);

  const Rules& rules() const;
  int players() const;
  // Bound on the error of every stored value (stated and checked by the solver).
  double error_bound() const;
  // Every seat's probability of winning at a context under optimal play.
  absl::StatusOr<std::vector<double>> WinProbabilities(const GameContext& context) const;

  // Inspection of the stored records in file order (docs/FORMAT.md), for
  // exports and tools; queries need none of it.
  // A CONTEXTS record: the context, every seat's stored win probability and
  // the index of its block of roll values (-1 in a version 2 table).
  struct ContextRecord {
    GameContext context;
    std::vector<double> win_probabilities;
    std::int64_t block = 0;
  };
  // A STATES record: a canonical position (earthling counts descending) whose
  // roll value is stored, and its dice left.
  struct StateRecord {
    int tanks = 0;
    int rays = 0;
    std::array<int, 3> earthlings = {0, 0, 0};
    int left = 0;
  };
  // 1 (roll-value blocks) or 2 (values only: no STATES, no blocks).
  int format_version() const;
  // Values within 10^-tie_tolerance_exponent() of each other are tied.
  int tie_tolerance_exponent() const;
  std::int64_t context_count() const;
  std::int64_t block_count() const;
  // The record at `index`. Error: OutOfRange unless 0 <= index < context_count().
  absl::StatusOr<ContextRecord> Context(std::int64_t index) const;
  // Every STATES record, in slot order.
  std::vector<StateRecord> StoredStates() const;
  // Block `block` of roll values: one per StoredStates() entry, in slot order.
  // Error: OutOfRange unless 0 <= block < block_count().
  absl::StatusOr<std::vector<double>> RollBlock(std::int64_t block) const;

  const internal::TableData& data() const { return *data_; }

 private:
  explicit GameTable(std::shared_ptr<const internal::TableData> data) : data_(std::move(data)) {}
  std::shared_ptr<const internal::TableData> data_;
};

// Checks that `table` answers queries for `rules` and `players`: a clear
// FailedPrecondition otherwise (e.g. "the table is for 3 players").
absl::Status CheckTableMatches(const GameTable& table, const Rules& rules, int players);

// A win query's answers: the turn decision in win probability of the mover,
// and every seat's win probability at the context.
struct WinEval {
  PositionEval position;  // values are the mover's win probability
  std::vector<double> win_probabilities;
};
struct WinAdvice {
  RollAdvice advice;  // values are the mover's win probability
  std::vector<double> win_probabilities;
};

// Stop-or-roll at `aside` in `context`. Errors: invalid context or position.
absl::StatusOr<WinEval> EvaluateWin(const GameTable& table, const GameContext& context,
                                    const Dice& aside);
// Every take from `roll` at `aside` in `context`, ranked by the mover's chance
// to win. advice.best is the first optimal take in face order; with a version
// 2 table, the tie convention's (docs/PLAYERS.md: rays, then the earthling
// type showing the most dice). Errors: invalid context, position or roll.
absl::StatusOr<WinAdvice> AdviseWin(const GameTable& table, const GameContext& context,
                                    const Dice& aside, const Dice& roll);

// Where to find the table for `rules` and `players`: `explicit_path` if given
// (a file, or a directory holding the table; nothing else is searched then),
// else $MARTIANDICE_DATA (file or directory), else the data directory of the
// installed tree the running executable or shared library belongs to
// (<prefix>/share/martiandice, wherever the prefix was installed), else the
// source tree's data/, else the installed data directory the build was
// configured with. A file is returned as is (Open and
// CheckTableMatches check it); a directory must hold TableFileName(). Errors:
// NotFound with a message saying where it looked and how to generate the
// table (`martiandice solve --players N --out FILE`).
absl::StatusOr<std::string> LocateTable(const Rules& rules, int players,
                                        const std::optional<std::string>& explicit_path);

// File name of the table for `rules` and `players`: "martiandice-p2-d13-b3-t25.mdt".
std::string TableFileName(const Rules& rules, int players);

}  // namespace martiandice

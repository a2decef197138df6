// The advisor: one entry point for every front end (command line, `serve`,
// the C API, review, simulation). A query names what the player maximises
// (a turn objective, or the chance to win the game from every seat's total),
// the rules and the position; the advisor checks it with messages that name
// the offending input, and answers it from a cache of solved turns and loaded
// policy tables.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/dice.h"
#include "martiandice/final_round.h"
#include "martiandice/game_state.h"
#include "martiandice/objective.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"

namespace martiandice {

// The query for the decision of `state` (its phase kRoll, kTake or
// kStopOrRoll): its rules, `goal`, double precision, the set-aside the
// decision is about (GameState::aside_before_roll), and for the win goal the
// turn's context and players (no table source: the advisor's).
Query DecisionQuery(const GameState& state, const Goal& goal);

// Where no policy table covers a game, the advice plays the fallback
// (kFallbackName). Before the final round: the turn objective capped:M, M the
// points to reach the target (PointsNeeded). In the final round: final:M/K,
// the chance to pass the leader, M the points that pass it (PointsNeeded), a
// tie with the K other seats at the leader's total counting 1/(K+1); at the
// last seat's turn that is the chance to win the game, so the fallback plays
// it exactly (as a table would). Its policy name (policy.h) is "fallback".
inline constexpr std::string_view kFallbackName =
    "the expected turn score capped at the points still needed to reach the target; in the "
    "final round, the chance to pass the leader (a tie counting its share)";
// The fallback's objective at `context` (valid: else as PointsNeeded's).
Objective FallbackObjective(const Rules& rules, const GameContext& context);
// The objective its turn is solved at: FallbackObjective with M cut to what a
// turn can score (capped: MaxTurnScore, as ev; final: MaxTurnScore + 2, where
// every score is worth 0), the same decisions and values. Pure.
Objective FallbackTurnObjective(const Rules& rules, const GameContext& context);

// A policy table as the advisor loaded it.
struct LoadedTable {
  GameTable table;
  std::string path;  // the file it was read from, as the first source that found it spelt it
};

// Whether a policy table answers win queries for a game's rules and players.
struct TableCoverage {
  std::shared_ptr<const LoadedTable> table;  // null when none does
  // Without a table, why: the search found none (LocateTable's message:
  // where it looked and the command that generates it, on a cluster where
  // the table is over kMaxTableBytes; or the advisor's Options::missing_table).
  std::string reason;
};

// The advice at the decision of a game (Advisor::Advise).
struct GameAdvice {
  Phase phase = Phase::kRoll;
  // How the values are measured: the win goal (the mover's chance to win,
  // from a policy table), or the fallback's turn objective (capped:M, or
  // final:M/K in the final round) where no table covers the game (`fallback`
  // set, `fallback_reason` saying why).
  Goal goal = Goal::Win();
  bool fallback = false;
  std::string fallback_reason;
  // kTake: every take from the roll, ranked (advice.best: the take to play).
  std::optional<RollAdvice> takes;
  // kRoll and kStopOrRoll: stop and roll on at the set-aside. kRoll (the
  // turn's start, or the mover has chosen to roll on): rolling is the only
  // move, so `stop` is unset, `value` is the roll's and `action` kRoll.
  std::optional<PositionEval> position;
  // kRoll and kStopOrRoll: the chance that rolling on ends the turn with 0
  // points, playing on as the advice does: probability[0] of
  // TurnScoreDistribution from the set-aside, within rounding (summed
  // backwards over the turn once and kept: see Advisor).
  std::optional<double> zero_chance;
  // kTake: for each of takes->options (in their order), the chance that
  // rolling on after that take ends the turn with 0 points, playing on as the
  // advice does; unset where the take leaves no dice to roll.
  std::vector<std::optional<double>> take_zero_chances;
  // The win goal: every seat's chance to win at the turn's start, the table.
  std::vector<double> win_probabilities;
  std::shared_ptr<const LoadedTable> table;
};

// Where the win goal's values come from: a policy table, or the final round
// solved without one (FinalRoundSolver: no table covers the game).
enum class WinSource { kTable, kFinalRound };

// An answer at a position: its decision and values, and for the win goal
// every seat's win probability at the turn's start and the table used (null
// for the final round solved without one).
struct EvalAnswer {
  PositionEval eval;
  std::vector<double> win_probabilities;     // win goal only
  std::shared_ptr<const LoadedTable> table;  // win goal only
  WinSource source = WinSource::kTable;      // win goal only
};
// Every take from a roll, ranked (RollAdvice), with the same extras.
struct BestAnswer {
  RollAdvice advice;
  std::vector<double> win_probabilities;
  std::shared_ptr<const LoadedTable> table;
  WinSource source = WinSource::kTable;
};

// Answers queries from bounded caches, each dropping its least recently used
// entry when full: solved turns (by rules, objective and precision), loaded
// tables (by rules, players and source: a source that finds a file already
// held, by another entry or by a caller, shares its table rather than reading
// it again), the zero chances (GameAdvice) of the 16 game turns last
// advised and of the 16 fallback turns (a turn's first Advise computes them
// for every position of the turn: under 1 ms and 0.04 MiB at the official
// rules), and the final rounds of the 4 games last solved without a table
// (FinalRoundSolver, Options::final_round's bounds). The turn models the
// solves use (one per dice count and bonus, shared by the whole program) are
// kept while in use and the 4 last used besides, so memory stays bounded
// however many rule sets are asked for.
// Thread-safe: any number of threads may share one advisor (solves and loads
// happen outside its lock; two threads missing the same entry may both
// compute it).
class Advisor {
 public:
  struct Options {
    // Where win queries find their tables when a query names none: a table
    // file or a folder holding them, and nothing else is searched then; or
    // unset for the default search (LocateTable).
    std::optional<std::string> tables;
    std::size_t max_turns = 64;  // solved turns kept
    std::size_t max_tables = 4;  // tables kept
    // Where the search finds no table for a game: the NotFound message (and
    // TableCoverage::reason), for a front end whose users give tables in
    // their own way. Unset: LocateTable's (its `martiandice solve` command).
    std::function<std::string(const Rules& rules, int players)> missing_table;
    // Where the default search (no `tables` here or in the call) finds no
    // table for a game (`searched`: its NotFound, missing_table's message if
    // set): a front end that can make one (the command line solves small
    // games, tools/table_cache.h) returns the path of the table file it
    // made, then read as a table found; or NotFound, whose message becomes
    // the reason the game has no table (the fallback plays it); any other
    // error is the call's. Called without the advisor's lock, by each thread
    // that misses the table (it serialises itself if it must), and again at
    // the next miss after an error. Unset: no table is made.
    std::function<absl::StatusOr<std::string>(const Rules& rules, int players,
                                              const absl::Status& searched)>
        make_table;
    // Where no table covers a game and a query names none, win queries in
    // its final round are answered by solving that round (FinalRoundSolver, with
    // these options; 4 solvers kept, by rules and players), unless false.
    bool solve_final_round = true;
    FinalRoundSolver::Options final_round;
  };
  Advisor();
  explicit Advisor(Options options);
  ~Advisor();
  Advisor(const Advisor&) = delete;
  Advisor& operator=(const Advisor&) = delete;

  // Stop-or-roll at query.aside. For the win goal, from the table (Table),
  // or where SolvesFinalRound from the solved final round. Errors
  // (InvalidArgument unless said): rules out of range; for the win goal a
  // precision other than kDouble (named "exact") or a missing or invalid
  // context (named "scores", see InputError; ValidateContext); a position the
  // rules cannot produce (named "aside"); for the win goal, the table's
  // (Table; DataLoss for a corrupt block the answer reads).
  absl::StatusOr<EvalAnswer> Evaluate(const Query& query);
  // Every take from `roll` (see ParseRoll) at query.aside, ranked. Errors: as
  // Evaluate's, and a roll that does not fit (named "roll").
  absl::StatusOr<BestAnswer> Best(const Query& query, const Dice& roll);

  // The solved turn for a turn objective, from the cache or solved now.
  // Errors: rules out of range (InvalidArgument).
  absl::StatusOr<TurnSolution> Turn(const Rules& rules, const Objective& objective,
                                    Precision precision);
  // The policy table for `rules` and `players` from `tables` (a file or
  // folder; unset: the advisor's, else the default search), from the cache
  // or located (LocateTable; else made by Options::make_table), read (or
  // shared, where another source holds the same file) and checked against the rules and players
  // now, whatever its size (one over kMaxTableBytes, made on a cluster, is mapped like any over
  // kEagerTableBytes). A file refused for its content (DataLoss: damaged; FailedPrecondition:
  // another format, or other rules or players) is not read again for the same game while it is the
  // same file (device, inode, size and modification time): the same error comes back at once.
  // Errors: LocateTable's (NotFound with Options::missing_table's message where set),
  // GameTable::Open's, and CheckTableMatches's (prefixed with the file).
  absl::StatusOr<std::shared_ptr<const LoadedTable>> Table(
      const Rules& rules, int players, const std::optional<std::string>& tables = std::nullopt);
  // Table's answer, with "no table" as an answer rather than an error when
  // none is found. Errors: rules or players out of range, or a table found
  // but unusable (unreadable, damaged, another version or rules): Table's.
  absl::StatusOr<TableCoverage> Coverage(const Rules& rules, int players,
                                         const std::optional<std::string>& tables = std::nullopt);

  // The final round's solver for `rules` and `players`, kept or made.
  // Errors: FinalRoundSolver::Create's.
  absl::StatusOr<FinalRoundSolver> FinalRound(const Rules& rules, int players);
  // Whether Evaluate and Best answer the win query `query` from the solved
  // final round: Options::solve_final_round, no table named by the query
  // (query.tables), none found (Coverage: Options::tables, else the search),
  // a context in the final round and within Options::final_round.max_work.
  // Where a table covers the game, or the query is not a valid win query,
  // false. Errors: Coverage's.
  absl::StatusOr<bool> SolvesFinalRound(const Query& query);

  // The advice at `state`'s decision, for its mover playing to win: every
  // option's chance to win from the table (Coverage), or where no table
  // covers the game the fallback's values (FallbackObjective, `fallback`
  // set). Cost: see the class comment (a turn's first advice computes its
  // zero chances). Errors: InvalidArgument for a game that is over; Coverage's.
  absl::StatusOr<GameAdvice> Advise(const GameState& state,
                                    const std::optional<std::string>& tables = std::nullopt);

 private:
  struct Caches;
  const Options options_;
  std::unique_ptr<Caches> caches_;
};

}  // namespace martiandice

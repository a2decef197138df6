// The bots: ways of playing a turn, named by a short spec, that front ends
// seat at a game (`martiandice play`, `martiandice simulate`, a web page).
// A Bot is a policy made ready for one rule set and number of players; it
// chooses the moves of a GameState (game_state.h) with the advisor's solved
// turns and tables and a caller's random generator, so a seed reproduces a
// game.
//
// The policies:
//   win        maximises the chance to win the game (a policy table)
//   ev         maximises the expected turn score
//   capped:M   maximises the expected min(turn score, M)
//   capped     capped:M with M the points the mover still needs
//              (PointsNeeded), in the final round too
//   fallback   the advisor's fallback where no table covers the game
//              (advisor.h): capped, but in the final round final:M/K, the
//              chance to pass the leader
//   reach:K    maximises the chance to score at least K this turn
//   random     a uniformly random legal take, then stops or rolls on with
//              chance 1/2 each
//   stop:K     takes the biggest group (ties: rays when the tanks outnumber
//              the rays, else the first earthling), stops once the turn
//              scores K or more
//   cautious   takes the rays whenever tanks are set aside and level with
//              the rays or ahead, else the biggest new earthling group;
//              stops as soon as the turn scores 5 points or more
//   bold       takes the biggest new earthling group whenever there is one,
//              rays otherwise; rolls on until the turn scores 10 or more
// Ties between earthling groups go to human, cow, chicken in that order. The
// solved turn policies (ev, capped, fallback, reach) play the advice's first optimal
// take; win plays the tie convention's pick among the optimal takes
// (docs/PLAYERS.md: rays, then the earthling type showing the most dice,
// then human, cow, chicken). All of them stop when stopping is worth as much
// as rolling on.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "martiandice/game_state.h"
#include "martiandice/objective.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "martiandice/turn_solver.h"

namespace martiandice {

// A policy as named: its kind and parameter.
struct PolicySpec {
  enum class Kind {
    kWin,           // `win`
    kObjective,     // `ev`, `capped:M`, `reach:K`: optimal for that turn objective
    kCappedNeeded,  // `capped`
    kFallback,      // `fallback`
    kRandom,        // `random`
    kStopAt,        // `stop:K`
    kCautious,      // `cautious`
    kBold,          // `bold`
  };
  Kind kind = Kind::kWin;
  int param = 0;                       // K of stop:K
  std::optional<Objective> objective;  // kObjective's
  std::string name;                    // the spec as given ("reach:10")
};

// Parses one policy spec: a goal (Goal::Parse: win or a turn objective), or
// capped, fallback, random, stop:K, cautious or bold. Errors (InvalidArgument) name
// the bad spec and the policies there are.
absl::StatusOr<PolicySpec> ParsePolicy(std::string_view spec);
// Parses "A,B[,...]" (at least one policy).
absl::StatusOr<std::vector<PolicySpec>> ParsePolicies(std::string_view list);

// What a bot's `win` policy needs besides the advisor (Bot::Create).
struct BotOptions {
  // win: this table rather than the advisor's (checked against the rules
  // and players).
  std::optional<GameTable> table;
  // win: where the advisor looks for the table (Advisor::Coverage).
  std::optional<std::string> tables;
  // win where no table covers the game (none is found): play the
  // fallback (`fallback`) rather than fail.
  bool fallback = false;
};

// A policy ready to play games of one rule set and number of players.
// Immutable once made: any number of threads may use one bot at once, each
// with its own GameState and generator. Cheap to copy (shared solved turns
// and table).
class Bot {
 public:
  // Prepares `policy` for games of `rules` and `players`: the table (win) and
  // the solved turns (ev, capped, reach from `advisor`; the fallback's
  // final-round turns solved here, about 0.1 ms each at the official rules,
  // so as not to crowd the advisor's cache). Errors:
  // InvalidArgument for rules or players out of range, a kind that is none of
  // Kind's, or a kObjective spec without its objective; FailedPrecondition for
  // a table that does not match (CheckTableMatches); for win without a table
  // and without options.fallback, InvalidArgument saying why no table covers
  // the game (where Advisor::Table says NotFound: a bot's caller gave a policy
  // the game cannot have); Advisor::Coverage's errors.
  static absl::StatusOr<Bot> Create(const PolicySpec& policy, Advisor& advisor, const Rules& rules,
                                    int players, const BotOptions& options = BotOptions());

  const PolicySpec& policy() const { return policy_; }
  // win playing the fallback, and why (Advisor::Coverage's reason).
  bool fallback() const { return fallback_; }
  const std::string& fallback_reason() const { return fallback_reason_; }
  // win: the path of the advisor's table ("" for a table given in memory).
  const std::string& table_path() const { return table_path_; }

  // The choice at a roll: the take, and whether to stop after it (moot when
  // the take leaves no dice).
  struct Choice {
    Face take = Face::kRay;
    bool stop = false;
  };
  // For `state` in phase kTake. Errors (InvalidArgument): another phase, a
  // state of other rules or players than the bot's.
  absl::StatusOr<Choice> ChooseTake(const GameState& state, DiceRng& rng) const;
  // Stop (true) or roll on, for `state` in phase kStopOrRoll. Errors: as
  // ChooseTake's.
  absl::StatusOr<bool> ChooseStop(const GameState& state, DiceRng& rng) const;

  // The next step of the seat to move at `state`, not applied: in phase
  // kRoll a roll of RollDice(dice_left, rng); in kTake the chosen take and,
  // when it leaves dice, its stop or roll on (chosen with the take); in
  // kStopOrRoll the stop or roll on. A front end that shows every move
  // applies them one by one. Errors (InvalidArgument): a state of another
  // game (rules or players) than the bot's, in any phase; a game that is
  // over; ChooseTake's.
  struct Step {
    Move move;                 // the roll, the take, or the stop or roll on
    std::optional<Move> then;  // after a take that leaves dice: Stop or RollOn
  };
  absl::StatusOr<Step> NextStep(const GameState& state, DiceRng& rng) const;
  // NextStep's moves applied to `state`; the last one's result (turn_end).
  absl::StatusOr<MoveResult> PlayStep(GameState& state, DiceRng& rng) const;
  // Steps until the turn of the seat to move ends; returns its end.
  absl::StatusOr<TurnEnd> PlayTurn(GameState& state, DiceRng& rng) const;

 private:
  Bot() = default;
  absl::Status CheckState(const GameState& state, Phase phase) const;
  // NextStep's moves into `step`.
  absl::Status Next(const GameState& state, DiceRng& rng, Step& step) const;
  // The solved turn a turn-objective policy plays at `context`.
  const TurnSolution& Solution(const GameContext& context) const;

  PolicySpec policy_;
  Rules rules_;
  int players_ = 0;
  std::optional<GameTable> table_;  // win
  std::string table_path_;
  bool fallback_ = false;
  std::string fallback_reason_;
  // ev, capped:M, reach:K: one; capped: capped:M at M - 1, M from 1 to
  // MaxTurnScore; fallback (and win's): those, then every final:M/K the
  // fallback plays (FallbackTurnObjective) at MaxTurnScore + (M - 1) *
  // (players - 1) + K - 1, M from 1 to MaxTurnScore + 2, K from 1 to players - 1.
  std::vector<TurnSolution> solutions_;
};

}  // namespace martiandice

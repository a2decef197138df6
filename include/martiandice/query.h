// A query as every front end asks it: what the player maximises (Goal: a
// turn objective, or the chance to win the game), the rules, the position and
// for the win goal the game; received as text and numbers (QueryInput),
// checked into a Query with messages that name the offending input. The
// advisor (martiandice/advisor.h) answers it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/objective.h"
#include "martiandice/rules.h"
#include "martiandice/turn_solver.h"

namespace martiandice {

// What a player maximises: a turn objective (a utility of the turn's score),
// or the probability of winning the game ("win"), which needs the game's
// context and a policy table. Immutable value type.
class Goal {
 public:
  // The chance to win the game.
  static Goal Win();
  // A turn objective.
  static Goal ForTurn(Objective objective);
  // "ev", "reach:K", "capped:M", "final:M/K" (Objective::Parse) or "win". Error
  // (InvalidArgument): the spec is none of these; the message says what is.
  static absl::StatusOr<Goal> Parse(std::string_view spec);

  bool is_win() const { return !objective_.has_value(); }
  // The turn objective. Precondition: !is_win().
  const Objective& objective() const { return *objective_; }
  // The spec: "win", or the objective's name ("ev", "reach:10", ...).
  std::string name() const;
  // One line for people: "expected score", "probability of winning the game, ...".
  std::string Describe() const;

 private:
  explicit Goal(std::optional<Objective> objective) : objective_(std::move(objective)) {}
  std::optional<Objective> objective_;
};

// A query as a front end receives it: text and numbers, not yet checked.
struct QueryInput {
  // Goal::Parse's specs; unset: "win" when scores are given, else "ev"
  // (QueryObjective).
  std::optional<std::string> objective;
  bool exact = false;  // exact rational values (turn objectives only)
  Rules rules;
  std::string aside;  // the set-aside in dice notation; "" or "-": a fresh turn
  // The win goal only: every seat's total ("S0,S1[,...]"), the seat to move
  // (default 0), the number of players (default: the number of totals), and
  // the table file or folder to use (default: the advisor's).
  std::optional<std::string> scores;
  std::optional<int> seat;
  std::optional<int> players;
  std::optional<std::string> tables;
};

// A checked query.
struct Query {
  Rules rules;
  Goal goal = Goal::ForTurn(Objective::ExpectedScore());
  Precision precision = Precision::kDouble;
  Dice aside;
  // The win goal only: the turn's context, the players and the table source.
  std::optional<GameContext> context;
  int players = 0;
  std::optional<std::string> tables;
};

// The goal spec `input` asks for: its objective, or when that is unset
// "win" if it gives scores and "ev" if not.
std::string QueryObjective(const QueryInput& input);

// Checks every input of `input`. Errors (InvalidArgument) name the input
// they are about: the message starts with its name and a colon ("aside: ...",
// "scores: ...", "objective: ...", "seat: ...", "players: ...", "exact: ...")
// and the status carries the name (InputName); rules out of range give
// "invalid rules: ..." without a name.
absl::StatusOr<Query> ParseQuery(const QueryInput& input);

// Checks `text` (dice notation) as the dice rolled at `query`'s set-aside.
// Errors (InvalidArgument) named "roll", as ParseQuery's.
absl::StatusOr<Dice> ParseRoll(const Query& query, std::string_view text);

// The input a ParseQuery or ParseRoll error is about ("aside", "roll", ...),
// or nothing for another status.
std::optional<std::string> InputName(const absl::Status& status);

// An InvalidArgument error about the input `name`: "name: why", the status
// carrying the name (InputName); `why` a message, or a status's message.
absl::Status InputError(std::string_view name, std::string_view why);
absl::Status InputError(std::string_view name, const absl::Status& why);

}  // namespace martiandice

// The `eval`, `best` and `stats` pipeline of the command line, shared with
// `serve` (tools/serve.h) and `review` (tools/review.h) so that every front end
// validates its inputs and writes its JSON exactly as the one-shot CLI does:
// raw inputs -> validated Query -> answer -> `--json` object. Implemented in
// cli.cpp. Errors are InvalidArgument (bad input) with the CLI's messages,
// which name the option ("--aside: ...").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/dice.h"
#include "martiandice/game.h"
#include "martiandice/objective.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "martiandice/solver.h"

namespace martiandice::cli {

// The raw inputs of `eval` and `best` (their command-line options, --roll aside).
struct QueryInputs {
  std::string objective = "ev";  // ev | reach:K | capped:M | win
  bool exact = false;
  int dice = Rules{}.dice;
  int bonus = Rules{}.bonus;
  int target = Rules{}.target;
  std::string aside;
  // The win objective only.
  std::optional<std::string> scores;  // "S0,S1[,...]"
  std::optional<int> seat;
  std::optional<int> players;
  std::optional<std::string> tables;
};

// The game part of a win query: the context and the table that answers it.
struct GameQuery {
  int players = 0;
  GameContext context;
  std::optional<GameTable> table;  // loaded after every other input is checked
  std::string table_path;
};

// The validated inputs of `eval` and `best`.
struct Query {
  Rules rules;
  std::optional<Objective> objective;  // a turn objective; unset for `win`
  Precision precision = Precision::kDouble;
  Dice aside;
  std::optional<GameQuery> game;  // set for `win`
};

// The answers; `win` holds every seat's chances for the win objective.
struct EvalAnswer {
  PositionEval eval;
  std::vector<double> win;
};
struct BestAnswer {
  RollAdvice advice;
  std::vector<double> win;
};

// Validates every input except the table (LoadQueryTable).
absl::StatusOr<Query> ReadQuery(const QueryInputs& inputs);
// Parses and validates `text`, the dice rolled at `query.aside` (--roll).
absl::StatusOr<Dice> ReadRoll(const Query& query, const std::string& text);
// For the win objective: locates (--tables, else the search), opens and checks
// the table into `query.game`. No-op for turn objectives.
absl::Status LoadQueryTable(const QueryInputs& inputs, Query& query);
// The rules of `inputs` (--dice, --bonus, --target), validated.
absl::StatusOr<Rules> ReadRules(const QueryInputs& inputs);

// The answers of `eval` and `best`. For a turn objective `solution` is the
// solved turn for (query.rules, *query.objective, query.precision), or null to
// solve it here; it is ignored for the win objective (the table answers).
absl::StatusOr<EvalAnswer> Evaluate(const Query& query, const TurnSolution* solution);
absl::StatusOr<BestAnswer> Advise(const Query& query, const Dice& roll,
                                  const TurnSolution* solution);

// The rules as a JSON object: {"dice":D,"bonus":B,"target":T} (every `--json`
// output's "rules" field).
std::string RulesJson(const Rules& rules);

// The `--json` outputs: one object on one line, newline included.
std::string EvalJson(const Query& query, const EvalAnswer& answer);
std::string BestJson(const Query& query, const Dice& roll, const BestAnswer& answer);
absl::StatusOr<std::string> StatsJson(const Rules& rules);

}  // namespace martiandice::cli

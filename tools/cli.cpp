// The martiandice command line: parses options with CLI11, validates every
// input with the library and prints the results as human-readable text or as
// the JSON contract (one object): `eval` and `best` (turn objectives, or the
// win objective from a policy table), `stats`, `solve` (generates a policy
// table), `simulate` (plays whole games, tools/simulate.h) and `export` (a
// policy table as JSON, for inspection); `serve` (tools/serve.h) and `review`
// (tools/review.h) are registered here. The eval/best pipeline they share is
// declared in tools/cli_query.h.
#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "atomic_file.h"
#include "cli_query.h"
#include "game_solver.h"
#include "interrupt.h"
#include "json.h"
#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/game.h"
#include "martiandice/objective.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "martiandice/solver.h"
#include "martiandice/state_space.h"
#include "plot.h"
#include "review.h"
#include "serve.h"
#include "simulate.h"
#include "solve_nplayer.h"

namespace martiandice {
namespace {

using cli::BestAnswer;
using cli::EvalAnswer;
using cli::GameQuery;
using cli::Query;
using cli::QueryInputs;
using cli::RulesJson;

// Debian's absl::string_view is not std::string_view, so absl::StrCat takes
// no std::string_view: keep those out of StrCat calls.
constexpr char kProgram[] = "martiandice";
constexpr char kSubcommandList[] =
    "eval, best, stats, solve, certify, simulate, export, plot, serve, review";
constexpr char kWinObjective[] = "win";

// ---------------------------------------------------------------------------
// Options and validated inputs.

// Raw option values, shared by the subcommands (only one runs). The query
// inputs (objective, rules, aside, game options) are also solve's and
// simulate's rules, --players and --tables.
struct Options : QueryInputs {
  bool json = false;
  std::string roll;
  // solve, export
  std::string out;
  bool quiet = false;
  bool no_certify = false;
  std::string checkpoint;  // 3+ players: where finished work is saved
  // simulate
  std::string games;  // parsed strictly (CLI11 2.1 saturates overflowing integers)
  std::string policies;
  std::string seed = std::to_string(kDefaultSimulationSeed);
  int threads = 0;
  bool no_alternate = false;
  // export
  PlotOptions plot;
  // review
  std::string input;
};

// How the command line runs: streams and what the real stderr is.
struct Io {
  std::ostream& err;
  CliEnvironment environment;
};

absl::Status Invalid(const std::string& context, const absl::Status& status) {
  return absl::InvalidArgumentError(absl::StrCat(context, ": ", status.message()));
}

}  // namespace

absl::StatusOr<Rules> cli::ReadRules(const QueryInputs& options) {
  const Rules rules{options.dice, options.bonus, options.target};
  if (absl::Status status = ValidateRules(rules); !status.ok()) {
    return Invalid("invalid rules", status);
  }
  return rules;
}

namespace {

absl::StatusOr<Dice> ReadDice(const std::string& flag, const std::string& text) {
  absl::StatusOr<Dice> dice = ParseDice(text);
  if (!dice.ok()) return Invalid(flag, dice.status());
  return dice;
}

absl::StatusOr<Dice> ReadAside(const Rules& rules, const QueryInputs& options) {
  absl::StatusOr<Dice> aside = ReadDice("--aside", options.aside);
  if (!aside.ok()) return aside.status();
  if (absl::Status status = ValidateAside(rules, *aside); !status.ok()) {
    return Invalid("--aside", status);
  }
  return aside;
}

bool IsWin(const QueryInputs& options) { return options.objective == kWinObjective; }

// The game options belong to the win objective only; --exact to the others.
absl::Status CheckObjectiveOptions(const QueryInputs& options) {
  if (IsWin(options)) {
    if (options.exact) {
      return absl::InvalidArgumentError(
          "--exact: exact values are available for turn objectives; win tables hold certified "
          "doubles");
    }
    if (!options.scores) {
      return absl::InvalidArgumentError("--objective win needs --scores S0,S1,... (game totals)");
    }
    return absl::OkStatus();
  }
  const bool game_option = options.scores || options.seat || options.players || options.tables;
  if (game_option) {
    return absl::InvalidArgumentError(
        "--scores, --seat, --players and --tables go with --objective win");
  }
  return absl::OkStatus();
}

absl::Status CheckPlayerCount(int players, std::string_view flag) {
  if (players >= kMinPlayers && players <= kMaxPlayers) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(std::string(flag), ": a game has ", kMinPlayers,
                                                 " to ", kMaxPlayers, " players, not ", players));
}

// --players if given (it must equal `counted`, what `flag` lists), else `counted`.
absl::StatusOr<int> ReadPlayers(const std::optional<int>& players, int counted,
                                std::string_view flag) {
  if (players && *players != counted) {
    return absl::InvalidArgumentError(absl::StrCat("--players ", *players, " does not match the ",
                                                   counted, " entries of ", std::string(flag)));
  }
  if (absl::Status status = CheckPlayerCount(counted, players ? "--players" : flag); !status.ok()) {
    return status;
  }
  return counted;
}

absl::StatusOr<GameContext> ReadContext(const Rules& rules, const QueryInputs& options,
                                        int* players) {
  absl::StatusOr<std::vector<int>> scores = ParseScores(*options.scores);
  if (!scores.ok()) return Invalid("--scores", scores.status());
  absl::StatusOr<int> n =
      ReadPlayers(options.players, static_cast<int>(scores->size()), "--scores");
  if (!n.ok()) return n.status();
  const int seat = options.seat.value_or(0);
  if (seat < 0 || seat >= *n) {
    return absl::InvalidArgumentError(absl::StrCat("--seat: seat ", seat, " is out of range for ",
                                                   *n, " players (0..", *n - 1, ")"));
  }
  GameContext context{*std::move(scores), seat};
  if (absl::Status status = ValidateContext(rules, *n, context); !status.ok()) {
    return Invalid("--scores", status);
  }
  *players = *n;
  return context;
}

}  // namespace

// Checks every input of `eval` and `best` except the table (LoadQueryTable).
absl::StatusOr<Query> cli::ReadQuery(const QueryInputs& options) {
  absl::StatusOr<Rules> rules = ReadRules(options);
  if (!rules.ok()) return rules.status();
  if (absl::Status status = CheckObjectiveOptions(options); !status.ok()) return status;
  Query query{*rules, std::nullopt, Precision::kDouble, Dice(), std::nullopt};
  if (!IsWin(options)) {
    absl::StatusOr<Objective> objective = Objective::Parse(options.objective);
    if (!objective.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--objective: ", objective.status().message(),
                       "; or win, to play for the game (with --scores)"));
    }
    query.objective = *std::move(objective);
    if (options.exact) query.precision = Precision::kExact;
  }
  absl::StatusOr<Dice> aside = ReadAside(*rules, options);
  if (!aside.ok()) return aside.status();
  query.aside = *aside;
  if (IsWin(options)) {
    GameQuery game;
    absl::StatusOr<GameContext> context = ReadContext(*rules, options, &game.players);
    if (!context.ok()) return context.status();
    game.context = *std::move(context);
    query.game = std::move(game);
  }
  return query;
}

absl::StatusOr<Dice> cli::ReadRoll(const Query& query, const std::string& text) {
  absl::StatusOr<Dice> roll = ReadDice("--roll", text);
  if (!roll.ok()) return roll.status();
  if (absl::Status status = ValidateRoll(query.rules, query.aside, *roll); !status.ok()) {
    return Invalid("--roll", status);
  }
  return roll;
}

// The win objective's table: --tables, else LocateTable's search.
absl::Status cli::LoadQueryTable(const QueryInputs& options, Query& query) {
  if (!query.game) return absl::OkStatus();
  GameQuery& game = *query.game;
  absl::StatusOr<GameTable> table =
      LoadGameTable(query.rules, game.players, options.tables, &game.table_path);
  if (!table.ok()) return table.status();
  game.table = *std::move(table);
  return absl::OkStatus();
}

std::string cli::RulesJson(const Rules& rules) {
  JsonObject object(48);
  object.Int("dice", rules.dice).Int("bonus", rules.bonus).Int("target", rules.target);
  return std::move(object).Build();
}

namespace {

absl::StatusOr<TurnSolution> SolveQuery(const Query& query) {
  return TurnSolution::Solve(query.rules, *query.objective, query.precision);
}

std::string ObjectiveName(const Query& query) {
  return query.objective ? query.objective->name() : kWinObjective;
}

std::string ObjectiveDescription(const Query& query) {
  return query.objective ? query.objective->Describe()
                         : "probability of winning the game, for the seat to move";
}

// Adds `key` (a double or null) and, for exact solutions, `key_exact` ("p/q" or null).
void AddValue(JsonObject& object, std::string_view key, const std::optional<Value>& value,
              bool exact) {
  if (value) {
    object.Double(key, value->approx);
  } else {
    object.Null(key);
  }
  if (!exact) return;
  const std::string exact_key = absl::StrCat(std::string(key), "_exact");
  if (value && value->exact) {
    object.Str(exact_key, FormatRational(*value->exact));
  } else {
    object.Null(exact_key);
  }
}

std::string IntArray(const std::vector<int>& values) {
  std::string json = "[";
  for (const int v : values) absl::StrAppend(&json, json.size() > 1 ? "," : "", v);
  json += ']';
  return json;
}

// True when a seat before the mover has reached the target: the game ends
// after the last seat's turn of this round.
bool FinalRound(const Rules& rules, const GameContext& context) {
  return std::any_of(context.scores.begin(), context.scores.begin() + context.seat,
                     [&](int score) { return score >= rules.target; });
}

// The win query's fields: the context, every seat's chances, the table.
void AddGameJson(JsonObject& object, const Query& query, const std::vector<double>& win) {
  if (!query.game) return;
  const GameQuery& game = *query.game;
  object.Int("players", game.players)
      .Int("seat", game.context.seat)
      .Raw("scores", IntArray(game.context.scores))
      .Bool("final_round", FinalRound(query.rules, game.context))
      .Raw("win_probabilities", JsonDoubleArray(win))
      .Str("table", game.table_path)
      .Raw("error_bound", JsonDouble(game.table->error_bound()));
}

// Fields every eval/best object starts with (`win`: win probabilities, or empty).
JsonObject QueryHeaderJson(const Query& query, const std::vector<double>& win) {
  JsonObject object(2048);  // the whole eval/best object, with room to spare
  object.Raw("rules", RulesJson(query.rules))
      .Str("objective", ObjectiveName(query))
      .Str("precision", query.precision == Precision::kExact ? "exact" : "double")
      .Str("aside", FormatDice(query.aside));
  AddGameJson(object, query, win);
  return object;
}

// ---------------------------------------------------------------------------
// Human-readable text.

std::string Number(double x) { return absl::StrFormat("%.6f", x); }

// "1 die", "13 dice".
std::string DiceCount(int n) { return absl::StrCat(n, n == 1 ? " die" : " dice"); }

std::string AsideText(const Dice& aside) {
  return aside.empty() ? "nothing (start of the turn)" : FormatDice(aside);
}

std::string ExactText(const std::optional<Value>& value) {
  return value && value->exact ? FormatRational(*value->exact) : "-";
}

// "4 humans", "1 ray", "2 chickens".
std::string TakeLabel(Face face, int count) {
  return absl::StrCat(count, " ", std::string(FaceName(face)), count == 1 ? "" : "s");
}

std::string ThenPhrase(Then then) {
  switch (then) {
    case Then::kStop:
      return "stop";
    case Then::kRoll:
      return "roll on";
    case Then::kEither:
      return "stop or roll on (both are worth exactly the same)";
  }
  return "";
}

std::string RulesText(const Rules& rules) {
  return absl::StrFormat("%s, bonus %d, target %d", DiceCount(rules.dice), rules.bonus,
                         rules.target);
}

// "seat 0 0.412345 (to move), seat 1 0.587655"
std::string WinProbabilitiesText(const std::vector<double>& win, int mover) {
  std::vector<std::string> seats;
  for (int seat = 0; seat < static_cast<int>(win.size()); ++seat) {
    seats.push_back(
        absl::StrCat("seat ", seat, " ", Number(win[seat]), seat == mover ? " (to move)" : ""));
  }
  return absl::StrJoin(seats, ", ");
}

// The win query's lines: the context and every seat's chances.
std::string GameText(const Query& query, const std::vector<double>& win) {
  if (!query.game) return "";
  const GameQuery& game = *query.game;
  std::string text = absl::StrFormat(
      "Game: %d players, scores %s; seat %d to move%s.\n", game.players,
      absl::StrJoin(game.context.scores, ", "), game.context.seat,
      FinalRound(query.rules, game.context) ? " (final round: the target has been reached)" : "");
  absl::StrAppend(&text, "Win probabilities at the start of this turn: ",
                  WinProbabilitiesText(win, game.context.seat), ".\n");
  absl::StrAppend(
      &text, "Values below: the mover's probability of winning. Table: ", game.table_path, ".\n");
  return text;
}

std::string RulesLine(const Query& query) {
  return absl::StrFormat("Objective: %s (%s). Rules: %s.\n", ObjectiveDescription(query),
                         ObjectiveName(query), RulesText(query.rules));
}

// ---------------------------------------------------------------------------
// eval

}  // namespace

absl::StatusOr<EvalAnswer> cli::Evaluate(const Query& query, const TurnSolution* solved) {
  if (query.game) {
    absl::StatusOr<WinEval> win = EvaluateWin(*query.game->table, query.game->context, query.aside);
    if (!win.ok()) return Invalid("--aside", win.status());
    return EvalAnswer{std::move(win->position), std::move(win->win_probabilities)};
  }
  std::optional<TurnSolution> solving;
  if (solved == nullptr) {
    absl::StatusOr<TurnSolution> solution = SolveQuery(query);
    if (!solution.ok()) return solution.status();
    solved = &solving.emplace(*std::move(solution));
  }
  absl::StatusOr<PositionEval> eval = EvaluatePosition(*solved, query.aside);
  if (!eval.ok()) return Invalid("--aside", eval.status());
  return EvalAnswer{*std::move(eval), {}};
}

std::string cli::EvalJson(const Query& query, const EvalAnswer& answer) {
  const PositionEval& eval = answer.eval;
  const bool exact = query.precision == Precision::kExact;
  JsonObject object = QueryHeaderJson(query, answer.win);
  object.Int("dice_left", eval.dice_left);
  AddValue(object, "value", eval.value, exact);
  AddValue(object, "stop", eval.stop, exact);
  AddValue(object, "roll", eval.roll, exact);
  object.Str("action", ThenName(eval.action));
  return std::move(object).Build() + "\n";
}

namespace {

std::string EvalLine(std::string_view label, const std::optional<Value>& value,
                     std::string_view missing, bool exact) {
  if (!value) return absl::StrFormat("  %-6s %s\n", label, missing);
  if (!exact) return absl::StrFormat("  %-6s %s\n", label, Number(value->approx));
  return absl::StrFormat("  %-6s %s  (exactly %s)\n", label, Number(value->approx),
                         ExactText(value));
}

std::string EvalDecision(const PositionEval& eval) {
  if (!eval.stop)
    return "Decision: roll (a turn starts with a roll; stopping is not allowed yet).\n";
  if (!eval.roll) return "Decision: stop (no dice are left; the turn is scored).\n";
  return absl::StrCat("Decision: ", ThenPhrase(eval.action), ".\n");
}

std::string EvalText(const Query& query, const EvalAnswer& answer) {
  const PositionEval& eval = answer.eval;
  const bool exact = query.precision == Precision::kExact;
  std::string text =
      eval.aside.empty()
          ? absl::StrFormat("Position: start of the turn, %s to roll.\n", DiceCount(eval.dice_left))
          : absl::StrFormat("Position: set aside %s, %s left to roll.\n", FormatDice(eval.aside),
                            DiceCount(eval.dice_left));
  absl::StrAppend(&text, RulesLine(query), GameText(query, answer.win));
  absl::StrAppend(&text, EvalLine("stop", eval.stop, "not allowed before the first roll", exact));
  absl::StrAppend(&text, EvalLine("roll", eval.roll, "not possible: no dice left", exact));
  absl::StrAppend(&text, EvalLine("value", eval.value, "", exact));
  absl::StrAppend(&text, EvalDecision(eval));
  return text;
}

absl::StatusOr<std::string> RunEval(const Options& options) {
  absl::StatusOr<Query> query = ReadQuery(options);
  if (!query.ok()) return query.status();
  if (absl::Status status = LoadQueryTable(options, *query); !status.ok()) return status;
  absl::StatusOr<EvalAnswer> answer = Evaluate(*query, nullptr);
  if (!answer.ok()) return answer.status();
  return options.json ? EvalJson(*query, *answer) : EvalText(*query, *answer);
}

// ---------------------------------------------------------------------------
// best

}  // namespace

absl::StatusOr<BestAnswer> cli::Advise(const Query& query, const Dice& roll,
                                       const TurnSolution* solved) {
  if (query.game) {
    absl::StatusOr<WinAdvice> win =
        AdviseWin(*query.game->table, query.game->context, query.aside, roll);
    if (!win.ok()) return Invalid("--roll", win.status());
    return BestAnswer{std::move(win->advice), std::move(win->win_probabilities)};
  }
  std::optional<TurnSolution> solving;
  if (solved == nullptr) {
    absl::StatusOr<TurnSolution> solution = SolveQuery(query);
    if (!solution.ok()) return solution.status();
    solved = &solving.emplace(*std::move(solution));
  }
  absl::StatusOr<RollAdvice> advice = AdviseRoll(*solved, query.aside, roll);
  if (!advice.ok()) return Invalid("--roll", advice.status());
  return BestAnswer{*std::move(advice), {}};
}

namespace {

std::string OptionJson(const TakeOption& option, bool exact) {
  JsonObject object;
  object.Str("take", FaceName(option.take)).Int("count", option.count);
  object.Str("aside_after", FormatDice(option.aside_after));
  AddValue(object, "stop", option.stop, exact);
  AddValue(object, "roll", option.roll, exact);
  AddValue(object, "value", option.value, exact);
  object.Str("then", ThenName(option.then)).Bool("optimal", option.optimal);
  return std::move(object).Build();
}

std::string BestChoiceJson(const RollAdvice& advice) {
  if (!advice.best) return "null";
  const TakeOption& best = advice.options.at(*advice.best);
  JsonObject object(64);
  object.Str("take", FaceName(best.take)).Int("count", best.count).Str("then", ThenName(best.then));
  return std::move(object).Build();
}

}  // namespace

std::string cli::BestJson(const Query& query, const Dice& roll, const BestAnswer& answer) {
  const RollAdvice& advice = answer.advice;
  const bool exact = query.precision == Precision::kExact;
  JsonObject object = QueryHeaderJson(query, answer.win);
  object.Str("rolled", FormatDice(roll));
  object.Str("aside_after_tanks", FormatDice(advice.aside_after_tanks));
  object.Bool("turn_over", advice.turn_over);
  if (advice.turn_over) {
    object.Int("turn_over_score", advice.turn_over_score);
  } else {
    object.Null("turn_over_score");
  }
  AddValue(object, "value", advice.value, exact);
  object.Raw("best", BestChoiceJson(advice));
  std::string options = "[";
  options.reserve(320 * advice.options.size() + 2);
  for (const TakeOption& option : advice.options) {
    if (options.size() > 1) options += ',';
    options += OptionJson(option, exact);
  }
  options += ']';
  object.Raw("options", options);
  return std::move(object).Build() + "\n";
}

namespace {

std::string OptionRow(const TakeOption& option, bool exact) {
  std::string row =
      absl::StrFormat("  %-2s %-12s %10s %10s %10s  %s\n", option.optimal ? "*" : "",
                      TakeLabel(option.take, option.count), Number(option.stop.approx),
                      option.roll ? Number(option.roll->approx) : "-", Number(option.value.approx),
                      ThenName(option.then));
  if (exact) {
    absl::StrAppend(
        &row, absl::StrFormat("     exactly: stop %s, roll %s, value %s\n", ExactText(option.stop),
                              ExactText(option.roll), ExactText(option.value)));
  }
  return row;
}

std::string BestVerdict(const Query& query, const RollAdvice& advice) {
  std::string value = absl::StrCat("Value: ", Number(advice.value.approx));
  if (query.precision == Precision::kExact) {
    absl::StrAppend(&value, " (exactly ", ExactText(advice.value), ")");
  }
  if (advice.turn_over || !advice.best) {
    return absl::StrFormat("%s\nTurn over: no legal take; the turn scores %d.\n", value,
                           advice.turn_over_score);
  }
  const TakeOption& best = advice.options.at(*advice.best);
  return absl::StrFormat("%s\nBest: take %s, then %s.\n", value, TakeLabel(best.take, best.count),
                         ThenPhrase(best.then));
}

std::string BestText(const Query& query, const Dice& roll, const BestAnswer& answer) {
  const RollAdvice& advice = answer.advice;
  const bool exact = query.precision == Precision::kExact;
  std::string text =
      absl::StrFormat("Set aside: %s. Rolled: %s", AsideText(query.aside), FormatDice(roll));
  if (roll.count(Face::kTank) > 0) {
    absl::StrAppend(&text, " (tanks set aside automatically: now ",
                    FormatDice(advice.aside_after_tanks), ")");
  }
  absl::StrAppend(&text, ".\n");
  absl::StrAppend(&text, RulesLine(query), GameText(query, answer.win));
  if (!advice.options.empty()) {
    absl::StrAppend(&text, absl::StrFormat("\n  %-2s %-12s %10s %10s %10s  %s\n", "", "take",
                                           "stop", "roll", "value", "then"));
    for (const TakeOption& option : advice.options)
      absl::StrAppend(&text, OptionRow(option, exact));
    absl::StrAppend(&text, "  (* = optimal)\n\n");
  }
  absl::StrAppend(&text, BestVerdict(query, advice));
  return text;
}

absl::StatusOr<std::string> RunBest(const Options& options) {
  absl::StatusOr<Query> query = ReadQuery(options);
  if (!query.ok()) return query.status();
  absl::StatusOr<Dice> roll = ReadRoll(*query, options.roll);
  if (!roll.ok()) return roll.status();
  if (absl::Status status = LoadQueryTable(options, *query); !status.ok()) return status;
  absl::StatusOr<BestAnswer> answer = Advise(*query, *roll, nullptr);
  if (!answer.ok()) return answer.status();
  return options.json ? BestJson(*query, *roll, *answer) : BestText(*query, *roll, *answer);
}

// ---------------------------------------------------------------------------
// stats

struct RollCount {
  int dice = 0;
  std::int64_t outcomes = 0;
  std::uint64_t ordered = 0;  // 6^dice
};

std::vector<RollCount> RollCounts(const Rules& rules) {
  std::vector<RollCount> counts;
  for (int n = 1; n <= rules.dice; ++n) {
    counts.push_back({n, static_cast<std::int64_t>(RollDistribution(n).size()), PowerOfSix(n)});
  }
  return counts;
}

std::string StatsJson(const Rules& rules, const StateSpaceStats& stats) {
  std::vector<std::string> rolls;
  for (const RollCount& count : RollCounts(rules)) {
    rolls.push_back(JsonObject()
                        .Int("dice", count.dice)
                        .Int("outcomes", count.outcomes)
                        .Raw("ordered_results", absl::StrCat(count.ordered))
                        .Build());
  }
  return JsonObject()
             .Raw("rules", RulesJson(rules))
             .Int("max_turn_score", MaxTurnScore(rules))
             .Int("positions", stats.positions)
             .Int("canonical_positions", stats.canonical_positions)
             .Int("terminal_positions", stats.terminal_positions)
             .Int("roll_pairs", stats.roll_pairs)
             .Raw("roll_outcomes", JsonArray(rolls))
             .Build() +
         "\n";
}

std::string StatsText(const Rules& rules, const StateSpaceStats& stats) {
  std::string text = absl::StrFormat("Rules: %s, bonus %d, target %d.\n", DiceCount(rules.dice),
                                     rules.bonus, rules.target);
  absl::StrAppend(&text,
                  absl::StrFormat("  highest turn score            %d\n"
                                  "  decision positions            %d (start included)\n"
                                  "  ... up to earthling relabels  %d\n"
                                  "  final set-asides (scored)     %d\n"
                                  "  (position, roll) pairs        %d\n",
                                  MaxTurnScore(rules), stats.positions, stats.canonical_positions,
                                  stats.terminal_positions, stats.roll_pairs));
  absl::StrAppend(
      &text,
      "Distinct roll outcomes by dice rolled:\n  dice  outcomes  ordered results (6^dice)\n");
  for (const RollCount& count : RollCounts(rules)) {
    absl::StrAppend(&text,
                    absl::StrFormat("  %4d  %8d  %d\n", count.dice, count.outcomes, count.ordered));
  }
  return text;
}

absl::StatusOr<std::string> RunStats(const Options& options) {
  absl::StatusOr<Rules> rules = ReadRules(options);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<StateSpaceStats> stats = ComputeStateSpaceStats(*rules);
  if (!stats.ok()) return stats.status();
  return options.json ? StatsJson(*rules, *stats) : StatsText(*rules, *stats);
}

// ---------------------------------------------------------------------------
// solve

// The solve's progress on stderr: a bar redrawn in place on a terminal, else
// a plain line at every tenth of the work. The callback may come from any
// thread.
class SolveProgress {
 public:
  SolveProgress(std::ostream& err, bool terminal, bool quiet)
      : err_(err), terminal_(terminal), quiet_(quiet), start_(std::chrono::steady_clock::now()) {}

  // "solving 3 players: 42% (1m10s elapsed, about 1m30s left)", redrawn on a
  // terminal (every percent or second), else a line at every tenth of the work.
  void Update(int players, double fraction, double seconds, double seconds_left) {
    if (quiet_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    players_ = players;
    const int percent = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100);
    const std::string text = cli::SolveProgressText(players, fraction, seconds, seconds_left);
    if (terminal_) {
      if (percent == shown_ && Seconds() - drawn_ < 1) return;
      shown_ = percent;
      drawn_ = Seconds();
      const size_t width = std::max(text.size(), last_width_);
      last_width_ = text.size();
      err_ << "\r" << kProgram << ": " << text << std::string(width - text.size(), ' ')
           << std::flush;
    } else {
      const int tenth = percent / 10;
      if (tenth <= shown_ || tenth == 0) return;
      shown_ = tenth;
      err_ << kProgram << ": " << text << "\n" << std::flush;
    }
  }

  // Shows 100% and ends the bar's line.
  void Finish() {
    Update(players_, 1.0, Seconds(), 0);
    std::lock_guard<std::mutex> lock(mutex_);
    if (terminal_ && shown_ >= 0) err_ << "\n" << std::flush;
  }

 private:
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  std::mutex mutex_;
  std::ostream& err_;
  const bool terminal_;
  const bool quiet_;
  const std::chrono::steady_clock::time_point start_;
  int shown_ = -1;  // last percent (bar) or tenth (lines) shown
  int players_ = 0;
  double drawn_ = 0;  // seconds, at the last redraw
  size_t last_width_ = 0;
};

// Where `solve` and `export` write: --out, or `default_name` inside a
// directory. Checked before the (long) work.
absl::StatusOr<std::string> OutputPath(const std::string& out, const std::string& default_name) {
  namespace fs = std::filesystem;
  if (out.empty()) return absl::InvalidArgumentError("--out: give the file to write");
  std::error_code error;
  fs::path path(out);
  if (fs::is_directory(path, error)) path /= default_name;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--out: directory '", dir.string(), "' does not exist"));
  }
  if (fs::is_directory(path, error)) {
    return absl::InvalidArgumentError(absl::StrCat("--out: '", path.string(), "' is a directory"));
  }
  return path.string();
}

absl::Status WriteTable(const std::string& path, const std::string& bytes) {
  absl::Status status = solver::WriteFileAtomically(path, bytes);
  if (status.ok()) return status;
  const bool user_error = status.code() == absl::StatusCode::kNotFound ||
                          status.code() == absl::StatusCode::kPermissionDenied;
  const std::string message = absl::StrCat("--out: cannot write ", path, ": ", status.message());
  return user_error ? absl::InvalidArgumentError(message) : absl::Status(status.code(), message);
}

int DefaultThreads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

absl::StatusOr<std::string> RunSolve(const Options& options, const Io& io) {
  absl::StatusOr<Rules> rules = ReadRules(options);
  if (!rules.ok()) return rules.status();
  const int players = options.players.value_or(2);
  if (absl::Status status = CheckPlayerCount(players, "--players"); !status.ok()) {
    return status;
  }
  absl::StatusOr<std::string> path = OutputPath(options.out, TableFileName(*rules, players));
  if (!path.ok()) return path.status();
  if (players == 2 && !options.checkpoint.empty()) {
    return absl::InvalidArgumentError(
        "--checkpoint goes with --players 3 or more (the 2-player solve takes under a second)");
  }
  if (options.threads < 0) return absl::InvalidArgumentError("--threads must be 0 (all) or more");
  SolveProgress progress(io.err, io.environment.stderr_is_terminal, options.quiet);
  cli::InterruptFlag interrupt(options.quiet ? "" : cli::kSolveInterruptNotice);
  cli::NPlayerSolveRequest request;
  request.rules = *rules;
  request.players = players;
  request.threads = options.threads == 0 ? DefaultThreads() : options.threads;
  request.path = *path;
  request.json = options.json;
  request.certify = !options.no_certify;
  if (players > 2) request.checkpoint = cli::CheckpointPath(options.checkpoint, *path);
  request.stop = interrupt.flag();
  request.progress = [&](const solver::GameSolveProgress& p) {
    progress.Update(players, p.fraction, p.seconds, p.seconds_left);
  };
  request.finish = [&progress] { progress.Finish(); };
  request.write = WriteTable;
  return cli::RunNPlayerSolve(request);
}

// ---------------------------------------------------------------------------
// simulate

absl::StatusOr<std::uint64_t> ReadSeed(const std::string& text) {
  std::uint64_t seed = 0;
  if (!absl::SimpleAtoi(text, &seed) || text.find('-') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seed: expected an integer in 0..2^64-1, got '", text, "'"));
  }
  return seed;
}

absl::StatusOr<SimulationOptions> ReadSimulation(const Options& options) {
  SimulationOptions simulation;
  absl::StatusOr<Rules> rules = ReadRules(options);
  if (!rules.ok()) return rules.status();
  simulation.rules = *rules;
  absl::StatusOr<std::vector<PolicySpec>> policies = ParsePolicies(options.policies);
  if (!policies.ok()) return Invalid("--policies", policies.status());
  simulation.policies = *std::move(policies);
  absl::StatusOr<int> players =
      ReadPlayers(options.players, static_cast<int>(simulation.policies.size()), "--policies");
  if (!players.ok()) return players.status();
  // A billion games take hours: larger requests are refused rather than started.
  constexpr std::int64_t kMaxGames = 1'000'000'000;
  std::int64_t games = 0;
  if (!absl::SimpleAtoi(options.games, &games) || games < 1 || games > kMaxGames) {
    return absl::InvalidArgumentError(
        absl::StrCat("--games: expected a whole number of games in 1..", kMaxGames, ", got '",
                     options.games, "'"));
  }
  simulation.games = games;
  absl::StatusOr<std::uint64_t> seed = ReadSeed(options.seed);
  if (!seed.ok()) return seed.status();
  simulation.seed = *seed;
  if (options.threads < 0) return absl::InvalidArgumentError("--threads must be 0 (all) or more");
  simulation.threads = options.threads == 0 ? DefaultThreads() : options.threads;
  simulation.tables_path = options.tables;
  simulation.alternate_seats = !options.no_alternate;
  return simulation;
}

std::vector<std::string> PolicyNames(const SimulationOptions& simulation) {
  std::vector<std::string> names;
  for (const PolicySpec& policy : simulation.policies) names.push_back(policy.name);
  return names;
}

std::string SimulateJson(const SimulationOptions& simulation, const SimulationResult& result) {
  std::vector<std::string> names;
  for (const std::string& name : PolicyNames(simulation)) names.push_back(JsonString(name));
  const std::string ci95 = JsonObject()
                               .Raw("seat", JsonDoubleArray(result.seat_ci95))
                               .Raw("policy", JsonDoubleArray(result.policy_ci95))
                               .Build();
  JsonObject object;
  object.Raw("rules", RulesJson(simulation.rules))
      .Int("players", result.players)
      .Int("games", result.games)
      .Raw("seed", absl::StrCat(simulation.seed))
      .Raw("policies", JsonArray(names))
      .Bool("alternate_seats", simulation.alternate_seats)
      .Raw("seat_win_rate", JsonDoubleArray(result.seat_win_rate))
      .Raw("policy_win_rate", JsonDoubleArray(result.policy_win_rate))
      .Raw("ci95", ci95)
      .Raw("mean_turns", JsonDouble(result.mean_turns))
      .Int("tied_games", result.tied_games);
  if (result.table_path.empty()) {
    object.Null("table");
  } else {
    object.Str("table", result.table_path);
  }
  return object.Build() + "\n";
}

std::string RateText(double rate, double half_width) {
  if (!std::isfinite(half_width)) return absl::StrFormat("%.4f", rate);
  return absl::StrFormat("%.4f ± %.4f", rate, half_width);
}

std::string SimulateText(const SimulationOptions& simulation, const SimulationResult& result) {
  const std::vector<std::string> names = PolicyNames(simulation);
  std::string text =
      absl::StrFormat("Simulated %d games of %d players (%s), seed %d.\n", result.games,
                      result.players, RulesText(simulation.rules), simulation.seed);
  absl::StrAppend(
      &text,
      simulation.alternate_seats
          ? absl::StrFormat(
                "Seats alternate: in game g (from 0), policy k sits in seat (k + g) mod %d.\n",
                result.players)
          : "Seats fixed (--no-alternate): policy k sits in seat k in every game.\n",
      "Win rates (ties split: 1/k to each of k tied leaders; ± = 95% confidence half-width):\n");
  for (int seat = 0; seat < result.players; ++seat) {
    absl::StrAppend(&text,
                    absl::StrFormat("  %-22s %s\n", absl::StrCat("seat ", seat),
                                    RateText(result.seat_win_rate[seat], result.seat_ci95[seat])));
  }
  for (int k = 0; k < result.players; ++k) {
    absl::StrAppend(&text,
                    absl::StrFormat("  %-22s %s\n", absl::StrCat("policy ", k, " ", names[k]),
                                    RateText(result.policy_win_rate[k], result.policy_ci95[k])));
  }
  absl::StrAppend(&text, absl::StrFormat("Turns per game: %.2f on average (all seats). Games with "
                                         "tied leaders: %d.\n",
                                         result.mean_turns, result.tied_games));
  if (!result.table_path.empty()) absl::StrAppend(&text, "Table: ", result.table_path, ".\n");
  absl::StrAppend(
      &text, absl::StrFormat("Time: %.2f s (%.0f games/s, %d threads).\n", result.seconds,
                             static_cast<double>(result.games) / std::max(result.seconds, 1e-9),
                             simulation.threads));
  return text;
}

absl::StatusOr<std::string> RunSimulate(const Options& options) {
  absl::StatusOr<SimulationOptions> simulation = ReadSimulation(options);
  if (!simulation.ok()) return simulation.status();
  absl::StatusOr<SimulationResult> result = Simulate(*simulation);
  if (!result.ok()) return result.status();
  return options.json ? SimulateJson(*simulation, *result) : SimulateText(*simulation, *result);
}

// ---------------------------------------------------------------------------
// export

// "martiandice-p2-d13-b3-t25.json": the export's name inside an --out directory.
std::string ExportFileName(const Rules& rules, int players) {
  std::string name = TableFileName(rules, players);
  const std::size_t dot = name.rfind('.');
  return absl::StrCat(name.substr(0, dot), ".json");
}

// Items one per line, so that a large export reads and diffs line by line.
std::string JsonLines(const std::vector<std::string>& items) {
  if (items.empty()) return "[]";
  return absl::StrCat("[\n", absl::StrJoin(items, ",\n"), "\n]");
}

absl::StatusOr<std::string> ContextsJson(const GameTable& table) {
  std::vector<std::string> contexts;
  contexts.reserve(static_cast<std::size_t>(table.context_count()));
  for (std::int64_t index = 0; index < table.context_count(); ++index) {
    absl::StatusOr<GameTable::ContextRecord> record = table.Context(index);
    if (!record.ok()) return record.status();
    contexts.push_back(JsonObject()
                           .Int("seat", record->context.seat)
                           .Raw("scores", IntArray(record->context.scores))
                           .Bool("final_round", FinalRound(table.rules(), record->context))
                           .Raw("win_probabilities", JsonDoubleArray(record->win_probabilities))
                           .Build());
  }
  return JsonLines(contexts);
}

// The whole export: the header fields, then every context's record in file
// order. The table is named by its file name: an export holds no path of
// the machine that made it.
absl::StatusOr<std::string> ExportJson(const GameTable& table, const std::string& path) {
  absl::StatusOr<std::string> contexts = ContextsJson(table);
  if (!contexts.ok()) return contexts.status();
  return JsonObject()
             .Int("format_version", table.format_version())
             .Str("table", std::filesystem::path(path).filename().string())
             .Raw("rules", RulesJson(table.rules()))
             .Int("players", table.players())
             .Int("max_turn_score", MaxTurnScore(table.rules()))
             .Raw("error_bound", JsonDouble(table.error_bound()))
             .Int("tie_tolerance_e", table.tie_tolerance_exponent())
             .Int("context_count", table.context_count())
             .Raw("contexts", *contexts)
             .Build() +
         "\n";
}

absl::StatusOr<std::string> RunExport(const Options& options) {
  absl::StatusOr<Rules> rules = ReadRules(options);
  if (!rules.ok()) return rules.status();
  const int players = options.players.value_or(2);
  if (absl::Status status = CheckPlayerCount(players, "--players"); !status.ok()) return status;
  std::optional<std::string> out;
  if (!options.out.empty()) {
    absl::StatusOr<std::string> path = OutputPath(options.out, ExportFileName(*rules, players));
    if (!path.ok()) return path.status();
    out = *std::move(path);
  }
  std::string table_path;
  absl::StatusOr<GameTable> table = LoadGameTable(*rules, players, options.tables, &table_path);
  if (!table.ok()) return table.status();
  absl::StatusOr<std::string> json = ExportJson(*table, table_path);
  if (!json.ok()) return json.status();
  if (!out) return json;
  if (absl::Status status = WriteTable(*out, *json); !status.ok()) return status;
  return absl::StrFormat("Exported %s (%d contexts) to %s (%d bytes).\n", table_path,
                         table->context_count(), *out, json->size());
}

// ---------------------------------------------------------------------------
// Command-line definition (CLI11).

constexpr std::string_view kAppFooter = R"(
Dice notation (--aside, --roll): face letters T Tank, R Death Ray, H Human,
C Cow, K Chicken, each optionally preceded by a count: "2T 3R 4H", "TTRRRHHHH",
"2t3r4h". "-" or "" means no dice. Quote it in the shell: --aside '2T 4H'.

Objectives (--objective): "ev" maximises the expected turn score; "reach:K"
maximises the probability of scoring at least K this turn; "capped:M"
maximises the expected value of min(score, M); "win" maximises the mover's
probability of winning the game, given every seat's total (--scores) and the
seat to move (--seat), from a policy table made by `martiandice solve`.

Values are measured in the objective: points for ev and capped:M, a
probability for reach:K and win. With --exact (turn objectives only) every
value is also given as an exact fraction p/q. Run `martiandice eval --help`
or `martiandice best --help` for the meaning of each output field.

Policy tables: `martiandice solve --players 2 --out DIR` writes the table for
the rules given; --tables FILE_OR_DIR points at it, else $MARTIANDICE_DATA,
the build tree's data/ and the installed data directory are searched.
`martiandice export` prints a table as JSON, for inspection.

Exit status: 0 success, 2 bad input (one line on stderr), 1 internal error,
130 a long solve interrupted (Ctrl-C) with its work saved.
)";

constexpr std::string_view kEvalFooter = R"(
Evaluates a position of a turn: the dice set aside so far (--aside; empty for
the start of the turn, before the first roll).
Output fields (same names in --json):
  stop      value of stopping now and scoring the set-aside (null before the
            first roll: a turn always starts with a roll)
  roll      value of rolling the remaining dice and playing on optimally
            (null when no dice are left)
  value     the better of stop and roll: what the position is worth
  action    the decision: "stop", "roll", or "either" when both are worth
            the same (exactly with --exact; within 1e-12 relative otherwise)
JSON also has: aside (canonical notation), dice_left, objective, precision,
rules {dice, bonus, target}; with --exact, value_exact, stop_exact and
roll_exact as "p/q" strings (null where the value is null).
With --objective win, values are the mover's probability of winning the game,
and JSON adds players, seat, scores, final_round (a seat before the mover has
reached the target), win_probabilities (every seat's chance at the start of
this turn, seat 0 first), table (the file used) and error_bound (the table's
bound on every value's error).
)";

constexpr std::string_view kBestFooter = R"(
Given the dice set aside (--aside) and the dice just rolled (--roll, exactly
the dice left to roll), lists every legal take and what it is worth. Tanks in
the roll are set aside automatically.
Output fields per option (same names in --json "options"):
  take      face to set aside: "ray", "human", "cow" or "chicken" (all dice of
            it); count is how many dice that is
  stop      value if you take it and then stop
  roll      value if you take it and then roll on, playing optimally after
            (null if no dice are left after the take)
  value     the better of stop and roll
  then      what to do after the take: "stop", "roll" or "either" (equal)
  optimal   true if no other take is worth more (marked * in the table;
            several takes can be optimal)
Top level: best {take, count, then} = the first optimal option (null when the
turn is over), value = value of this roll under optimal play, turn_over = true
when no take is legal (the turn ends and scores turn_over_score), aside,
rolled, aside_after_tanks (set-aside plus this roll's tanks), objective,
precision, rules. With --exact, every value, stop and roll field also comes as
value_exact / stop_exact / roll_exact: an exact "p/q" string, or null.
With --objective win, values are the mover's probability of winning the game
and JSON adds players, seat, scores, final_round, win_probabilities, table and
error_bound (see `martiandice eval --help`).
The text output ends with the move to play, e.g. "Best: take 4 humans, then
roll on.", or "Turn over: no legal take; the turn scores 5."
)";

constexpr std::string_view kStatsFooter = R"(
Size of the turn under the rules: decision positions reachable from the start
(also counted up to relabelling the three earthling types), set-asides a turn
can end with, (position, roll outcome) pairs, the highest possible turn score,
and for each number of dice rolled the number of distinct roll outcomes and of
ordered die results (6^dice).
)";

constexpr std::string_view kSolveFooter = R"(
Solves the whole game for the rules and number of players given: every seat's
probability of winning at every turn start under optimal play (--threads
workers, default all cores). Writes the policy table (docs/FORMAT.md: every
seat's chances; queries solve the mover's turn from them) to --out atomically
(a temporary file renamed into place); if --out is a directory, the table
gets its usual name there. Progress goes to stderr (a bar on a terminal, else
a line every 10%; --quiet: none).
Report fields (same names in --json): rules, players, out, bytes,
format_version, contexts (turn-start contexts), turn_solves (turn dynamic
programs run), cycles (zero-score cycles solved), max_rounds (most rounds one
needed), max_residual (largest distance of a stored value to its cycle's
fixed point), error_bound (bound on every stored value's error),
tied_decisions and kingmaking (decision points where the mover was tied, and
where the tied actions differ for another seat; null with 2 players, where a
tie changes no value), mixed_cycles and mixing_error (zero-score cycles
solved as a mixed equilibrium, and their share of the bound), threads,
seconds, start (every seat's chance at the start of the game).
Then the table is certified (skip with --no-certify): every decision a reader
derives from it (stop or roll; which take, per position and roll) by the turn
solve of docs/FORMAT.md is checked: non-ties must be separated by more than
margin_threshold (twice the error bound plus the reader's rounding), and ties
(values within the table's tolerance) are proven exact, structurally or by
rational re-solves. JSON field certification: decisions, smallest_margin,
tie_tolerance, ties, symmetric_ties, exact_ties, inexact_ties,
largest_inexact_gap, exact_solves, margin_threshold, structural_ties,
partial_exact_solves, kingmaking_ties, kingmaking_contexts, largest_value_gap,
mixed_contexts, mixing_decisions (contexts of a mixed cycle, where the mover
randomises), inexact_undecided, inexact_pick_best, inexact_pick_worse,
largest_pick_loss, certified, seconds (null with --no-certify).
A table over 1 GiB (e.g. 5 players under the official rules) is refused
before solving. With 3 or more players, progress shows the time left; Ctrl-C
(or SIGTERM) finishes the work in flight, saves it in the checkpoint
(--checkpoint, default OUT.checkpoint) and exits with status 130; the same
command then resumes without redoing finished work, with bit for bit the
same result. The checkpoint is removed once the table is written.
)";

constexpr std::string_view kSimulateFooter = R"(
Plays whole games with seeded random dice. Policies (--policies, one per seat,
comma-separated):
  win        maximise the chance to win the game (needs the policy table)
  ev         maximise the expected turn score
  capped:M   maximise the expected min(turn score, M)
  reach:K    maximise the chance to score at least K this turn
  random     a uniformly random legal take, then stop or roll with chance 1/2
  stop:K     take the biggest group (ties: rays when tanks outnumber rays,
             else the first earthling), stop once the turn scores K or more
Ties between stop and roll (values within 1e-12) are played as stop.
In game g (from 0) policy k sits in seat (k + g) mod P, so each policy plays
each seat equally often; with --no-alternate policy k sits in seat k in every
game (one seating measured alone). Each game has its own random stream from
(seed, g): the result depends on --seed only, not on --threads.
Output fields (same names in --json): games, seat_win_rate (per seat),
policy_win_rate (per policy, --policies order), ci95 {seat, policy} (95%
half-widths, normal approximation), mean_turns (turns per game, all seats),
tied_games, seed, policies, alternate_seats, players, rules, table (null if
no win policy).
A win is shared 1/k by k seats tied for the highest total.
)";

constexpr std::string_view kCertifyFooter = R"(
Certifies a policy table as `solve` certifies the table it writes: every
decision a reader derives from it (stop or roll; which take from every roll)
is checked against the table's error bound, and ties are re-verified with
exact rational solves. The table is found as for `eval --objective win`
(--tables FILE_OR_DIR, else $MARTIANDICE_DATA, the build tree's data/ and the
installed data directory); its rules and players must match
--dice/--bonus/--target/--players. Exit status 0 when certified, and 3 when not (the report, on stdout, says why); 2 for bad input (options,
rules, a missing or damaged table, as for eval), 1 for another failure, 130 if
interrupted (Ctrl-C). JSON fields: table, rules, players, format_version,
error_bound, certification (as in `solve --json`). It takes about as long as
the solve or longer (docs/PERFORMANCE.md).
)";

constexpr std::string_view kExportFooter = R"(
Writes a policy table (docs/FORMAT.md) as one JSON object, for inspection: to
stdout, or atomically to --out (a directory gets martiandice-pP-dD-bB-tT.json).
The table is found as for `eval --objective win`: --tables FILE_OR_DIR, else
$MARTIANDICE_DATA, the build tree's data/ and the installed data directory;
its rules and players must match --dice/--bonus/--target/--players.
Fields: format_version, table (the file's name), rules {dice, bonus,
target}, players, max_turn_score, error_bound, tie_tolerance_e (values within
10^-e are tied), context_count; contexts: one object per context in file
order, {seat (to move), scores, final_round, win_probabilities (seat 0
first)}. Numbers have 17 significant digits (they round-trip). With --out,
stdout gets a one-line summary.
)";

// Integer options are decimal: CLI11 2.1 would read "010" as octal 8 and
// "0x10" as 16. This transform refuses anything but an optional '-' and decimal
// digits, and drops leading zeros so that "010" is read as ten.
CLI::Validator Decimal() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const std::size_t digits = !value.empty() && value.front() == '-' ? 1 : 0;
        if (value.size() == digits ||
            value.find_first_not_of("0123456789", digits) != std::string::npos) {
          return absl::StrCat("expected a decimal whole number, got '", value, "'");
        }
        const std::size_t first = value.find_first_not_of('0', digits);
        value.erase(digits, (first == std::string::npos ? value.size() - 1 : first) - digits);
        return std::string();
      },
      "");
}

void AddRulesOnly(CLI::App& command, Options& options) {
  command.add_option("--dice", options.dice, "Dice in a turn (rules variant)")
      ->capture_default_str()
      ->transform(Decimal());
  command.add_option("--bonus", options.bonus, "Points for one of each earthling type")
      ->capture_default_str()
      ->transform(Decimal());
  command.add_option("--target", options.target, "Game total that ends the game")
      ->capture_default_str()
      ->transform(Decimal());
}

void AddRuleOptions(CLI::App& command, Options& options) {
  AddRulesOnly(command, options);
  command.add_flag("--json", options.json, "Print one JSON object instead of text");
}

void AddTablesOption(CLI::App& command, Options& options) {
  command
      .add_option("--tables", options.tables,
                  "Policy table file, or a directory holding it (default: search)")
      ->check(CLI::Validator(
          [](const std::string& value) {
            return std::string(value.empty() ? "expected a table file or a directory, got "
                                               "an empty path"
                                             : "");
          },
          ""));
}

void AddQueryOptions(CLI::App& command, Options& options) {
  command.add_option("--aside", options.aside,
                     "Dice set aside so far, e.g. '2T 4H' (default: start of the turn)");
  command.add_option("--objective", options.objective, "ev | reach:K | capped:M | win")
      ->capture_default_str();
  command.add_flag("--exact", options.exact, "Solve in exact fractions (also prints p/q)");
  command.add_option("--scores", options.scores,
                     "win: every seat's game total, seat 0 first, e.g. '12,20'");
  command.add_option("--seat", options.seat, "win: the seat to move (default 0)")
      ->transform(Decimal());
  command
      .add_option("--players", options.players,
                  "win: number of players (default: number of scores)")
      ->transform(Decimal());
  AddTablesOption(command, options);
  AddRuleOptions(command, options);
}

void AddSolveOptions(CLI::App& command, Options& options) {
  command.add_option("--players", options.players, "Number of players (default 2)")
      ->transform(Decimal());
  command.add_option("--out", options.out, "Table file to write, or a directory")->required();
  command.add_flag("--quiet", options.quiet, "No progress on stderr");
  command.add_flag("--no-certify", options.no_certify,
                   "Skip certifying the table's decisions (about a minute for the official game)");
  command.add_option("--threads", options.threads, "3+ players: worker threads (default 0: all)")
      ->transform(Decimal());
  command.add_option("--checkpoint", options.checkpoint,
                     "3+ players: where Ctrl-C saves the work (default OUT.checkpoint)");
  AddRuleOptions(command, options);
}

void AddCertifyOptions(CLI::App& command, Options& options) {
  command.add_option("--players", options.players, "Number of players (default 2)")
      ->transform(Decimal());
  command.add_option("--threads", options.threads, "3+ players: worker threads (default 0: all)")
      ->transform(Decimal());
  AddTablesOption(command, options);
  AddRuleOptions(command, options);
}

void AddSimulateOptions(CLI::App& command, Options& options) {
  command.add_option("--games", options.games, "Games to play (1..1000000000)")->required();
  command.add_option("--policies", options.policies, "One policy per seat, e.g. 'win,ev'")
      ->required();
  command
      .add_option("--players", options.players, "Number of players (default: number of policies)")
      ->transform(Decimal());
  command.add_option("--seed", options.seed, "Random seed (0..2^64-1)")->capture_default_str();
  command.add_option("--threads", options.threads, "Worker threads (default 0: all cores)")
      ->capture_default_str()
      ->transform(Decimal());
  command.add_flag("--no-alternate", options.no_alternate,
                   "Keep policy k in seat k in every game (one seating only)");
  AddTablesOption(command, options);
  AddRuleOptions(command, options);
}

void AddExportOptions(CLI::App& command, Options& options) {
  command.add_option("--players", options.players, "Number of players (default 2)")
      ->transform(Decimal());
  command.add_option("--out", options.out,
                     "JSON file to write atomically, or a directory (default: stdout)");
  AddTablesOption(command, options);
  AddRulesOnly(command, options);
}

void AddReviewOptions(CLI::App& command, Options& options) {
  command.add_option("input", options.input, "The played turns (see below), or - for stdin")
      ->required();
  command.add_option("--objective", options.objective, "ev | reach:K | capped:M | win")
      ->capture_default_str();
  command.add_flag("--exact", options.exact, "Exact fractions (losses as p/q)");
  command.add_option("--scores", options.scores, "win: the game totals before the first turn");
  command.add_option("--seat", options.seat, "win: the seat to move in the first turn");
  command.add_option("--players", options.players, "win: number of players (with --scores)");
  AddTablesOption(command, options);
  AddRuleOptions(command, options);
}

// The app and the subcommand the user picked (null if none).
struct CommandLine {
  CLI::App app{
      "Optimal play for Martian Dice: what a turn position is worth, which dice "
      "to take and whether to roll on, for a turn objective or to win the game.",
      std::string(kProgram)};
  CLI::App* eval = nullptr;
  CLI::App* best = nullptr;
  CLI::App* stats = nullptr;
  CLI::App* solve = nullptr;
  CLI::App* certify = nullptr;
  CLI::App* simulate = nullptr;
  CLI::App* export_table = nullptr;
  CLI::App* plot = nullptr;
  CLI::App* serve = nullptr;
  CLI::App* review = nullptr;
};

void DefineCommandLine(CommandLine& cli, Options& options) {
  cli.app.footer(std::string(kAppFooter));
  cli.app.require_subcommand(0, 1);
  cli.eval = cli.app.add_subcommand("eval", "Stop or roll on? Value of a position");
  cli.eval->footer(std::string(kEvalFooter));
  AddQueryOptions(*cli.eval, options);
  cli.best = cli.app.add_subcommand("best", "Which dice to take from a roll, then stop or roll?");
  cli.best->footer(std::string(kBestFooter));
  cli.best->add_option("--roll", options.roll, "The dice just rolled, e.g. '1T 2R 3C 1K'")
      ->required();
  AddQueryOptions(*cli.best, options);
  cli.stats = cli.app.add_subcommand("stats", "Size of the turn's state space");
  cli.stats->footer(std::string(kStatsFooter));
  AddRuleOptions(*cli.stats, options);
  cli.solve = cli.app.add_subcommand("solve", "Solve the game and write its policy table");
  cli.solve->footer(std::string(kSolveFooter));
  AddSolveOptions(*cli.solve, options);
  cli.certify = cli.app.add_subcommand("certify", "Check every decision a policy table implies");
  cli.certify->footer(std::string(kCertifyFooter));
  AddCertifyOptions(*cli.certify, options);
  cli.simulate = cli.app.add_subcommand("simulate", "Play games between policies; win rates");
  cli.simulate->footer(std::string(kSimulateFooter));
  AddSimulateOptions(*cli.simulate, options);
  cli.export_table = cli.app.add_subcommand("export", "A policy table as JSON, for inspection");
  cli.export_table->footer(std::string(kExportFooter));
  AddExportOptions(*cli.export_table, options);
  cli.plot = AddPlotCommand(cli.app, options.plot);
  cli.serve = cli.app.add_subcommand("serve", "Answer JSON-lines requests on stdin (frontends)");
  cli.serve->footer(std::string(kServeHelp));
  cli.review = cli.app.add_subcommand("review", "What the choices of played turns lost");
  cli.review->footer(std::string(kReviewHelp));
  AddReviewOptions(*cli.review, options);
}

// ---------------------------------------------------------------------------
// Running and error reporting.

// Collapses a message to one line.
std::string OneLine(std::string_view message) {
  std::string line(message);
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::replace(line.begin(), line.end(), '\r', ' ');
  const auto first = line.find_first_not_of(' ');
  if (first == std::string::npos) return "unknown error";
  return line.substr(first, line.find_last_not_of(' ') - first + 1);
}

int Fail(std::ostream& err, int code, const std::string& message) {
  err << kProgram << ": error: " << OneLine(message) << "\n";
  err.flush();
  return code;
}

bool IsSubcommand(const std::string& word) {
  return word == "eval" || word == "best" || word == "stats" || word == "solve" ||
         word == "certify" || word == "simulate" || word == "export" || word == "plot" ||
         word == "serve" || word == "review";
}

// An error for a first argument that is neither an option nor a subcommand.
std::optional<std::string> CheckSubcommand(const std::vector<std::string>& args) {
  if (args.empty()) {
    return absl::StrCat("no subcommand given; use one of: ", kSubcommandList, " (see --help)");
  }
  const std::string& first = args.front();
  if ((first.empty() || first.front() != '-') && !IsSubcommand(first)) {
    return absl::StrCat("unknown subcommand '", first, "'; use one of: ", kSubcommandList);
  }
  return std::nullopt;
}

// CLI11's message, with a hint when options come before the subcommand.
// CLI11 2.1 lists unexpected arguments in reverse order: they are listed
// again here in command-line order.
std::string ParseErrorMessage(const CLI::ParseError& e, const CLI::App& app,
                              const std::vector<std::string>& args) {
  std::string message = e.what();
  const bool extras = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr;
  if (extras) {
    const std::vector<std::string> unexpected = app.remaining(true);
    if (!unexpected.empty()) {
      message = absl::StrCat(unexpected.size() > 1 ? "The following arguments were not expected: "
                                                   : "The following argument was not expected: ",
                             absl::StrJoin(unexpected, " "));
    }
  }
  const bool option_first = !args.front().empty() && args.front().front() == '-';
  if (extras && option_first) {
    absl::StrAppend(&message, " (options go after the subcommand: ", kSubcommandList, ")");
  }
  return message;
}

// A failed command's exit status: 130 when interrupted, 2 for bad input (a
// request outside what is supported, e.g. 7 players, or a file that is not
// there), 1 for anything else (an internal error).
int ExitCodeFor(const absl::Status& status) {
  if (absl::IsCancelled(status)) return kCliExitInterrupted;
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kUnimplemented:
    case absl::StatusCode::kNotFound:
      return kCliExitUsage;
    default:
      return kCliExitInternal;
  }
}

// `certify`: the report on `out`, and an exit status that says whether the
// table is certified.
int RunCertifyCommand(const Options& options, std::ostream& out, std::ostream& err) {
  auto fail = [&](const absl::Status& status) {
    return Fail(err, ExitCodeFor(status), std::string(status.message()));
  };
  absl::StatusOr<Rules> rules = ReadRules(options);
  if (!rules.ok()) return fail(rules.status());
  const int players = options.players.value_or(2);
  if (absl::Status status = CheckPlayerCount(players, "--players"); !status.ok()) {
    return fail(status);
  }
  if (options.threads < 0) {
    return fail(absl::InvalidArgumentError("--threads must be 0 (all) or more"));
  }
  cli::CertifyRequest request;
  absl::StatusOr<GameTable> table = LoadGameTable(*rules, players, options.tables, &request.path);
  if (!table.ok()) return fail(table.status());
  cli::InterruptFlag interrupt;
  request.threads = options.threads == 0 ? DefaultThreads() : options.threads;
  request.json = options.json;
  request.stop = interrupt.flag();
  request.table = &*table;
  absl::StatusOr<cli::CertifyOutcome> outcome = cli::RunCertify(request);
  if (!outcome.ok()) return fail(outcome.status());
  out << outcome->text;
  out.flush();
  return outcome->certified ? kCliExitOk : kCliExitNotCertified;
}

absl::StatusOr<std::string> Dispatch(const CommandLine& cli, const Options& options, const Io& io) {
  if (cli.eval->parsed()) return RunEval(options);
  if (cli.best->parsed()) return RunBest(options);
  if (cli.stats->parsed()) return RunStats(options);
  if (cli.solve->parsed()) return RunSolve(options, io);
  if (cli.simulate->parsed()) return RunSimulate(options);
  if (cli.export_table->parsed()) return RunExport(options);
  if (cli.plot->parsed()) return RunPlot(options.plot);
  if (cli.review->parsed()) {
    return RunReview({options, options.input, options.json}, io.environment.in);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("no subcommand given; use one of: ", kSubcommandList, " (see --help)"));
}

int Run(const std::vector<std::string>& args, std::ostream& out, const Io& io) {
  if (std::optional<std::string> problem = CheckSubcommand(args)) {
    return Fail(io.err, kCliExitUsage, *problem);
  }
  Options options;
  CommandLine cli;
  DefineCommandLine(cli, options);
  try {
    cli.app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return cli.app.exit(e, out, io.err);  // --help: help text on `out`, exit 0
    }
    return Fail(io.err, kCliExitUsage, ParseErrorMessage(e, cli.app, args));
  }
  if (cli.serve->parsed()) {
    std::istringstream no_input;
    return Serve(io.environment.in ? *io.environment.in : no_input, out, io.err);
  }
  if (cli.certify->parsed()) return RunCertifyCommand(options, out, io.err);
  absl::StatusOr<std::string> result = Dispatch(cli, options, io);
  if (!result.ok()) {
    return Fail(io.err, ExitCodeFor(result.status()), std::string(result.status().message()));
  }
  out << *result;
  out.flush();
  return kCliExitOk;
}

}  // namespace

namespace cli {

// The shared pipeline (cli_query.h): `stats` (the rest is defined above).
absl::StatusOr<std::string> StatsJson(const Rules& rules) {
  absl::StatusOr<StateSpaceStats> stats = ComputeStateSpaceStats(rules);
  if (!stats.ok()) return stats.status();
  return martiandice::StatsJson(rules, *stats);
}

}  // namespace cli

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const CliEnvironment& environment) {
  try {
    return Run(args, out, Io{err, environment});
  } catch (const std::exception& e) {
    return Fail(err, kCliExitInternal, absl::StrCat("internal error: ", e.what()));
  } catch (...) {
    return Fail(err, kCliExitInternal, "internal error");
  }
}

}  // namespace martiandice

// The martiandice command line: parses options with CLI11, validates every
// input with the library, solves the turn and prints the `eval`, `best` and
// `stats` results as human-readable text or as the JSON contract (one object).
#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/objective.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "martiandice/solver.h"
#include "martiandice/state_space.h"

namespace martiandice {
namespace {

// Debian's absl::string_view is not std::string_view, so absl::StrCat takes
// no std::string_view: keep those out of StrCat calls.
constexpr char kProgram[] = "martiandice";
constexpr char kSubcommandList[] = "eval, best, stats";

// ---------------------------------------------------------------------------
// Options and validated inputs.

// Raw option values, shared by the subcommands (only one runs).
struct Options {
  std::string objective = "ev";
  bool exact = false;
  bool json = false;
  int dice = Rules{}.dice;
  int bonus = Rules{}.bonus;
  int target = Rules{}.target;
  std::string aside;
  std::string roll;
};

// The validated inputs of `eval` and `best`.
struct Query {
  Rules rules;
  Objective objective;
  Precision precision;
  Dice aside;
};

absl::Status Invalid(const std::string& context, const absl::Status& status) {
  return absl::InvalidArgumentError(absl::StrCat(context, ": ", status.message()));
}

absl::StatusOr<Rules> ReadRules(const Options& options) {
  const Rules rules{options.dice, options.bonus, options.target};
  if (absl::Status status = ValidateRules(rules); !status.ok()) {
    return Invalid("invalid rules", status);
  }
  return rules;
}

absl::StatusOr<Dice> ReadDice(const std::string& flag, const std::string& text) {
  absl::StatusOr<Dice> dice = ParseDice(text);
  if (!dice.ok()) return Invalid(flag, dice.status());
  return dice;
}

absl::StatusOr<Query> ReadQuery(const Options& options) {
  absl::StatusOr<Rules> rules = ReadRules(options);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Objective> objective = Objective::Parse(options.objective);
  if (!objective.ok()) {
    return Invalid("--objective", objective.status());
  }
  absl::StatusOr<Dice> aside = ReadDice("--aside", options.aside);
  if (!aside.ok()) return aside.status();
  if (absl::Status status = ValidateAside(*rules, *aside); !status.ok()) {
    return Invalid("--aside", status);
  }
  const Precision precision = options.exact ? Precision::kExact : Precision::kDouble;
  return Query{*rules, *std::move(objective), precision, *aside};
}

absl::StatusOr<TurnSolution> SolveQuery(const Query& query) {
  return TurnSolution::Solve(query.rules, query.objective, query.precision);
}

// ---------------------------------------------------------------------------
// A minimal JSON writer: one object per call, keys in insertion order.

std::string JsonString(std::string_view text) {
  std::string quoted = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (c == '\n') {
      quoted += "\\n";
    } else if (c == '\t') {
      quoted += "\\t";
    } else if (c == '\r') {
      quoted += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      quoted += absl::StrFormat("\\u%04x", byte);
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

// 17 significant digits so that the value round-trips; JSON has no NaN/inf.
std::string JsonDouble(double x) {
  if (!std::isfinite(x)) return "null";
  return absl::StrFormat("%.17g", x);
}

class JsonObject {
 public:
  JsonObject& Raw(std::string_view key, const std::string& json) {
    absl::StrAppend(&body_, body_.empty() ? "" : ",", JsonString(key), ":", json);
    return *this;
  }
  JsonObject& Str(std::string_view key, std::string_view text) {
    return Raw(key, JsonString(text));
  }
  JsonObject& Int(std::string_view key, std::int64_t n) { return Raw(key, absl::StrCat(n)); }
  JsonObject& Bool(std::string_view key, bool b) { return Raw(key, b ? "true" : "false"); }
  JsonObject& Null(std::string_view key) { return Raw(key, "null"); }
  std::string Build() const { return absl::StrCat("{", body_, "}"); }

 private:
  std::string body_;
};

std::string JsonArray(const std::vector<std::string>& items) {
  return absl::StrCat("[", absl::StrJoin(items, ","), "]");
}

// Adds `key` (a double or null) and, for exact solutions, `key_exact` ("p/q" or null).
void AddValue(JsonObject& object, std::string_view key, const std::optional<Value>& value,
              bool exact) {
  object.Raw(key, value ? JsonDouble(value->approx) : "null");
  if (!exact) return;
  const std::string exact_key = absl::StrCat(std::string(key), "_exact");
  if (value && value->exact) {
    object.Str(exact_key, FormatRational(*value->exact));
  } else {
    object.Null(exact_key);
  }
}

std::string RulesJson(const Rules& rules) {
  return JsonObject()
      .Int("dice", rules.dice)
      .Int("bonus", rules.bonus)
      .Int("target", rules.target)
      .Build();
}

// Fields every eval/best object starts with.
JsonObject QueryHeaderJson(const Query& query) {
  JsonObject object;
  object.Raw("rules", RulesJson(query.rules))
      .Str("objective", query.objective.name())
      .Str("precision", query.precision == Precision::kExact ? "exact" : "double")
      .Str("aside", FormatDice(query.aside));
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

std::string RulesLine(const Query& query) {
  return absl::StrFormat("Objective: %s (%s). Rules: %s, bonus %d, target %d.\n",
                         query.objective.Describe(), query.objective.name(),
                         DiceCount(query.rules.dice), query.rules.bonus, query.rules.target);
}

// ---------------------------------------------------------------------------
// eval

std::string EvalJson(const Query& query, const PositionEval& eval) {
  const bool exact = query.precision == Precision::kExact;
  JsonObject object = QueryHeaderJson(query);
  object.Int("dice_left", eval.dice_left);
  AddValue(object, "value", eval.value, exact);
  AddValue(object, "stop", eval.stop, exact);
  AddValue(object, "roll", eval.roll, exact);
  object.Str("action", ThenName(eval.action));
  return object.Build() + "\n";
}

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

std::string EvalText(const Query& query, const PositionEval& eval) {
  const bool exact = query.precision == Precision::kExact;
  std::string text =
      eval.aside.empty()
          ? absl::StrFormat("Position: start of the turn, %s to roll.\n", DiceCount(eval.dice_left))
          : absl::StrFormat("Position: set aside %s, %s left to roll.\n", FormatDice(eval.aside),
                            DiceCount(eval.dice_left));
  absl::StrAppend(&text, RulesLine(query));
  absl::StrAppend(&text, EvalLine("stop", eval.stop, "not allowed before the first roll", exact));
  absl::StrAppend(&text, EvalLine("roll", eval.roll, "not possible: no dice left", exact));
  absl::StrAppend(&text, EvalLine("value", eval.value, "", exact));
  absl::StrAppend(&text, EvalDecision(eval));
  return text;
}

absl::StatusOr<std::string> RunEval(const Options& options) {
  absl::StatusOr<Query> query = ReadQuery(options);
  if (!query.ok()) return query.status();
  absl::StatusOr<TurnSolution> solution = SolveQuery(*query);
  if (!solution.ok()) return solution.status();
  absl::StatusOr<PositionEval> eval = EvaluatePosition(*solution, query->aside);
  if (!eval.ok()) return Invalid("--aside", eval.status());
  return options.json ? EvalJson(*query, *eval) : EvalText(*query, *eval);
}

// ---------------------------------------------------------------------------
// best

std::string OptionJson(const TakeOption& option, bool exact) {
  JsonObject object;
  object.Str("take", FaceName(option.take)).Int("count", option.count);
  object.Str("aside_after", FormatDice(option.aside_after));
  AddValue(object, "stop", option.stop, exact);
  AddValue(object, "roll", option.roll, exact);
  AddValue(object, "value", option.value, exact);
  object.Str("then", ThenName(option.then)).Bool("optimal", option.optimal);
  return object.Build();
}

std::string BestChoiceJson(const RollAdvice& advice) {
  if (!advice.best) return "null";
  const TakeOption& best = advice.options.at(*advice.best);
  return JsonObject()
      .Str("take", FaceName(best.take))
      .Int("count", best.count)
      .Str("then", ThenName(best.then))
      .Build();
}

std::string BestJson(const Query& query, const Dice& roll, const RollAdvice& advice) {
  const bool exact = query.precision == Precision::kExact;
  JsonObject object = QueryHeaderJson(query);
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
  std::vector<std::string> options;
  for (const TakeOption& option : advice.options) options.push_back(OptionJson(option, exact));
  object.Raw("options", JsonArray(options));
  return object.Build() + "\n";
}

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

std::string BestText(const Query& query, const Dice& roll, const RollAdvice& advice) {
  const bool exact = query.precision == Precision::kExact;
  std::string text =
      absl::StrFormat("Set aside: %s. Rolled: %s", AsideText(query.aside), FormatDice(roll));
  if (roll.count(Face::kTank) > 0) {
    absl::StrAppend(&text, " (tanks set aside automatically: now ",
                    FormatDice(advice.aside_after_tanks), ")");
  }
  absl::StrAppend(&text, ".\n");
  absl::StrAppend(&text, RulesLine(query));
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
  absl::StatusOr<Dice> roll = ReadDice("--roll", options.roll);
  if (!roll.ok()) return roll.status();
  if (absl::Status status = ValidateRoll(query->rules, query->aside, *roll); !status.ok()) {
    return Invalid("--roll", status);
  }
  absl::StatusOr<TurnSolution> solution = SolveQuery(*query);
  if (!solution.ok()) return solution.status();
  absl::StatusOr<RollAdvice> advice = AdviseRoll(*solution, query->aside, *roll);
  if (!advice.ok()) return Invalid("--roll", advice.status());
  return options.json ? BestJson(*query, *roll, *advice) : BestText(*query, *roll, *advice);
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
// Command-line definition (CLI11).

constexpr std::string_view kAppFooter = R"(
Dice notation (--aside, --roll): face letters T Tank, R Death Ray, H Human,
C Cow, K Chicken, each optionally preceded by a count: "2T 3R 4H", "TTRRRHHHH",
"2t3r4h". "-" or "" means no dice. Quote it in the shell: --aside '2T 4H'.

Objectives (--objective): "ev" maximises the expected turn score; "reach:K"
maximises the probability of scoring at least K this turn; "capped:M"
maximises the expected value of min(score, M).

Values are measured in the objective: points for ev and capped:M, a
probability for reach:K. With --exact every value is also given as an exact
fraction p/q. Run `martiandice eval --help` or `martiandice best --help` for
the meaning of each output field.

Exit status: 0 success, 2 bad input (one line on stderr), 1 internal error.
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

void AddRuleOptions(CLI::App& command, Options& options) {
  command.add_option("--dice", options.dice, "Dice in a turn (rules variant)")
      ->capture_default_str();
  command.add_option("--bonus", options.bonus, "Points for one of each earthling type")
      ->capture_default_str();
  command.add_option("--target", options.target, "Game total that ends the game")
      ->capture_default_str();
  command.add_flag("--json", options.json, "Print one JSON object instead of text");
}

void AddQueryOptions(CLI::App& command, Options& options) {
  command.add_option("--aside", options.aside,
                     "Dice set aside so far, e.g. '2T 4H' (default: start of the turn)");
  command.add_option("--objective", options.objective, "ev | reach:K | capped:M")
      ->capture_default_str();
  command.add_flag("--exact", options.exact, "Solve in exact fractions (also prints p/q)");
  AddRuleOptions(command, options);
}

// The app and the subcommand the user picked (null if none).
struct CommandLine {
  CLI::App app{
      "Optimal play for Martian Dice: what a turn position is worth, and which "
      "dice to take and whether to roll on.",
      std::string(kProgram)};
  CLI::App* eval = nullptr;
  CLI::App* best = nullptr;
  CLI::App* stats = nullptr;
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

// An error for a first argument that is neither an option nor a subcommand.
std::optional<std::string> CheckSubcommand(const std::vector<std::string>& args) {
  if (args.empty()) {
    return absl::StrCat("no subcommand given; use one of: ", kSubcommandList, " (see --help)");
  }
  const std::string& first = args.front();
  if (first.empty() || first.front() != '-') {
    if (first != "eval" && first != "best" && first != "stats") {
      return absl::StrCat("unknown subcommand '", first, "'; use one of: ", kSubcommandList);
    }
  }
  return std::nullopt;
}

// CLI11's message, with a hint when options come before the subcommand.
std::string ParseErrorMessage(const CLI::ParseError& e, const std::vector<std::string>& args) {
  std::string message = e.what();
  const bool option_first = !args.front().empty() && args.front().front() == '-';
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && option_first) {
    absl::StrAppend(&message, " (options go after the subcommand: ", kSubcommandList, ")");
  }
  return message;
}

absl::StatusOr<std::string> Dispatch(const CommandLine& cli, const Options& options) {
  if (cli.eval->parsed()) return RunEval(options);
  if (cli.best->parsed()) return RunBest(options);
  if (cli.stats->parsed()) return RunStats(options);
  return absl::InvalidArgumentError(
      absl::StrCat("no subcommand given; use one of: ", kSubcommandList, " (see --help)"));
}

int Run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (std::optional<std::string> problem = CheckSubcommand(args)) {
    return Fail(err, kCliExitUsage, *problem);
  }
  Options options;
  CommandLine cli;
  DefineCommandLine(cli, options);
  try {
    cli.app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return cli.app.exit(e, out, err);  // --help: help text on `out`, exit 0
    }
    return Fail(err, kCliExitUsage, ParseErrorMessage(e, args));
  }
  absl::StatusOr<std::string> result = Dispatch(cli, options);
  if (!result.ok()) {
    const bool bad_input = result.status().code() == absl::StatusCode::kInvalidArgument;
    return Fail(err, bad_input ? kCliExitUsage : kCliExitInternal,
                std::string(result.status().message()));
  }
  out << *result;
  out.flush();
  return kCliExitOk;
}

}  // namespace

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    return Run(args, out, err);
  } catch (const std::exception& e) {
    return Fail(err, kCliExitInternal, absl::StrCat("internal error: ", e.what()));
  } catch (...) {
    return Fail(err, kCliExitInternal, "internal error");
  }
}

}  // namespace martiandice

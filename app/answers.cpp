// The answers of `eval` and `best` as JSON and text (app/answers.h).
#include "answers.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "front_end.h"
#include "json.h"
#include "martiandice/exact.h"
#include "martiandice/objective.h"
#include "martiandice/turn_query.h"

namespace martiandice::app {
namespace {

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

bool IsExact(const Query& query) { return query.precision == Precision::kExact; }

// The win goal's fields: the context, every seat's chances, the table; what
// the values measure ("win", or the fallback's objective) and why the fallback.
void AddGameJson(JsonObject& object, const Query& query, const std::vector<double>& win,
                 const LoadedTable* table, WinSource source, const Fallback* fallback) {
  if (!query.goal.is_win()) return;
  const GameContext& context = *query.context;
  object.Int("players", query.players)
      .Int("seat", context.seat)
      .Raw("scores", JsonIntArray(context.scores))
      .Bool("final_round", FinalRoundBegun(query.rules, context.scores, context.seat));
  if (fallback != nullptr) {
    object.Null("win_probabilities").Null("table").Null("error_bound");
    object.Str("values", fallback->query.goal.name())
        .Str("source", "fallback")
        .Bool("fallback", true)
        .Str("fallback_reason", fallback->reason);
    return;
  }
  object.Raw("win_probabilities", JsonDoubleArray(win));
  if (source == WinSource::kFinalRound) {
    object.Null("table").Null("error_bound");
  } else {
    object.Str("table", table->path).Raw("error_bound", JsonDouble(table->table.error_bound()));
  }
  object.Str("values", query.goal.name())
      .Str("source", source == WinSource::kFinalRound ? "final_round" : "table")
      .Bool("fallback", false)
      .Null("fallback_reason");
}

// Fields every eval/best object starts with.
JsonObject QueryHeaderJson(const Query& query, const std::vector<double>& win,
                           const LoadedTable* table, WinSource source, const Fallback* fallback) {
  JsonObject object(2048);  // the whole eval/best object, with room to spare
  object.Raw("rules", RulesJson(query.rules))
      .Str("objective", query.goal.name())
      .Str("precision", IsExact(query) ? "exact" : "double")
      .Str("aside", FormatDice(query.aside));
  AddGameJson(object, query, win, table, source, fallback);
  return object;
}

// The goal the values of an answer to `query` measure.
const Goal& ValuesGoal(const Query& query, const Fallback* fallback) {
  return fallback != nullptr ? fallback->query.goal : query.goal;
}

std::string AsideText(const Dice& aside) {
  return aside.empty() ? "nothing (start of the turn)" : FormatDice(aside);
}

std::string ExactText(const std::optional<Value>& value) {
  return value && value->exact ? FormatRational(*value->exact) : "-";
}

std::string ThenPhrase(Then then) {
  switch (then) {
    case Then::kStop:
      return "stop";
    case Then::kRoll:
      return "roll on";
    case Then::kEither:
      return "stop or roll on (both are worth the same)";
  }
  return "";
}

// "seat 0 41.23% (to move), seat 1 58.77%"
std::string WinProbabilitiesText(const std::vector<double>& win, int mover) {
  std::vector<std::string> seats;
  for (int seat = 0; seat < static_cast<int>(win.size()); ++seat) {
    seats.push_back(
        absl::StrCat("seat ", seat, " ", Percent(win[seat]), seat == mover ? " (to move)" : ""));
  }
  return absl::StrJoin(seats, ", ");
}

// The fallback's values: "the fallback's capped:7, in points: expected min(score, 7)".
std::string FallbackValuesText(const Goal& goal) {
  return absl::StrCat("the fallback's ", goal.name(),
                      IsChance(goal) ? ", as chances: " : ", in points: ", goal.Describe());
}

// In the final round before its last seat, the seats that still play after
// the mover: the fallback's chance to pass the leader is not yet the win.
std::string NotYetTheWin(const Rules& rules, const GameContext& context) {
  const int players = static_cast<int>(context.scores.size());
  if (!FinalRoundBegun(rules, context.scores, context.seat) || context.seat + 1 >= players) {
    return "";
  }
  std::vector<int> after;
  for (int seat = context.seat + 1; seat < players; ++seat) after.push_back(seat);
  return absl::StrCat("; seat", after.size() == 1 ? " " : "s ", absl::StrJoin(after, ", "),
                      after.size() == 1 ? " plays" : " play",
                      " after this turn, so it is not yet the chance to win");
}

// The win goal's lines: the context and every seat's chances, or the fallback named.
std::string GameText(const Query& query, const std::vector<double>& win, const LoadedTable* table,
                     WinSource source, const Fallback* fallback) {
  if (!query.goal.is_win()) return "";
  const GameContext& context = *query.context;
  std::string text =
      absl::StrFormat("Game: %d players, scores %s; seat %d to move%s.\n", query.players,
                      absl::StrJoin(context.scores, ", "), context.seat,
                      FinalRoundBegun(query.rules, context.scores, context.seat)
                          ? " (final round: the target has been reached)"
                          : "");
  if (fallback != nullptr) {
    absl::StrAppend(&text, "No exact table for ", query.players, " players: ", fallback->reason,
                    ".\n");
    absl::StrAppend(&text, "Values below: ", FallbackValuesText(fallback->query.goal),
                    NotYetTheWin(query.rules, context), ".\n");
    return text;
  }
  absl::StrAppend(&text, "Win probabilities at the start of this turn: ",
                  WinProbabilitiesText(win, context.seat), ".\n");
  if (source == WinSource::kFinalRound) {
    absl::StrAppend(&text,
                    "Values below: the mover's chance to win, solved for this final round (no "
                    "table for ",
                    query.players, " players is needed once the target is reached).\n");
    return text;
  }
  absl::StrAppend(&text, "Values below: the mover's chance to win. Table: ", table->path, ".\n");
  return text;
}

std::string RulesLine(const Query& query) {
  return absl::StrFormat("Objective: %s (%s). Rules: %s.\n", query.goal.Describe(),
                         query.goal.name(), RulesText(query.rules));
}

std::string EvalLine(const Goal& goal, std::string_view label, const std::optional<Value>& value,
                     std::string_view missing, bool exact) {
  if (!value) return absl::StrFormat("  %-6s %s\n", label, missing);
  if (!exact) return absl::StrFormat("  %-6s %s\n", label, ValueText(goal, value->approx));
  return absl::StrFormat("  %-6s %s  (exactly %s)\n", label, ValueText(goal, value->approx),
                         ExactText(value));
}

// After an answer whose best value is a chance of exactly 0 (so is every
// option's): that no move changes anything.
std::string NoChanceText(const Query& query, const Goal& goal, double best) {
  if (!IsChance(goal) || best != 0) return "";
  return query.goal.is_win() ? "No move can win the game from here.\n"
                             : "No move has any chance here: every option is worth 0%.\n";
}

std::string EvalDecision(const PositionEval& eval) {
  if (!eval.stop)
    return "Decision: roll (a turn starts with a roll; stopping is not allowed yet).\n";
  if (!eval.roll) return "Decision: stop (no dice are left; the turn is scored).\n";
  return absl::StrCat("Decision: ", ThenPhrase(eval.action), ".\n");
}

void AddOptionFields(JsonObject& object, const TakeOption& option, bool exact) {
  object.Str("take", FaceName(option.take)).Int("count", option.count);
  object.Str("aside_after", FormatDice(option.aside_after));
  AddValue(object, "stop", option.stop, exact);
  AddValue(object, "roll", option.roll, exact);
  AddValue(object, "value", option.value, exact);
  object.Str("then", ThenName(option.then)).Bool("optimal", option.optimal);
}

std::string OptionJson(const TakeOption& option, bool exact) {
  JsonObject object;
  AddOptionFields(object, option, exact);
  return std::move(object).Build();
}

std::string BestChoiceJson(const RollAdvice& advice) {
  if (!advice.best) return "null";
  const TakeOption& best = advice.options.at(*advice.best);
  JsonObject object(64);
  object.Str("take", FaceName(best.take)).Int("count", best.count).Str("then", ThenName(best.then));
  return std::move(object).Build();
}

std::string OptionRow(const Goal& goal, const TakeOption& option, bool exact) {
  std::string row =
      absl::StrFormat("  %-2s %-12s %10s %10s %10s  %s\n", option.optimal ? "*" : "",
                      FaceCountText(option.take, option.count), ValueText(goal, option.stop.approx),
                      option.roll ? ValueText(goal, option.roll->approx) : "-",
                      ValueText(goal, option.value.approx), ThenName(option.then));
  if (exact) {
    absl::StrAppend(
        &row, absl::StrFormat("     exactly: stop %s, roll %s, value %s\n", ExactText(option.stop),
                              ExactText(option.roll), ExactText(option.value)));
  }
  return row;
}

// What the best take leaves: "Next: 3T 3R 4H 1K set aside, roll 2 dice."
std::string NextText(const Rules& rules, const TakeOption& best) {
  const std::string aside = FormatDice(best.aside_after);
  const int left = rules.dice - best.aside_after.total();
  const int score = TurnScore(rules, best.aside_after);
  if (left == 0) {
    return absl::StrFormat("Next: %s set aside, no dice left: the turn scores %d.", aside, score);
  }
  switch (best.then) {
    case Then::kRoll:
      return absl::StrFormat("Next: %s set aside, roll %s.", aside, DiceCount(left));
    case Then::kStop:
      return absl::StrFormat("Next: %s set aside, stop: the turn scores %d.", aside, score);
    case Then::kEither:
      break;
  }
  return absl::StrFormat("Next: %s set aside, stop (the turn scores %d) or roll %s.", aside, score,
                         DiceCount(left));
}

std::string BestVerdict(const Query& query, const Goal& goal, const RollAdvice& advice) {
  std::string value = absl::StrCat("Value: ", ValueText(goal, advice.value.approx));
  if (IsExact(query)) absl::StrAppend(&value, " (exactly ", ExactText(advice.value), ")");
  if (advice.turn_over || !advice.best) {
    return absl::StrFormat("%s\nTurn over: no legal take; the turn scores %d.\n", value,
                           advice.turn_over_score);
  }
  const TakeOption& best = advice.options.at(*advice.best);
  return absl::StrFormat("%s\nBest: take %s, then %s.\n%s\n%s", value,
                         FaceCountText(best.take, best.count), ThenPhrase(best.then),
                         NextText(query.rules, best),
                         NoChanceText(query, goal, advice.value.approx));
}

// For the win goal: the table, loaded with front_end.h's errors.
absl::Status LoadQueryTable(Advisor& advisor, const Query& query) {
  if (!query.goal.is_win()) return absl::OkStatus();
  absl::StatusOr<bool> solved = advisor.SolvesFinalRound(query);
  if (!solved.ok()) return TableError(query.rules, query.players, solved.status());
  if (*solved) return absl::OkStatus();  // no table: the final round is solved
  return LoadTable(advisor, query.rules, query.players, query.tables).status();
}

}  // namespace

absl::StatusOr<EvalAnswer> Evaluate(Advisor& advisor, const Query& query) {
  if (absl::Status status = LoadQueryTable(advisor, query); !status.ok()) return status;
  return advisor.Evaluate(query);
}

absl::StatusOr<BestAnswer> Best(Advisor& advisor, const Query& query, const Dice& roll) {
  if (absl::Status status = LoadQueryTable(advisor, query); !status.ok()) return status;
  return advisor.Best(query, roll);
}

absl::StatusOr<std::optional<Fallback>> FallbackFor(Advisor& advisor, const Query& query) {
  if (!query.goal.is_win() || query.tables) return std::nullopt;  // a named table must be there
  absl::StatusOr<TableCoverage> coverage = advisor.Coverage(query.rules, query.players);
  if (!coverage.ok()) return TableError(query.rules, query.players, coverage.status());
  if (coverage->table) return std::nullopt;
  Fallback fallback{query, coverage->reason};
  fallback.query.goal = Goal::ForTurn(FallbackObjective(query.rules, *query.context));
  fallback.query.context.reset();
  fallback.query.players = 0;
  return fallback;
}

absl::StatusOr<std::string> AnswerQuery(Advisor& advisor, const Request& request, unsigned command,
                                        AnswerFormat format,
                                        const std::function<absl::Status(const Query&)>& check) {
  absl::StatusOr<Query> query = ParseQuery(request.query);
  if (!query.ok()) return query.status();
  if (check) {
    if (absl::Status status = check(*query); !status.ok()) return status;
  }
  const bool json = format == AnswerFormat::kJson;
  std::optional<Dice> roll;
  if (command == kBestRequest) {
    absl::StatusOr<Dice> parsed = ParseRoll(*query, request.roll.value_or(""));
    if (!parsed.ok()) return parsed.status();
    roll = *parsed;
  }
  // No table, a final round: the advisor solves it; else maybe the fallback.
  absl::StatusOr<bool> solved = advisor.SolvesFinalRound(*query);
  if (!solved.ok()) return TableError(query->rules, query->players, solved.status());
  absl::StatusOr<std::optional<Fallback>> fallback =
      *solved ? std::optional<Fallback>() : FallbackFor(advisor, *query);
  if (!fallback.ok()) return fallback.status();
  const Fallback* used = fallback->has_value() ? &**fallback : nullptr;
  const Query& asked = used != nullptr ? used->query : *query;
  if (roll) {
    absl::StatusOr<BestAnswer> answer = Best(advisor, asked, *roll);
    if (!answer.ok()) return answer.status();
    return json ? BestJson(*query, *roll, *answer, used) : BestText(*query, *roll, *answer, used);
  }
  absl::StatusOr<EvalAnswer> answer = Evaluate(advisor, asked);
  if (!answer.ok()) return answer.status();
  return json ? EvalJson(*query, *answer, used) : EvalText(*query, *answer, used);
}

std::string EvalJson(const Query& query, const EvalAnswer& answer, const Fallback* fallback) {
  const PositionEval& eval = answer.eval;
  const bool exact = IsExact(query);
  JsonObject object =
      QueryHeaderJson(query, answer.win_probabilities, answer.table.get(), answer.source, fallback);
  object.Int("dice_left", eval.dice_left);
  AddValue(object, "value", eval.value, exact);
  AddValue(object, "stop", eval.stop, exact);
  AddValue(object, "roll", eval.roll, exact);
  object.Str("action", ThenName(eval.action));
  return std::move(object).Build() + "\n";
}

std::string BestJson(const Query& query, const Dice& roll, const BestAnswer& answer,
                     const Fallback* fallback) {
  const RollAdvice& advice = answer.advice;
  const bool exact = IsExact(query);
  JsonObject object =
      QueryHeaderJson(query, answer.win_probabilities, answer.table.get(), answer.source, fallback);
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

std::string EvalText(const Query& query, const EvalAnswer& answer, const Fallback* fallback) {
  const PositionEval& eval = answer.eval;
  const bool exact = IsExact(query);
  const Goal& goal = ValuesGoal(query, fallback);
  std::string text =
      eval.aside.empty()
          ? absl::StrFormat("Position: start of the turn, %s to roll.\n", DiceCount(eval.dice_left))
          : absl::StrFormat("Position: set aside %s, %s left to roll.\n", FormatDice(eval.aside),
                            DiceCount(eval.dice_left));
  absl::StrAppend(
      &text, RulesLine(query),
      GameText(query, answer.win_probabilities, answer.table.get(), answer.source, fallback));
  absl::StrAppend(&text,
                  EvalLine(goal, "stop", eval.stop, "not allowed before the first roll", exact));
  absl::StrAppend(&text, EvalLine(goal, "roll", eval.roll, "not possible: no dice left", exact));
  absl::StrAppend(&text, EvalLine(goal, "value", eval.value, "", exact));
  absl::StrAppend(&text, EvalDecision(eval), NoChanceText(query, goal, eval.value.approx));
  return text;
}

std::string BestText(const Query& query, const Dice& roll, const BestAnswer& answer,
                     const Fallback* fallback) {
  const RollAdvice& advice = answer.advice;
  const bool exact = IsExact(query);
  const Goal& goal = ValuesGoal(query, fallback);
  std::string text =
      absl::StrFormat("Set aside: %s. Rolled: %s", AsideText(query.aside), FormatDice(roll));
  if (roll.count(Face::kTank) > 0) {
    absl::StrAppend(&text, " (tanks set aside automatically: now ",
                    FormatDice(advice.aside_after_tanks), ")");
  }
  absl::StrAppend(&text, ".\n");
  absl::StrAppend(
      &text, RulesLine(query),
      GameText(query, answer.win_probabilities, answer.table.get(), answer.source, fallback));
  if (!advice.options.empty()) {
    absl::StrAppend(&text, absl::StrFormat("\n  %-2s %-12s %10s %10s %10s  %s\n", "", "take",
                                           "stop", "roll", "value", "then"));
    for (const TakeOption& option : advice.options) {
      absl::StrAppend(&text, OptionRow(goal, option, exact));
    }
    absl::StrAppend(&text, "  (* = optimal)\n\n");
  }
  absl::StrAppend(&text, BestVerdict(query, goal, advice));
  return text;
}

void AddGameAdviceJson(JsonObject& object, const GameAdvice& advice) {
  object.Str("decision", PhaseName(advice.phase)).Str("values", advice.goal.name());
  object.Bool("fallback", advice.fallback);
  if (advice.fallback) {
    object.Str("fallback_reason", advice.fallback_reason);
  } else {
    object.Null("fallback_reason");
  }
  if (advice.win_probabilities.empty()) {
    object.Null("win_probabilities");
  } else {
    object.Raw("win_probabilities", JsonDoubleArray(advice.win_probabilities));
  }
  if (advice.takes) {
    AddValue(object, "value", advice.takes->value, false);
    object.Raw("best", BestChoiceJson(*advice.takes));
    std::vector<std::string> options;
    for (std::size_t i = 0; i < advice.takes->options.size(); ++i) {
      JsonObject option;
      AddOptionFields(option, advice.takes->options[i], false);
      const std::optional<double> zero =
          i < advice.take_zero_chances.size() ? advice.take_zero_chances[i] : std::nullopt;
      zero ? option.Double("zero_chance", *zero) : option.Null("zero_chance");
      options.push_back(std::move(option).Build());
    }
    object.Raw("options", JsonArray(options));
    return;
  }
  if (!advice.position) return;
  AddValue(object, "value", advice.position->value, false);
  AddValue(object, "stop", advice.position->stop, false);
  AddValue(object, "roll", advice.position->roll, false);
  object.Str("action", ThenName(advice.position->action));
  if (advice.zero_chance) {
    object.Double("zero_chance", *advice.zero_chance);
  } else {
    object.Null("zero_chance");
  }
}

std::string TableValuesLines(const std::string& path) {
  return absl::StrCat("Values: the mover's chance to win, from the table\n  ", path);
}

std::string AdviceValuesText(const GameAdvice& advice) {
  if (!advice.fallback) return "the mover's chance to win";
  return FallbackValuesText(advice.goal);
}

namespace {

// The terminal columns `text` takes: its UTF-8 characters (bytes but
// continuation bytes), one column each.
std::size_t Columns(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// A group of dice in the notation ("3R", "12H"): kGoesOn, or kEnds where
// punctuation closes a list of them ("1K:", "1K,"); else kNotDice.
enum class DiceGroup { kNotDice, kGoesOn, kEnds };
DiceGroup DiceGroupOf(std::string_view word) {
  std::size_t digits = 0;
  while (digits < word.size() && word[digits] >= '0' && word[digits] <= '9') ++digits;
  if (digits == 0 || digits > 2 || digits == word.size() ||
      std::string_view("TRHCK").find(word[digits]) == std::string_view::npos) {
    return DiceGroup::kNotDice;
  }
  if (word.size() == digits + 1) return DiceGroup::kGoesOn;
  const bool closed = word.size() == digits + 2 &&
                      std::string_view(",.:;)").find(word[digits + 1]) != std::string_view::npos;
  return closed ? DiceGroup::kEnds : DiceGroup::kNotDice;
}

// Whether `word` is a count ("12", "(3"): it stays with the word after it.
bool IsCount(std::string_view word) {
  if (!word.empty() && word.front() == '(') word.remove_prefix(1);
  return !word.empty() && word.size() <= 12 &&
         word.find_first_not_of("0123456789") == std::string_view::npos;
}

// Whether `word` is a number in a list, followed by more ("13,").
bool IsListedNumber(std::string_view word) {
  return word.size() >= 2 && word.size() <= 12 && word.back() == ',' &&
         word.find_first_not_of("0123456789") == word.size() - 1;
}

// Where the word at `at` (not a space) ends: at the next space, or for a
// `backquoted` or 'quoted' span at the space after its closing quote, or
// for dice ("2T 3R 4H") or numbers ("6, 13, 22") at the end of their list:
// a roll or the totals are read whole; a count and the word it counts
// ("3 errors"), and a seed and its number, stay together too.
std::size_t WordEnd(std::string_view line, std::size_t at) {
  std::size_t from = at;
  if (line[at] == '`' || line[at] == '\'') {
    const std::size_t closing = line.find(line[at], at + 1);
    if (closing != std::string_view::npos) from = closing;
  }
  const auto end_of = [&](std::size_t start) {
    const std::size_t space = line.find(' ', start);
    return space == std::string_view::npos ? line.size() : space;
  };
  std::size_t end = end_of(from);
  if (from != at) return end;  // a quoted span
  if (IsCount(line.substr(at, end - at)) && end + 1 < line.size() && line[end] == ' ' &&
      std::islower(static_cast<unsigned char>(line[end + 1]))) {
    return end_of(end + 1);
  }
  // A seed and its number ("seed 1539305762793695715.") stay together.
  if (line.substr(at, end - at) == "seed" && end + 1 < line.size() && line[end] == ' ' &&
      std::isdigit(static_cast<unsigned char>(line[end + 1]))) {
    return end_of(end + 1);
  }
  // A list of numbers ("Scores: 6, 13, 22.") stays together.
  while (IsListedNumber(line.substr(at, end - at)) && end + 1 < line.size() && line[end] == ' ' &&
         std::isdigit(static_cast<unsigned char>(line[end + 1]))) {
    at = end + 1;
    end = end_of(at);
  }
  // Dice groups one space apart stay together.
  while (DiceGroupOf(line.substr(at, end - at)) == DiceGroup::kGoesOn && end + 1 < line.size() &&
         line[end] == ' ' && line[end + 1] != ' ') {
    const std::size_t next_end = end_of(end + 1);
    if (DiceGroupOf(line.substr(end + 1, next_end - end - 1)) == DiceGroup::kNotDice) break;
    at = end + 1;
    end = next_end;
  }
  return end;
}

// One line over `width`: broken at spaces, the spaces at a break dropped and
// every other run of them kept.
void WrapLine(std::string_view line, std::size_t indent, std::size_t width, std::string& out) {
  const std::size_t hang = std::min(indent, width / 2) + 2;
  out.append(line.substr(0, indent));
  std::size_t column = indent;
  for (std::size_t at = indent; at < line.size();) {
    const std::size_t end = WordEnd(line, at);
    const std::string_view word = line.substr(at, end - at);
    std::size_t next = line.find_first_not_of(' ', end);
    if (next == std::string_view::npos) next = line.size();
    out += word;
    column += Columns(word);
    if (next == line.size()) break;  // trailing spaces dropped
    const std::size_t gap = next - end;
    if (column + gap + Columns(line.substr(next, WordEnd(line, next) - next)) > width) {
      out += '\n';
      out.append(hang, ' ');
      column = hang;
    } else {
      out.append(gap, ' ');
      column += gap;
    }
    at = next;
  }
}

}  // namespace

std::string WrapColumns(std::string_view text, std::size_t width) {
  std::string out;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (start > 0) out += '\n';
    start = end + 1;
    const std::size_t indent = line.find_first_not_of(' ');
    if (Columns(line) <= width || indent == std::string_view::npos) {
      out += line;
    } else {
      WrapLine(line, indent, width, out);
    }
  }
  return out;
}

namespace {

// "  Rolling on scores 0 with chance 31.04% after 3 rays, 12.50% after 4 humans."
// ("" when no take leaves dice to roll), lines of at most `width` columns.
std::string TakeZeroChancesText(const GameAdvice& advice, std::size_t width) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < advice.take_zero_chances.size(); ++i) {
    if (!advice.take_zero_chances[i]) continue;
    const TakeOption& option = advice.takes->options[i];
    parts.push_back(absl::StrCat(Percent(*advice.take_zero_chances[i]), " after ",
                                 FaceCountText(option.take, option.count)));
  }
  if (parts.empty()) return "";
  std::string text = "  Rolling on scores 0 with chance";
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string part = parts[i] + (i + 1 < parts.size() ? "," : ".");
    if (text.size() - line_start + 1 + part.size() > width) {
      text += "\n   ";
      line_start = text.size() - 3;
    }
    absl::StrAppend(&text, " ", part);
  }
  return text + "\n";
}

// A win advice, or the fallback's in the final round, where no option has
// any chance left (a final turn that cannot catch the leader): said in
// words, not only as a table of 0.00%.
bool NoChanceLeft(const GameAdvice& advice) {
  if (!IsChance(advice.goal)) return false;
  if (advice.takes) {
    return std::all_of(advice.takes->options.begin(), advice.takes->options.end(),
                       [](const TakeOption& option) { return option.value.approx == 0; });
  }
  return advice.position && advice.position->value.approx == 0;
}

constexpr char kNoChanceLeft[] = "  No move can win the game from here.\n";

}  // namespace

std::string GameAdviceText(const GameAdvice& advice, std::size_t width) {
  std::string text;
  if (advice.takes) {
    const RollAdvice& takes = *advice.takes;
    absl::StrAppend(&text, absl::StrFormat("  %-2s %-12s %10s %10s %10s  %s\n", "", "take", "stop",
                                           "roll", "value", "then"));
    for (const TakeOption& option : takes.options) {
      absl::StrAppend(&text, OptionRow(advice.goal, option, false));
    }
    if (takes.best) {
      const TakeOption& best = takes.options.at(*takes.best);
      absl::StrAppend(&text, "  Best: take ", FaceCountText(best.take, best.count), ", then ",
                      ThenPhrase(best.then), ".\n");
    }
    absl::StrAppend(&text, TakeZeroChancesText(advice, width));
    if (NoChanceLeft(advice)) absl::StrAppend(&text, kNoChanceLeft);
    return text;
  }
  if (!advice.position) return text;
  const PositionEval& eval = *advice.position;
  if (!eval.stop) {
    absl::StrAppend(&text, "  roll ", ValueText(advice.goal, eval.value.approx), "\n");
  } else {
    std::string line = absl::StrCat("  stop ", ValueText(advice.goal, eval.stop->approx));
    if (eval.roll) absl::StrAppend(&line, ", roll on ", ValueText(advice.goal, eval.roll->approx));
    absl::StrAppend(&line, ": best ", ThenPhrase(eval.action), ".");
    absl::StrAppend(&text, WrapColumns(line, width), "\n");  // a tie's phrase may pass the width
  }
  if (advice.zero_chance) {
    absl::StrAppend(&text, eval.stop ? "  Rolling on ends the turn" : "  The turn ends",
                    " with 0 points with chance ", Percent(*advice.zero_chance), ".\n");
  }
  if (NoChanceLeft(advice)) absl::StrAppend(&text, kNoChanceLeft);
  return text;
}

std::string FaceNamesJson(const std::vector<Face>& faces) {
  std::vector<std::string> names;
  for (Face face : faces) names.push_back(JsonString(FaceName(face)));
  return JsonArray(names);
}

std::string RulesJson(const Rules& rules) {
  JsonObject object(48);
  object.Int("dice", rules.dice).Int("bonus", rules.bonus).Int("target", rules.target);
  return std::move(object).Build();
}

std::string DiceCount(int n) { return absl::StrCat(n, n == 1 ? " die" : " dice"); }

std::string Number(double x) { return absl::StrFormat("%.6f", x); }

std::string Percent(double p) {
  const double percent = 100 * p;
  // A small loss is not shown as 0.00%: two significant digits.
  if (percent != 0 && std::abs(percent) < 0.01) return absl::StrFormat("%.2g%%", percent);
  // Nor a chance just under 1 as 100.00%: two significant digits of what it
  // lacks, unless that is within the tie tolerance (10^-12), rounding.
  if (const double lack = 100 - percent; lack > 1e-10 && lack < 0.01) {
    const int decimals = std::min(17, 1 - static_cast<int>(std::floor(std::log10(lack))));
    return absl::StrFormat("%.*f%%", decimals, percent);
  }
  return absl::StrFormat("%.2f%%", percent);
}

std::string PercentagePoints(double sum) {
  std::string text = Percent(sum);
  text.pop_back();  // the "%"
  return text + " percentage points";
}

bool IsChance(const Goal& goal) { return goal.is_win() || goal.objective().is_chance(); }

std::string ValueText(const Goal& goal, double x) {
  return IsChance(goal) ? Percent(x) : Number(x);
}

bool LostToTanks(const Dice& aside) {
  return aside.earthlings() > 0 && TurnScore(Rules{}, aside) == 0;
}

std::string LostToTanksText(const Dice& aside) {
  if (!LostToTanks(aside)) return "";
  return absl::StrCat(" (", FaceCountText(Face::kTank, aside.count(Face::kTank)), " beat ",
                      FaceCountText(Face::kRay, aside.count(Face::kRay)), ")");
}

}  // namespace martiandice::app

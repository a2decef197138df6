// The answer encoder (app/answers.h), in process: eval's and best's JSON
// read back, every number the library's own query result bit for bit (turn
// objectives in double and exact, the win goal from the shipped table); the
// text forms line by line, numbers written independently; the advice at a
// game's decision as JSON and text, with a table and with the fallback; the
// small pieces of text; and a missing table refused as bad input.
#include "answers.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "answer_equality.h"
#include "cli_test_util.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/exact.h"
#include "martiandice/game_state.h"
#include "martiandice/rules.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"
#include "martiandice/win_query.h"
#include "test_util.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

using namespace martiandice;
using answer_equality::Same;
using cli_test::Json;

namespace {

const std::string kData = MARTIANDICE_DATA_DIR;
const std::string kTable2 = kData + "/martiandice-p2-d13-b3-t25.mdt";

Query Parsed(const QueryInput& input) {
  absl::StatusOr<Query> query = ParseQuery(input);
  REQUIRE_MESSAGE(query.ok(), query.status());
  return *std::move(query);
}

QueryInput Turn(const std::string& objective, const std::string& aside, bool exact = false) {
  QueryInput input;
  input.objective = objective;
  input.aside = aside;
  input.exact = exact;
  return input;
}

QueryInput Win(const std::string& scores, int seat, const std::string& aside) {
  QueryInput input;
  input.objective = "win";
  input.scores = scores;
  input.seat = seat;
  input.aside = aside;
  input.tables = kData;
  return input;
}

TurnSolution Solved(const Query& query) {
  absl::StatusOr<TurnSolution> solution =
      TurnSolution::Solve(query.rules, query.goal.objective(), query.precision);
  REQUIRE(solution.ok());
  return *std::move(solution);
}

GameTable Table2() {
  absl::StatusOr<GameTable> table = GameTable::Open(kTable2);
  REQUIRE(table.ok());
  return *std::move(table);
}

// One object on one line, newline included, read back.
Json Line(const std::string& text) {
  REQUIRE(!text.empty());
  CHECK(text.back() == '\n');
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  return cli_test::ParseJsonOrFail(text);
}

using test_util::Lines;

// "%.6f", written here rather than by the encoder's Number.
// A chance as the text shows it: percent, 2 decimals (under 0.01%: 2 significant digits).
std::string Pct(double x) {
  char buffer[64];
  const double percent = 100 * x;
  if (percent != 0 && percent < 0.01 && percent > -0.01) {
    std::snprintf(buffer, sizeof buffer, "%.2g%%", percent);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.2f%%", percent);
  }
  return buffer;
}

std::string Six(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6f", x);
  return buffer;
}

std::vector<double> Numbers(const Json& array) {
  REQUIRE(array.kind == Json::Kind::kArray);
  std::vector<double> numbers;
  for (const Json& item : array.items) numbers.push_back(item.number);
  return numbers;
}

// `key` holds `value` bit for bit (null when unset); with `exact`, `key_exact`
// is its rational as FormatRational writes it; without, there is no such key.
void CheckValue(const Json& object, const std::string& key, const std::optional<Value>& value,
                bool exact) {
  INFO("key: " << key);
  const Json& field = object[key];
  if (!value) {
    CHECK(field.is_null());
  } else {
    REQUIRE(field.kind == Json::Kind::kNumber);
    CHECK(Same(field.number, value->approx));
  }
  const std::string exact_key = key + "_exact";
  if (!exact) {
    CHECK_FALSE(object.Has(exact_key));
    return;
  }
  if (!value) {
    CHECK(object[exact_key].is_null());
    return;
  }
  REQUIRE(value->exact.has_value());
  CHECK(object[exact_key].text == FormatRational(*value->exact));
}

void CheckRules(const Json& object, const Rules& rules) {
  CHECK(object["rules"].keys == std::vector<std::string>{"dice", "bonus", "target"});
  CHECK(object["rules"]["dice"].number == rules.dice);
  CHECK(object["rules"]["bonus"].number == rules.bonus);
  CHECK(object["rules"]["target"].number == rules.target);
}

// An option object's fields are `option`'s.
void CheckOption(const Json& json, const TakeOption& option, bool exact) {
  CHECK(json["take"].text == FaceName(option.take));
  CHECK(json["count"].number == option.count);
  CHECK(json["aside_after"].text == FormatDice(option.aside_after));
  CheckValue(json, "stop", option.stop, exact);
  CheckValue(json, "roll", option.roll, exact);
  CheckValue(json, "value", option.value, exact);
  CHECK(json["then"].text == ThenName(option.then));
  CHECK(json["optimal"].boolean == option.optimal);
}

// best's object: null, or the option advice.best names.
void CheckBestChoice(const Json& json, const RollAdvice& advice) {
  if (!advice.best) {
    CHECK(json.is_null());
    return;
  }
  const TakeOption& best = advice.options.at(*advice.best);
  CHECK(json.keys == std::vector<std::string>{"take", "count", "then"});
  CHECK(json["take"].text == FaceName(best.take));
  CHECK(json["count"].number == best.count);
  CHECK(json["then"].text == ThenName(best.then));
}

// A best answer's JSON is `advice`'s (the fields after the header).
void CheckBestJson(const Json& json, const Dice& roll, const RollAdvice& advice, bool exact) {
  CHECK(json["rolled"].text == FormatDice(roll));
  CHECK(json["aside_after_tanks"].text == FormatDice(advice.aside_after_tanks));
  CHECK(json["turn_over"].boolean == advice.turn_over);
  if (advice.turn_over) {
    CHECK(json["turn_over_score"].number == advice.turn_over_score);
  } else {
    CHECK(json["turn_over_score"].is_null());
  }
  CheckValue(json, "value", advice.value, exact);
  CheckBestChoice(json["best"], advice);
  REQUIRE(json["options"].items.size() == advice.options.size());
  for (std::size_t i = 0; i < advice.options.size(); ++i) {
    CheckOption(json["options"].items[i], advice.options[i], exact);
  }
}

EvalAnswer EvalOf(Advisor& advisor, const Query& query) {
  absl::StatusOr<EvalAnswer> answer = app::Evaluate(advisor, query);
  REQUIRE_MESSAGE(answer.ok(), answer.status());
  return *std::move(answer);
}

// A win request as eval and best take it, naming no table (the default search).
app::Request WinRequest(const std::string& scores, int seat, const std::string& aside) {
  app::Request request;
  request.query.objective = "win";
  request.query.scores = scores;
  request.query.seat = seat;
  request.query.aside = aside;
  return request;
}

// AnswerQuery's JSON answer to `request`, parsed.
Json Answered(Advisor& advisor, const app::Request& request, unsigned command) {
  const absl::StatusOr<std::string> answer =
      app::AnswerQuery(advisor, request, command, app::AnswerFormat::kJson);
  REQUIRE_MESSAGE(answer.ok(), answer.status());
  return Line(*answer);
}

BestAnswer BestOf(Advisor& advisor, const Query& query, const Dice& roll) {
  absl::StatusOr<BestAnswer> answer = app::Best(advisor, query, roll);
  REQUIRE_MESSAGE(answer.ok(), answer.status());
  return *std::move(answer);
}

using test_util::D;

// The README's final round (seat 1 behind 21 to 25) at the last roll of the
// rulebook's sample turn: 1R 1H 1C at 3T 2R 4H 1K.
GameState FinalRoundAtTake() {
  absl::StatusOr<GameState> state = GameState::AtTurnStart(Rules{}, 2, GameContext{{25, 21}, 1});
  REQUIRE(state.ok());
  for (const Move& move : {Move::Roll(D("2T 3R 4H 3C 1K")), Move::Take(Face::kHuman),
                           Move::RollOn(), Move::Roll(D("1T 2R 3C 1K")), Move::Take(Face::kRay),
                           Move::RollOn(), Move::Roll(D("2H 1C 1K")), Move::Take(Face::kChicken),
                           Move::RollOn(), Move::Roll(D("1R 1H 1C"))}) {
    REQUIRE(state->Apply(move).ok());
  }
  return *std::move(state);
}

GameAdvice AdviceAt(Advisor& advisor, const GameState& state,
                    const std::optional<std::string>& tables = kData) {
  absl::StatusOr<GameAdvice> advice = advisor.Advise(state, tables);
  REQUIRE_MESSAGE(advice.ok(), advice.status());
  return *std::move(advice);
}

Json AdviceJson(const GameAdvice& advice) {
  JsonObject object;
  app::AddGameAdviceJson(object, advice);
  return cli_test::ParseJsonOrFail(std::move(object).Build());
}

}  // namespace

TEST_CASE("answers: eval's JSON is the library's position eval, bit for bit") {
  Advisor advisor;
  struct Case {
    std::string objective, aside;
    bool exact;
  };
  for (const Case& c :
       {Case{"ev", "", false}, Case{"reach:10", "2T 4H", false}, Case{"reach:10", "2T 4H", true},
        Case{"capped:8", "3T 3R 4H 1K", true}, Case{"ev", "3T 4R 6H", false}}) {
    CAPTURE(c.objective);
    CAPTURE(c.aside);
    CAPTURE(c.exact);
    const Query query = Parsed(Turn(c.objective, c.aside, c.exact));
    const EvalAnswer answer = EvalOf(advisor, query);
    const absl::StatusOr<PositionEval> direct = EvaluatePosition(Solved(query), query.aside);
    REQUIRE(direct.ok());
    const Json json = Line(app::EvalJson(query, answer));
    std::vector<std::string> keys = {"rules", "objective", "precision", "aside", "dice_left"};
    for (const char* key : {"value", "stop", "roll"}) {
      keys.push_back(key);
      if (c.exact) keys.push_back(std::string(key) + "_exact");
    }
    keys.push_back("action");
    CHECK(json.keys == keys);
    CheckRules(json, Rules{});
    CHECK(json["objective"].text == c.objective);
    CHECK(json["precision"].text == (c.exact ? "exact" : "double"));
    CHECK(json["aside"].text == FormatDice(query.aside));
    CHECK(json["dice_left"].number == direct->dice_left);
    CheckValue(json, "value", direct->value, c.exact);
    CheckValue(json, "stop", direct->stop, c.exact);
    CheckValue(json, "roll", direct->roll, c.exact);
    CHECK(json["action"].text == ThenName(direct->action));
  }
}

TEST_CASE("answers: best's JSON is the library's roll advice, bit for bit") {
  Advisor advisor;
  struct Case {
    std::string objective, aside, roll;
    bool exact;
  };
  for (const Case& c :
       {Case{"ev", "", "2T 3R 4H 3C 1K", false}, Case{"reach:5", "3T 2R 4H 1K", "1R 1H 1C", true},
        Case{"capped:12", "1T 2R", "1T 3R 2H 2C 2K", false},
        Case{"ev", "2T 3R 4H", "2T 2H", true}}) {  // no legal take
    CAPTURE(c.objective);
    CAPTURE(c.roll);
    const Query query = Parsed(Turn(c.objective, c.aside, c.exact));
    const Dice roll = D(c.roll);
    const BestAnswer answer = BestOf(advisor, query, roll);
    const absl::StatusOr<RollAdvice> direct = AdviseRoll(Solved(query), query.aside, roll);
    REQUIRE(direct.ok());
    const Json json = Line(app::BestJson(query, roll, answer));
    std::vector<std::string> keys = {"rules",     "objective",       "precision",
                                     "aside",     "rolled",          "aside_after_tanks",
                                     "turn_over", "turn_over_score", "value"};
    if (c.exact) keys.push_back("value_exact");
    keys.insert(keys.end(), {"best", "options"});
    CHECK(json.keys == keys);
    CheckRules(json, Rules{});
    CHECK(json["aside"].text == FormatDice(query.aside));
    CheckBestJson(json, roll, *direct, c.exact);
  }
  // The turn over: its score, no best, no options.
  const Query over = Parsed(Turn("ev", "2T 3R 4H"));
  const Json json = Line(app::BestJson(over, D("2T 2H"), BestOf(advisor, over, D("2T 2H"))));
  CHECK(json["turn_over"].boolean);
  CHECK(json["turn_over_score"].number == 0);  // 4 tanks beat 3 rays
  CHECK(json["aside_after_tanks"].text == "4T 3R 4H");
  CHECK(json["best"].is_null());
  CHECK(json["options"].items.empty());
}

TEST_CASE("answers: the win goal's fields are the table's win query, bit for bit") {
  Advisor advisor;
  const GameTable table = Table2();
  struct Case {
    std::string scores;
    int seat;
    std::string aside;
    bool final_round;
  };
  for (const Case& c : {Case{"18,22", 0, "3T 2R 4H 1K", false},
                        Case{"25,21", 1, "3T 3R 4H 1K", true}, Case{"0,0", 0, "", false}}) {
    CAPTURE(c.scores);
    const Query query = Parsed(Win(c.scores, c.seat, c.aside));
    REQUIRE(query.context.has_value());
    CHECK(FinalRoundBegun(query.rules, query.context->scores, c.seat) == c.final_round);
    const EvalAnswer answer = EvalOf(advisor, query);
    const absl::StatusOr<WinEval> direct = EvaluateWin(table, *query.context, query.aside);
    REQUIRE(direct.ok());
    const Json json = Line(app::EvalJson(query, answer));
    CHECK(json.keys ==
          std::vector<std::string>{
              "rules",  "objective",   "precision",         "aside",     "players",     "seat",
              "scores", "final_round", "win_probabilities", "table",     "error_bound", "values",
              "source", "fallback",    "fallback_reason",   "dice_left", "value",       "stop",
              "roll",   "action"});
    CHECK(json["values"].text == "win");
    CHECK(json["source"].text == "table");
    CHECK_FALSE(json["fallback"].boolean);
    CHECK(json["fallback_reason"].is_null());
    CHECK(json["objective"].text == "win");
    CHECK(json["players"].number == 2);
    CHECK(json["seat"].number == c.seat);
    CHECK(Numbers(json["scores"]) ==
          std::vector<double>(query.context->scores.begin(), query.context->scores.end()));
    CHECK(json["final_round"].boolean == c.final_round);
    CHECK(Same(Numbers(json["win_probabilities"]), direct->win_probabilities));
    CHECK(json["table"].text == kTable2);
    CHECK(Same(json["error_bound"].number, table.error_bound()));
    CheckValue(json, "value", direct->position.value, false);
    CheckValue(json, "stop", direct->position.stop, false);
    CheckValue(json, "roll", direct->position.roll, false);
    CHECK(json["action"].text == ThenName(direct->position.action));
  }
  // best: the same header, and the options of AdviseWin.
  const Query query = Parsed(Win("18,22", 0, "3T 2R 4H 1K"));
  const Dice roll = D("1R 1H 1C");
  const absl::StatusOr<WinAdvice> direct = AdviseWin(table, *query.context, query.aside, roll);
  REQUIRE(direct.ok());
  const Json json = Line(app::BestJson(query, roll, BestOf(advisor, query, roll)));
  CHECK(Same(Numbers(json["win_probabilities"]), direct->win_probabilities));
  CHECK_FALSE(json["final_round"].boolean);
  CheckBestJson(json, roll, direct->advice, false);
}

TEST_CASE("answers: eval's text, line by line") {
  Advisor advisor;
  SUBCASE("a position in double, then exact") {
    for (const bool exact : {false, true}) {
      CAPTURE(exact);
      const Query query = Parsed(Turn("reach:10", "2T 4H", exact));
      const absl::StatusOr<PositionEval> eval = EvaluatePosition(Solved(query), query.aside);
      REQUIRE(eval.ok());
      REQUIRE(eval->stop.has_value());
      REQUIRE(eval->roll.has_value());
      const auto row = [&](const std::string& label, const Value& value) {
        std::string line = "  " + label + std::string(7 - label.size(), ' ') + Pct(value.approx);
        if (exact) line += "  (exactly " + FormatRational(*value.exact) + ")";
        return line;
      };
      CHECK(eval->stop->approx == 0);  // 4 earthlings under 2 tanks score nothing
      CHECK(eval->action == Then::kRoll);
      CHECK(Lines(app::EvalText(query, EvalOf(advisor, query))) ==
            std::vector<std::string>{
                "Position: set aside 2T 4H, 7 dice left to roll.",
                "Objective: probability of scoring at least 10 (reach:10). Rules: 13 dice, "
                "bonus 3, target 25.",
                row("stop", *eval->stop), row("roll", *eval->roll), row("value", eval->value),
                "Decision: roll on."});
    }
  }
  SUBCASE("the start of a turn, and no dice left") {
    const Query start = Parsed(Turn("ev", ""));
    const double value = Solved(start).StartValue();
    CHECK(Lines(app::EvalText(start, EvalOf(advisor, start))) ==
          std::vector<std::string>{
              "Position: start of the turn, 13 dice to roll.",
              "Objective: expected score (ev). Rules: 13 dice, bonus 3, target 25.",
              "  stop   not allowed before the first roll", "  roll   " + Six(value),
              "  value  " + Six(value),
              "Decision: roll (a turn starts with a roll; stopping is not allowed yet)."});
    const Query full = Parsed(Turn("ev", "3T 4R 6H"));
    CHECK(Lines(app::EvalText(full, EvalOf(advisor, full))) ==
          std::vector<std::string>{
              "Position: set aside 3T 4R 6H, 0 dice left to roll.",
              "Objective: expected score (ev). Rules: 13 dice, bonus 3, target 25.",
              "  stop   6.000000", "  roll   not possible: no dice left", "  value  6.000000",
              "Decision: stop (no dice are left; the turn is scored)."});
  }
  SUBCASE("the win goal's game lines") {
    const Query query = Parsed(Win("25,21", 1, "3T 3R 4H 1K"));
    const EvalAnswer answer = EvalOf(advisor, query);
    REQUIRE(answer.win_probabilities.size() == 2);
    const std::vector<std::string> lines = Lines(app::EvalText(query, answer));
    REQUIRE(lines.size() == 9);
    CHECK(lines[2] ==
          "Game: 2 players, scores 25, 21; seat 1 to move (final round: the target "
          "has been reached).");
    CHECK(lines[3] == "Win probabilities at the start of this turn: seat 0 " +
                          Pct(answer.win_probabilities[0]) + ", seat 1 " +
                          Pct(answer.win_probabilities[1]) + " (to move).");
    CHECK(lines[4] == "Values below: the mover's chance to win. Table: " + kTable2 + ".");
    CHECK(lines[5] == "  stop   100.00%");  // 5 points overtake 25 with 26
    CHECK(lines[8] == "Decision: stop.");
    const Query early = Parsed(Win("18,22", 0, ""));
    CHECK(Lines(app::EvalText(early, EvalOf(advisor, early)))[2] ==
          "Game: 2 players, scores 18, 22; seat 0 to move.");
  }
}

TEST_CASE("answers: best's text, line by line") {
  Advisor advisor;
  SUBCASE("reach:5 at the rulebook's last roll: the ray makes 5, then stop") {
    const Query query = Parsed(Turn("reach:5", "3T 2R 4H 1K", true));
    const Dice roll = D("1R 1H 1C");
    const BestAnswer answer = BestOf(advisor, query, roll);
    const RollAdvice& advice = answer.advice;
    REQUIRE(advice.options.size() == 2);  // the ray and the cow (humans are aside)
    const TakeOption& ray = advice.options[0];
    const TakeOption& cow = advice.options[1];
    CHECK(ray.take == Face::kRay);
    CHECK(ray.stop.approx == 1);
    CHECK(cow.stop.approx == 0);  // 3 tanks beat 2 rays
    REQUIRE(cow.roll.has_value());
    REQUIRE(ray.roll.has_value());
    const auto exactly = [](const std::optional<Value>& value) {
      return FormatRational(*value->exact);
    };
    CHECK(
        Lines(app::BestText(query, roll, answer)) ==
        std::vector<std::string>{
            "Set aside: 3T 2R 4H 1K. Rolled: 1R 1H 1C.",
            "Objective: probability of scoring at least 5 (reach:5). Rules: 13 dice, bonus 3, "
            "target 25.",
            "", "     take               stop       roll      value  then",
            "  *  1 ray           100.00% " + std::string(10 - Pct(ray.roll->approx).size(), ' ') +
                Pct(ray.roll->approx) + "    100.00%  stop",
            "     exactly: stop " + exactly(ray.stop) + ", roll " + exactly(ray.roll) + ", value " +
                exactly(ray.value),
            "     1 cow             0.00% " + std::string(10 - Pct(cow.roll->approx).size(), ' ') +
                Pct(cow.roll->approx) + " " + std::string(10 - Pct(cow.value.approx).size(), ' ') +
                Pct(cow.value.approx) + "  roll",
            "     exactly: stop " + exactly(cow.stop) + ", roll " + exactly(cow.roll) + ", value " +
                exactly(cow.roll),
            "  (* = optimal)", "", "Value: 100.00% (exactly " + exactly(advice.value) + ")",
            "Best: take 1 ray, then stop.",
            "Next: 3T 3R 4H 1K set aside, stop: the turn scores 5."});
  }
  SUBCASE("tanks set aside automatically; the best roll on") {
    const Query query = Parsed(Turn("ev", ""));
    const Dice roll = D("2T 3R 4H 3C 1K");
    const BestAnswer answer = BestOf(advisor, query, roll);
    const std::vector<std::string> lines = Lines(app::BestText(query, roll, answer));
    CHECK(lines[0] ==
          "Set aside: nothing (start of the turn). Rolled: 2T 3R 4H 3C 1K (tanks set "
          "aside automatically: now 2T).");
    REQUIRE(answer.advice.best.has_value());
    const TakeOption& best = answer.advice.options[*answer.advice.best];
    // Header, blank, table header, one row per take, the legend, blank, 3 lines.
    REQUIRE(lines.size() == 2 + 1 + 1 + answer.advice.options.size() + 1 + 1 + 3);
    for (std::size_t i = 0; i < answer.advice.options.size(); ++i) {
      const std::string& row = lines[4 + i];
      CHECK(row.rfind(answer.advice.options[i].optimal ? "  *  " : "     ", 0) == 0);
      CHECK(row.find(Six(answer.advice.options[i].value.approx)) != std::string::npos);
    }
    CHECK(lines[lines.size() - 3] == "Value: " + Six(answer.advice.value.approx));
    if (best.then == Then::kRoll) {
      const int left = 13 - best.aside_after.total();
      CHECK(lines.back() == "Next: " + FormatDice(best.aside_after) + " set aside, roll " +
                                std::to_string(left) + " dice.");
    }
  }
  SUBCASE("a roll with no legal take") {
    const Query query = Parsed(Turn("ev", "2T 3R 4H"));
    const Dice roll = D("2T 2H");
    CHECK(Lines(app::BestText(query, roll, BestOf(advisor, query, roll))) ==
          std::vector<std::string>{
              "Set aside: 2T 3R 4H. Rolled: 2T 2H (tanks set aside automatically: now 4T 3R 4H).",
              "Objective: expected score (ev). Rules: 13 dice, bonus 3, target 25.",
              "Value: 0.000000", "Turn over: no legal take; the turn scores 0."});
  }
}

TEST_CASE("answers: a game's advice as JSON, at each decision, is Advisor::Advise's") {
  Advisor advisor;
  GameState state = FinalRoundAtTake();
  SUBCASE("a take: every option, its zero chance") {
    const GameAdvice advice = AdviceAt(advisor, state);
    REQUIRE(advice.takes.has_value());
    const Json json = AdviceJson(advice);
    CHECK(json.keys == std::vector<std::string>{"decision", "values", "fallback", "fallback_reason",
                                                "win_probabilities", "value", "best", "options"});
    CHECK(json["decision"].text == "take");
    CHECK(json["values"].text == "win");
    CHECK_FALSE(json["fallback"].boolean);
    CHECK(json["fallback_reason"].is_null());
    CHECK(Same(Numbers(json["win_probabilities"]), advice.win_probabilities));
    CheckValue(json, "value", advice.takes->value, false);
    CheckBestChoice(json["best"], *advice.takes);
    REQUIRE(json["options"].items.size() == advice.takes->options.size());
    REQUIRE(advice.take_zero_chances.size() == advice.takes->options.size());
    for (std::size_t i = 0; i < advice.takes->options.size(); ++i) {
      const Json& option = json["options"].items[i];
      CheckOption(option, advice.takes->options[i], false);
      REQUIRE(advice.take_zero_chances[i].has_value());
      CHECK(Same(option["zero_chance"].number, *advice.take_zero_chances[i]));
    }
  }
  SUBCASE("stop or roll on: the values, the action, the zero chance") {
    REQUIRE(state.Apply(Move::Take(Face::kRay)).ok());
    const GameAdvice advice = AdviceAt(advisor, state);
    REQUIRE(advice.position.has_value());
    const Json json = AdviceJson(advice);
    CHECK(json.keys == std::vector<std::string>{"decision", "values", "fallback", "fallback_reason",
                                                "win_probabilities", "value", "stop", "roll",
                                                "action", "zero_chance"});
    CHECK(json["decision"].text == "stop_or_roll");
    CheckValue(json, "value", advice.position->value, false);
    CheckValue(json, "stop", advice.position->stop, false);
    CheckValue(json, "roll", advice.position->roll, false);
    CHECK(json["action"].text == "stop");
    REQUIRE(advice.zero_chance.has_value());
    CHECK(Same(json["zero_chance"].number, *advice.zero_chance));
  }
  SUBCASE("a turn's first roll: no stop; the turn's chance of 0 points") {
    const absl::StatusOr<GameState> start =
        GameState::AtTurnStart(Rules{}, 2, GameContext{{18, 22}, 0});
    REQUIRE(start.ok());
    const GameAdvice advice = AdviceAt(advisor, *start);
    const Json json = AdviceJson(advice);
    CHECK(json["decision"].text == "roll");
    CHECK(json["stop"].is_null());
    REQUIRE(advice.zero_chance.has_value());
    CHECK(Same(json["zero_chance"].number, *advice.zero_chance));
    CHECK(json["action"].text == "roll");
    CHECK(Same(json["value"].number, advice.win_probabilities[0]));
  }
}

TEST_CASE("answers: a game's advice as text, at each decision") {
  Advisor advisor;
  GameState state = FinalRoundAtTake();
  const GameAdvice take = AdviceAt(advisor, state);
  REQUIRE(take.takes.has_value());
  CHECK(app::AdviceValuesText(take) == "the mover's chance to win");
  const std::vector<std::string> lines = Lines(app::GameAdviceText(take));
  const std::vector<TakeOption>& options = take.takes->options;
  REQUIRE(options.size() == 2);  // the ray, the cow
  REQUIRE(lines.size() == 1 + options.size() + 2);
  CHECK(lines[0] == "     take               stop       roll      value  then");
  CHECK(lines[1].rfind("  *  1 ray           100.00%", 0) == 0);  // stopping at 26 wins
  CHECK(lines[2].rfind("     1 cow    ", 0) == 0);
  CHECK(lines[3] == "  Best: take 1 ray, then stop.");
  CHECK(lines[4] == "  Rolling on scores 0 with chance " + Pct(*take.take_zero_chances[0]) +
                        " after 1 ray, " + Pct(*take.take_zero_chances[1]) + " after 1 cow.");

  REQUIRE(state.Apply(Move::Take(Face::kRay)).ok());
  const GameAdvice stop = AdviceAt(advisor, state);
  REQUIRE(stop.position.has_value());
  CHECK(app::GameAdviceText(stop) ==
        "  stop 100.00%, roll on " + Pct(stop.position->roll->approx) +
            ": best stop.\n  Rolling on ends the turn with 0 points with chance " +
            Pct(*stop.zero_chance) + ".\n");
  CHECK(Six(*stop.zero_chance) == "0.194444");  // 7/36, distribution_test's hand count

  const absl::StatusOr<GameState> start = GameState::New(Rules{}, 2);
  REQUIRE(start.ok());
  const GameAdvice roll = AdviceAt(advisor, *start);
  CHECK(app::GameAdviceText(roll) == "  roll " + Pct(roll.win_probabilities[0]) +
                                         "\n  The turn ends with 0 points with chance " +
                                         Pct(*roll.zero_chance) + ".\n");
}

TEST_CASE("answers: a final turn that cannot win says so in words") {
  Advisor advisor;
  // Seat 0 ended at 26; seat 1 at 0 can score 16 at most.
  absl::StatusOr<GameState> state = GameState::AtTurnStart(Rules{}, 2, GameContext{{26, 0}, 1});
  REQUIRE(state.ok());
  const std::string roll = app::GameAdviceText(AdviceAt(advisor, *state));
  CHECK(roll.rfind("  roll 0.00%\n", 0) == 0);
  CHECK(absl::EndsWith(roll, "\n  No move can win the game from here.\n"));
  REQUIRE(state->Apply(Move::Roll(D("1T 3R 4H 3C 2K"))).ok());
  const std::string take = app::GameAdviceText(AdviceAt(advisor, *state));
  CHECK(absl::EndsWith(take, "\n  No move can win the game from here.\n"));
  // Where a chance is left, no such line (seat 0 at 24: not yet the final round).
  absl::StatusOr<GameState> open = GameState::AtTurnStart(Rules{}, 2, GameContext{{24, 0}, 1});
  REQUIRE(open.ok());
  CHECK(app::GameAdviceText(AdviceAt(advisor, *open)).find("No move") == std::string::npos);
}

TEST_CASE("answers: eval and best where no move has a chance say so in words") {
  Advisor advisor;
  // Seat 0 ended at 26; seat 1 at 0 can score 16 at most: from the table.
  const Query lost = Parsed(Win("26,0", 1, ""));
  CHECK(Lines(app::EvalText(lost, EvalOf(advisor, lost))).back() ==
        "No move can win the game from here.");
  const Dice roll = D("1T 3R 4H 3C 2K");
  CHECK(Lines(app::BestText(lost, roll, BestOf(advisor, lost, roll))).back() ==
        "No move can win the game from here.");
  // 4 players, seat 1 needs 16 with 3 tanks to 2 rays: from the solved final
  // round, and from the fallback's final:16/1 where the advisor does not solve it.
  const app::Request request = WinRequest("25,10,20,14", 1, "3T 2R 2H");
  Advisor::Options approximate;
  approximate.solve_final_round = false;
  Advisor fallback(approximate);
  for (Advisor* which : {&advisor, &fallback}) {
    const absl::StatusOr<std::string> text =
        app::AnswerQuery(*which, request, app::kEvalRequest, app::AnswerFormat::kText);
    REQUIRE(text.ok());
    const std::vector<std::string> lines = Lines(*text);
    REQUIRE(lines.size() == 10);
    CHECK(
        lines[4].rfind(which == &advisor
                           ? "Values below: the mover's chance to win, solved for this final round"
                           : "Values below: the fallback's final:16/1",
                       0) == 0);
    CHECK(lines.back() == "No move can win the game from here.");
  }
  // A turn objective: a ray must come first, then 2 + 5 earthlings and the bonus: never 14.
  const Query reach = Parsed(Turn("reach:14", "3T 2R 2H"));
  CHECK(Lines(app::EvalText(reach, EvalOf(advisor, reach))).back() ==
        "No move has any chance here: every option is worth 0%.");
  // Where a chance is left (reach:8: a ray, then earthlings), or values are points, none.
  for (const char* objective : {"reach:8", "ev"}) {
    const Query open = Parsed(Turn(objective, "3T 2R 2H"));
    CHECK(app::EvalText(open, EvalOf(advisor, open)).find("No move") == std::string::npos);
  }
}

TEST_CASE("answers: the fallback's advice says so, in JSON and text") {
  Advisor advisor;
  // 6 players: no table (one takes a cluster); seat 2 at 10 plays capped:15.
  absl::StatusOr<GameState> state =
      GameState::AtTurnStart(Rules{}, 6, GameContext{{12, 3, 10, 0, 7, 1}, 2});
  REQUIRE(state.ok());
  REQUIRE(state->Apply(Move::Roll(D("2T 3R 4H 3C 1K"))).ok());
  REQUIRE(state->Apply(Move::Take(Face::kRay)).ok());
  const GameAdvice advice = AdviceAt(advisor, *state, std::nullopt);
  REQUIRE(advice.fallback);
  const Json json = AdviceJson(advice);
  CHECK(json["values"].text == "capped:15");
  CHECK(json["fallback"].boolean);
  CHECK(json["fallback_reason"].text == advice.fallback_reason);
  CHECK(json["fallback_reason"].text.find("no policy table martiandice-p6-d13-b3-t25.mdt") !=
        std::string::npos);
  CHECK(json["fallback_reason"].text.find("`mpirun -np 5 martiandice solve --players 6 --out "
                                          "martiandice-p6-d13-b3-t25.mdt` on a cluster") !=
        std::string::npos);
  CHECK(json["win_probabilities"].is_null());
  CHECK(Same(json["zero_chance"].number, *advice.zero_chance));
  CHECK(app::AdviceValuesText(advice) ==
        "the fallback's capped:15, in points: expected min(score, 15)");
  // The values are capped:15's own at 2T 3R (eval's).
  const Query capped = Parsed(Turn("capped:15", "2T 3R"));
  const absl::StatusOr<PositionEval> direct = EvaluatePosition(Solved(capped), capped.aside);
  REQUIRE(direct.ok());
  CheckValue(json, "stop", direct->stop, false);
  CheckValue(json, "roll", direct->roll, false);
  CHECK(app::GameAdviceText(advice).rfind("  stop " + Six(direct->stop->approx) + ", roll on " +
                                              Six(direct->roll->approx) + ": best ",
                                          0) == 0);
}

TEST_CASE("answers: rules, dice counts, numbers and takes as text") {
  CHECK(app::RulesJson(Rules{}) == R"({"dice":13,"bonus":3,"target":25})");
  CHECK(app::RulesJson(Rules{6, 0, 15}) == R"({"dice":6,"bonus":0,"target":15})");
  CHECK(RulesText(Rules{}) == "13 dice, bonus 3, target 25");
  CHECK(RulesText(Rules{1, 2, 8}) == "1 die, bonus 2, target 8");
  CHECK(app::DiceCount(0) == "0 dice");
  CHECK(app::DiceCount(1) == "1 die");
  CHECK(app::DiceCount(13) == "13 dice");
  CHECK(app::Number(1.0 / 3) == "0.333333");
  CHECK(app::Number(2.0 / 3) == "0.666667");
  CHECK(app::Number(16) == "16.000000");
  CHECK(app::Percent(0.348276) == "34.83%");
  CHECK(app::Percent(1) == "100.00%");
  CHECK(app::Percent(0) == "0.00%");
  CHECK(app::Percent(0.0000123) == "0.0012%");  // a small loss is not 0.00%
  CHECK(app::Percent(0.0000001) == "1e-05%");
  // Nor a chance just under 1 as 100.00%: what it lacks, 2 significant digits.
  CHECK(app::Percent(0.99995878) == "99.9959%");
  CHECK(app::Percent(0.9999) == "99.99%");
  CHECK(app::Percent(1 - 3e-9) == "99.99999970%");
  // A chance within the tie tolerance of 1 is rounding: 100%.
  CHECK(app::Percent(1 - 1.4e-16) == "100.00%");
  CHECK(app::Percent(1 - 5e-13) == "100.00%");
  CHECK(app::Percent(1 - 3e-12) == "99.99999999970%");
  CHECK(app::IsChance(Goal::Win()));
  CHECK(app::IsChance(*Goal::Parse("reach:10")));
  CHECK_FALSE(app::IsChance(*Goal::Parse("ev")));
  CHECK_FALSE(app::IsChance(*Goal::Parse("capped:7")));
  CHECK(app::ValueText(Goal::Win(), 0.5) == "50.00%");
  CHECK(app::ValueText(*Goal::Parse("capped:7"), 0.5) == "0.500000");
  CHECK(FaceCountText(Face::kHuman, 4) == "4 humans");
  CHECK(FaceCountText(Face::kRay, 1) == "1 ray");
  CHECK(FaceCountText(Face::kChicken, 2) == "2 chickens");
  // Why a turn with earthlings scores 0: only where the tanks outnumber the rays.
  CHECK(app::LostToTanksText(D("3T 4H")) == " (3 tanks beat 0 rays)");
  CHECK(app::LostToTanksText(D("4T 3R 2C 1K")) == " (4 tanks beat 3 rays)");
  CHECK(app::LostToTanksText(D("3T 3R 2C")).empty());  // as many rays: the earthlings score
  CHECK(app::LostToTanksText(D("5T 2R")).empty());     // nothing taken to lose
  CHECK(app::LostToTanksText(D("2R 3H")).empty());
}

// 4 players under the official rules: no table ships, so the default search
// finds none; seat 0 at 18 needs 7 points (25 - 18): capped:7 answers.
TEST_CASE("answers: a win query no table covers is answered by the fallback, named") {
  Advisor advisor;
  app::Request request = WinRequest("18,22,10,5", 0, "2T 4H");
  const Query capped = Parsed(Turn("capped:7", "2T 4H"));
  const absl::StatusOr<PositionEval> direct = EvaluatePosition(Solved(capped), capped.aside);
  REQUIRE(direct.ok());
  const absl::StatusOr<std::string> eval =
      app::AnswerQuery(advisor, request, app::kEvalRequest, app::AnswerFormat::kJson);
  REQUIRE(eval.ok());
  const Json json = Line(*eval);
  CHECK(json["objective"].text == "win");
  CHECK(json["players"].number == 4);
  CHECK(json["values"].text == "capped:7");
  CHECK(json["fallback"].boolean);
  CHECK(json["fallback_reason"].text.find("no policy table martiandice-p4-d13-b3-t25.mdt") !=
        std::string::npos);
  CHECK(json["win_probabilities"].is_null());
  CHECK(json["table"].is_null());
  CheckValue(json, "value", direct->value, false);
  CheckValue(json, "stop", direct->stop, false);
  CheckValue(json, "roll", direct->roll, false);
  // The same keys as a 2-player answer's, in the same order.
  const Json two = Line(app::EvalJson(Parsed(Win("18,22", 0, "2T 4H")),
                                      EvalOf(advisor, Parsed(Win("18,22", 0, "2T 4H")))));
  CHECK(json.keys == two.keys);
  // The text names the fallback and shows points, not percentages.
  const absl::StatusOr<std::string> text =
      app::AnswerQuery(advisor, request, app::kEvalRequest, app::AnswerFormat::kText);
  REQUIRE(text.ok());
  const std::vector<std::string> lines = Lines(*text);
  REQUIRE(lines.size() == 9);
  CHECK(lines[3].rfind("No exact table for 4 players: no policy table", 0) == 0);
  CHECK(lines[4] == "Values below: the fallback's capped:7, in points: expected min(score, 7).");
  CHECK(lines[5] == "  stop   " + Six(direct->stop->approx));
  // best: capped:7's ranking of the takes.
  request.roll = "1T 2R 3C 1K";
  const absl::StatusOr<std::string> best =
      app::AnswerQuery(advisor, request, app::kBestRequest, app::AnswerFormat::kJson);
  REQUIRE(best.ok());
  const absl::StatusOr<RollAdvice> takes =
      AdviseRoll(Solved(capped), capped.aside, D("1T 2R 3C 1K"));
  REQUIRE(takes.ok());
  CheckBestJson(Line(*best), D("1T 2R 3C 1K"), *takes, false);
  // A table named but not there stays an error.
  request.query.tables = "/nonexistent/martiandice-tables";
  CHECK(app::AnswerQuery(advisor, request, app::kEvalRequest, app::AnswerFormat::kJson)
            .status()
            .code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("answers: a final round no table covers is solved, bit for bit the solver's") {
  Advisor advisor;
  app::Request request = WinRequest("26,20,22,24", 1, "2T 4H");
  const absl::StatusOr<FinalRoundSolver> solver = FinalRoundSolver::Create(Rules{}, 4);
  REQUIRE(solver.ok());
  const GameContext context{{26, 20, 22, 24}, 1};
  const absl::StatusOr<WinEval> direct = solver->Evaluate(context, D("2T 4H"));
  REQUIRE(direct.ok());
  const Json json = Answered(advisor, request, app::kEvalRequest);
  CHECK(json.keys == Line(app::EvalJson(Parsed(Win("18,22", 0, "2T 4H")),
                                        EvalOf(advisor, Parsed(Win("18,22", 0, "2T 4H")))))
                         .keys);
  CHECK(json["values"].text == "win");
  CHECK(json["source"].text == "final_round");
  CHECK_FALSE(json["fallback"].boolean);
  CHECK(json["fallback_reason"].is_null());
  CHECK(json["table"].is_null());
  CHECK(json["error_bound"].is_null());
  CHECK(Same(Numbers(json["win_probabilities"]), direct->win_probabilities));
  CheckValue(json, "value", direct->position.value, false);
  CheckValue(json, "stop", direct->position.stop, false);
  CheckValue(json, "roll", direct->position.roll, false);
  request.roll = "1T 2R 3C 1K";
  const Json best = Answered(advisor, request, app::kBestRequest);
  const absl::StatusOr<WinAdvice> takes = solver->Advise(context, D("2T 4H"), D("1T 2R 3C 1K"));
  REQUIRE(takes.ok());
  CHECK(best["source"].text == "final_round");
  CheckBestJson(best, D("1T 2R 3C 1K"), takes->advice, false);
  // Before the final round, and past the work bound, the fallback plays.
  const Json open = Answered(advisor, WinRequest("20,20,22,24", 1, "2T 4H"), app::kEvalRequest);
  CHECK(open["source"].text == "fallback");
  CHECK(open["values"].text == "capped:5");
  Advisor::Options little;
  little.final_round.max_work = 1;
  Advisor bounded(little);
  const Json over = Answered(bounded, WinRequest("26,20,22,24", 1, "2T 4H"), app::kEvalRequest);
  CHECK(over["source"].text == "fallback");
  CHECK(over["values"].text == "final:7/1");
  // The library's own answer: no table, the solved round's values.
  auto searched = [](QueryInput input) {  // the default search, no table named
    input.tables.reset();
    return Parsed(input);
  };
  const absl::StatusOr<EvalAnswer> answer =
      advisor.Evaluate(searched(Win("26,20,22,24", 1, "2T 4H")));
  REQUIRE(answer.ok());
  CHECK(answer->source == WinSource::kFinalRound);
  CHECK(answer->table == nullptr);
  CHECK(answer->win_probabilities == direct->win_probabilities);
  // A named table must be there: no solved round instead.
  QueryInput named = Win("26,20,22,24", 1, "2T 4H");
  named.tables = "/nonexistent/martiandice-tables";
  CHECK(advisor.Evaluate(Parsed(named)).status().code() == absl::StatusCode::kNotFound);
  CHECK(*advisor.SolvesFinalRound(searched(Win("26,20,22,24", 1, "2T 4H"))));
  CHECK_FALSE(*bounded.SolvesFinalRound(searched(Win("26,20,22,24", 1, "2T 4H"))));
  CHECK_FALSE(*advisor.SolvesFinalRound(searched(Win("25,21", 1, ""))));  // a table covers it
}

TEST_CASE("answers: a win query without its table is bad input naming the command") {
  Advisor advisor;
  QueryInput input = Win("3,4", 0, "");
  input.tables = "/nonexistent/martiandice-tables";
  const Query query = Parsed(input);
  // The advisor says NotFound; the front ends' answer makes it bad input,
  // naming the command that generates the table.
  CHECK(advisor.Evaluate(query).status().code() == absl::StatusCode::kNotFound);
  for (const absl::Status& status :
       {app::Evaluate(advisor, query).status(), app::Best(advisor, query, D("13R")).status()}) {
    const std::string message(status.message());
    INFO("message: " << message);
    CHECK(status.code() == absl::StatusCode::kInvalidArgument);
    CHECK(message.find("/nonexistent/martiandice-tables") != std::string::npos);
    CHECK(message.find("martiandice solve --players 2") != std::string::npos);
  }
  // A file that is no table: the advisor's message, and the command added.
  test_util::TempDir dir;
  test_util::WriteFile(dir.File("damaged.mdt"), "not a policy table");
  QueryInput damaged = Win("3,4", 0, "");
  damaged.tables = dir.File("damaged.mdt");
  const absl::Status bad = app::Evaluate(advisor, Parsed(damaged)).status();
  INFO("message: " << bad.message());
  CHECK(bad.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(bad.message())
            .find(dir.File("damaged.mdt") + ": not a martiandice policy table") !=
        std::string::npos);
  CHECK(absl::EndsWith(bad.message(),
                       " (generate the table with: martiandice solve --players 2 --out "
                       "martiandice-p2-d13-b3-t25.mdt)"));
  // A table one machine cannot make: the search's message names the
  // cluster's command, once.
  QueryInput six = Win("3,4,0,0,0,0", 0, "");
  six.tables.reset();
  const absl::Status status = app::Evaluate(advisor, Parsed(six)).status();
  const std::string message(status.message());
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(message.rfind("no policy table martiandice-p6-d13-b3-t25.mdt for 6 players", 0) == 0);
  CHECK(message.find("`mpirun -np 5 martiandice solve --players 6 --out "
                     "martiandice-p6-d13-b3-t25.mdt` on a cluster") != std::string::npos);
  CHECK(message.find("generate the table with") == std::string::npos);
}

TEST_CASE("answers: WrapColumns breaks long lines at spaces, keeping paths and commands whole") {
  using app::WrapColumns;
  const std::string short_line = "Seat 1 stops and scores 2.  Two spaces kept.";
  CHECK(WrapColumns(short_line) == short_line);
  CHECK(WrapColumns("") == "");
  CHECK(WrapColumns("a\n\nb\n") == "a\n\nb\n");
  const std::string rating =
      "Rating 1 of 100 (beginner): 2 inaccuracies, 2 errors, 3 blunders; lost 5.71% a decision "
      "(docs/RATING.md).";
  CHECK(WrapColumns(rating) ==
        "Rating 1 of 100 (beginner): 2 inaccuracies, 2 errors, 3 blunders; lost 5.71% a\n"
        "  decision (docs/RATING.md).");
  // An indented line hangs two columns past its own indent; the first line
  // fills exactly 80 columns.
  const std::string turn = "  turn 13: " + std::string(61, 'x') + " abcdefg hij";
  CHECK(WrapColumns(turn) == "  turn 13: " + std::string(61, 'x') + " abcdefg\n    hij");
  // Columns are characters, not bytes: 80 two-byte characters fill a line.
  std::string wide;
  for (int i = 0; i < 39; ++i) wide += "é";
  CHECK(WrapColumns(wide + "é " + wide) == wide + "é " + wide);
  CHECK(WrapColumns(wide + "é " + wide + "é") == wide + "é\n  " + wide + "é");
  // A word longer than the width stays whole, on a line of its own.
  const std::string path = "/" + std::string(90, 'p');
  CHECK(WrapColumns("Game log written to " + path + " now.") ==
        "Game log written to\n  " + path + "\n  now.");
  // A seed stays with its number (play's first line under long rules).
  CHECK(WrapColumns("Martian Dice: 5 players (17 dice, bonus 100, target 150), seed "
                    "1539305762793695715.") ==
        "Martian Dice: 5 players (17 dice, bonus 100, target 150),\n  seed "
        "1539305762793695715.");
  // A `command` is one word.
  const std::string text =
      "Generate it with `mpirun -np 5 martiandice solve --players 6 --out "
      "martiandice-p6-d13-b3-t25.mdt` on a cluster.";
  const std::string wrapped = WrapColumns(text);
  CHECK(wrapped ==
        "Generate it with\n  `mpirun -np 5 martiandice solve --players 6 --out "
        "martiandice-p6-d13-b3-t25.mdt`\n  on a cluster.");
  // Spaces kept but at a break; a 'quoted entry' kept whole.
  const std::string entry = "Refused: unknown entry 'fly    me    to' " + std::string(36, 'y');
  CHECK(WrapColumns(entry + " end") == entry + "\n  end");
  CHECK(WrapColumns("Refused: " + std::string(60, 'x') + " 'take  2  humans' x") ==
        "Refused: " + std::string(60, 'x') + "\n  'take  2  humans' x");
  // A roll's dice stay on one line, up to the punctuation that ends them;
  // other numbers and letters break as words.
  const std::string filler(58, 'x');
  CHECK(WrapColumns("Seat 1 " + filler + " 2T 3R 4H 3C 1K: takes 4 humans.") ==
        "Seat 1 " + filler + "\n  2T 3R 4H 3C 1K: takes 4 humans.");
  CHECK(WrapColumns("Seat 1 " + std::string(69, 'x') + " 3T, 2R and 4H") ==
        "Seat 1 " + std::string(69, 'x') + " 3T,\n  2R and 4H");
  CHECK(WrapColumns("Seat 1 " + std::string(70, 'x') + " 12 T 3R 4H") ==
        "Seat 1 " + std::string(70, 'x') + " 12\n  T 3R 4H");
  // A list of numbers (the totals) stays on one line; a number after a comma
  // that ends no number breaks as a word.
  const std::string ends = "No dice left: seat 5's turn ends and scores 0 (5 tanks beat 4 rays).";
  CHECK(WrapColumns(ends + " Scores: 6, 13, 13, 22, 11, 5.") ==
        ends + " Scores:\n  6, 13, 13, 22, 11, 5.");
  CHECK(WrapColumns(ends + " Scores, 6 xy") == ends + " Scores,\n  6 xy");
  // A count stays with the word it counts, opened by a parenthesis or not.
  CHECK(WrapColumns("Policy " + std::string(50, 'x') + " (54 inaccuracies, 21 errors") ==
        "Policy " + std::string(50, 'x') + " (54 inaccuracies,\n  21 errors");
  CHECK(WrapColumns("Policy " + std::string(60, 'x') + " x (54 inaccuracies,") ==
        "Policy " + std::string(60, 'x') + " x\n  (54 inaccuracies,");
  CHECK(WrapColumns("Policy " + std::string(66, 'x') + " 21 Errors") ==
        "Policy " + std::string(66, 'x') + " 21\n  Errors");
  // Every line of a long paragraph within 80 columns; the words unchanged.
  std::string words;
  for (int i = 0; i < 100; ++i) words += (i ? " w" : "w") + std::to_string(i * i);
  const std::string lines = WrapColumns(words);
  std::istringstream in(lines);
  std::string joined;
  for (std::string line; std::getline(in, line);) {
    CHECK(line.size() <= 80);
    joined += (joined.empty() ? "" : " ") + line.substr(line.find_first_not_of(' '));
  }
  CHECK(joined == words);
}

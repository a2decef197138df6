// The advisor (martiandice/advisor.h): goals; every ParseQuery and ParseRoll
// check at its boundary (the last input accepted, the first refused), each
// refusal naming its input in the message and in InputName; answers equal to
// the library's own queries; the caches bounded, the (max+1)-th entry
// evicting the least recently used; and one advisor shared by threads with
// caches smaller than their needs (a "concurrency" case: run under TSan).
#include "martiandice/advisor.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "answer_equality.h"
#include "game_solver.h"
#include "martiandice/dice.h"
#include "martiandice/distribution.h"
#include "martiandice/game_state.h"
#include "martiandice/objective.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"
#include "martiandice/win_query.h"
#include "solved_turn.h"  // white box: which solved turn the cache handed out
#include "table_builder.h"
#include "test_util.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

using namespace martiandice;
using answer_equality::Same;

namespace {

const std::string kData = MARTIANDICE_DATA_DIR;
const std::string kTable2 = kData + "/martiandice-p2-d13-b3-t25.mdt";

QueryInput Turn(const std::string& objective, const std::string& aside = "") {
  QueryInput input;
  input.objective = objective;
  input.aside = aside;
  return input;
}

QueryInput Win(const std::string& scores, std::optional<int> seat = std::nullopt,
               const std::string& aside = "") {
  QueryInput input;
  input.objective = "win";
  input.scores = scores;
  input.seat = seat;
  input.aside = aside;
  return input;
}

QueryInput WithRules(QueryInput input, Rules rules) {
  input.rules = rules;
  return input;
}

void CheckAccepted(const QueryInput& input) {
  const absl::StatusOr<Query> query = ParseQuery(input);
  CHECK_MESSAGE(query.ok(), query.status());
}

// `status` refuses an input: InvalidArgument, the message starts with
// `start` and contains `text`, and InputName gives `name` (none: no name).
void CheckRefusal(const absl::Status& status, const std::string& start, const std::string& text,
                  const std::optional<std::string>& name) {
  const std::string message(status.message());
  INFO("message: " << message);
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(message.rfind(start, 0) == 0);
  CHECK(message.find(text) != std::string::npos);
  CHECK(InputName(status) == name);
}

// Refused for the input `name`: "name: ...".
void CheckRefused(const QueryInput& input, const std::string& name, const std::string& text) {
  const absl::StatusOr<Query> query = ParseQuery(input);
  REQUIRE_FALSE(query.ok());
  CheckRefusal(query.status(), name + ": ", text, name);
}

// Refused for its rules: "invalid rules: ...", about no one input.
void CheckRulesRefused(const Rules& rules, const std::string& text) {
  const absl::StatusOr<Query> query = ParseQuery(WithRules(Turn("ev"), rules));
  REQUIRE_FALSE(query.ok());
  CheckRefusal(query.status(), "invalid rules: ", text, std::nullopt);
}

Query Parsed(const QueryInput& input) {
  absl::StatusOr<Query> query = ParseQuery(input);
  REQUIRE_MESSAGE(query.ok(), query.status());
  return *std::move(query);
}

// The solved turn a TurnSolution shares: the same for the same cache entry.
// (Tests hold the solutions they compare, so no address is reused.)
const void* Identity(const TurnSolution& solution) {
  return &internal::SolvedTurnAccess::Of(solution);
}

TurnSolution TurnOf(Advisor& advisor, const Objective& objective,
                    Precision precision = Precision::kDouble, Rules rules = Rules{}) {
  absl::StatusOr<TurnSolution> solution = advisor.Turn(rules, objective, precision);
  REQUIRE_MESSAGE(solution.ok(), solution.status());
  return *std::move(solution);
}

std::shared_ptr<const LoadedTable> TableOf(Advisor& advisor, const std::string& source,
                                           int players = 2) {
  absl::StatusOr<std::shared_ptr<const LoadedTable>> table =
      advisor.Table(Rules{}, players, source);
  REQUIRE_MESSAGE(table.ok(), table.status());
  return *std::move(table);
}

}  // namespace

TEST_CASE("advisor: goals are turn objectives or win") {
  const absl::StatusOr<Goal> win = Goal::Parse("win");
  REQUIRE(win.ok());
  CHECK(win->is_win());
  CHECK(win->name() == "win");
  CHECK(win->Describe() == Goal::Win().Describe());
  CHECK(win->Describe().find("winning the game") != std::string::npos);
  for (const char* spec : {"ev", "reach:10", "capped:8"}) {
    CAPTURE(spec);
    const absl::StatusOr<Goal> goal = Goal::Parse(spec);
    REQUIRE(goal.ok());
    CHECK_FALSE(goal->is_win());
    CHECK(goal->name() == spec);
    CHECK(goal->objective().name() == spec);
    CHECK(goal->Describe() == goal->objective().Describe());
  }
  for (const char* spec : {"Win", "win2", "", "reach:", "max"}) {
    CAPTURE(spec);
    const absl::StatusOr<Goal> goal = Goal::Parse(spec);
    REQUIRE_FALSE(goal.ok());
    CHECK(goal.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(goal.status().message()).find("or win") != std::string::npos);
  }
  CHECK(Goal::ForTurn(Objective::ReachAtLeast(7)).name() == "reach:7");
}

TEST_CASE("advisor: rules at their bounds, refused without an input name") {
  CheckAccepted(WithRules(Turn("ev"), Rules{kMinDice, 3, 25}));
  CheckRulesRefused(Rules{kMinDice - 1, 3, 25}, "dice count 0");
  CheckAccepted(WithRules(Turn("ev"), Rules{kMaxDice, 3, 25}));
  CheckRulesRefused(Rules{kMaxDice + 1, 3, 25}, "dice count 21");
  CheckAccepted(WithRules(Turn("ev"), Rules{13, 0, 25}));
  CheckRulesRefused(Rules{13, -1, 25}, "bonus -1");
  CheckAccepted(WithRules(Turn("ev"), Rules{13, kMaxBonus, 25}));
  CheckRulesRefused(Rules{13, kMaxBonus + 1, 25}, "bonus 101");
  CheckAccepted(WithRules(Turn("ev"), Rules{13, 3, kMinTarget}));
  CheckRulesRefused(Rules{13, 3, kMinTarget - 1}, "target 0");
  CheckAccepted(WithRules(Turn("ev"), Rules{13, 3, kMaxTarget}));
  CheckRulesRefused(Rules{13, 3, kMaxTarget + 1}, "target 201");
  // The rules are checked first: a bad objective with bad rules is about the rules.
  const absl::StatusOr<Query> both = ParseQuery(WithRules(Turn("bogus"), Rules{0, 3, 25}));
  REQUIRE_FALSE(both.ok());
  CHECK(std::string(both.status().message()).rfind("invalid rules: ", 0) == 0);
}

TEST_CASE("advisor: the objective input at its bounds") {
  CheckAccepted(Turn("reach:1000"));
  CheckRefused(Turn("reach:1001"), "objective", "\"1001\" is not a whole number in 0..1000");
  CheckAccepted(Turn("capped:0"));
  CheckRefused(Turn("capped:-1"), "objective", "\"-1\" is not a whole number");
  CheckRefused(Turn("reach:"), "objective", "missing its number");
  CheckRefused(Turn(""), "objective", "unknown objective \"\"");
  CheckRefused(Turn("Win"), "objective", "unknown objective \"Win\"");
  const Query query = Parsed(Turn("capped:8"));
  CHECK_FALSE(query.goal.is_win());
  CHECK(query.goal.name() == "capped:8");
  CHECK(query.precision == Precision::kDouble);
  QueryInput exact = Turn("reach:10");
  exact.exact = true;
  CHECK(Parsed(exact).precision == Precision::kExact);
}

TEST_CASE("advisor: the aside input at its bounds") {
  CheckAccepted(Turn("ev", ""));
  CheckAccepted(Turn("ev", "-"));
  CHECK(Parsed(Turn("ev", "-")).aside.empty());
  CHECK(Parsed(Turn("ev", "2t 4h")).aside == *ParseDice("2T 4H"));
  CheckAccepted(Turn("ev", "13H"));
  CheckRefused(Turn("ev", "14H"), "aside", "14 dice but the rules have 13");
  CheckAccepted(WithRules(Turn("ev", "6H"), Rules{6, 3, 25}));
  CheckRefused(WithRules(Turn("ev", "7H"), Rules{6, 3, 25}), "aside", "the rules have 6");
  CheckRefused(Turn("ev", "2X"), "aside", "unknown face letter 'X'");
  CheckRefused(Turn("ev", "3T"), "aside", "set-aside 3T is impossible");
  CheckRefused(Win("1,2", std::nullopt, "2Q"), "aside", "unknown face letter 'Q'");
}

TEST_CASE("advisor: the game's inputs belong to the win goal, exact to turn objectives") {
  QueryInput scores = Turn("ev");
  scores.scores = "1,2";
  CheckRefused(scores, "scores", "goes with the win objective");
  QueryInput seat = Turn("reach:10");
  seat.seat = 0;
  CheckRefused(seat, "seat", "the objective is reach:10");
  QueryInput players = Turn("ev");
  players.players = 2;
  CheckRefused(players, "players", "goes with the win objective");
  QueryInput tables = Turn("ev");
  tables.tables = kData;
  CheckRefused(tables, "tables", "goes with the win objective");
  QueryInput exact = Win("1,2");
  exact.exact = true;
  CheckRefused(exact, "exact", "win tables hold certified doubles");
  CheckRefused(Turn("win"), "scores", "the win objective needs scores, every seat's total");
  // A Query built by hand is held to the same: no exact win values.
  Query win = *ParseQuery(Win("1,2"));
  win.precision = Precision::kExact;
  Advisor advisor;
  CheckRefusal(advisor.Evaluate(win).status(), "exact: ", "win tables hold certified doubles",
               "exact");
  CheckRefusal(advisor.Best(win, Dice(2, 3, 4, 3, 1)).status(),
               "exact: ", "win tables hold certified doubles", "exact");
}

TEST_CASE("advisor: scores without an objective play to win, without scores, ev") {
  QueryInput scores;
  scores.scores = "18,22";
  CHECK(QueryObjective(scores) == "win");
  const Query win = Parsed(scores);
  CHECK(win.goal.is_win());
  REQUIRE(win.context.has_value());
  CHECK(win.context->scores == std::vector<int>{18, 22});
  CHECK(win.players == 2);
  QueryInput none;
  CHECK(QueryObjective(none) == "ev");
  CHECK(Parsed(none).goal.name() == "ev");
  QueryInput seat;
  seat.seat = 1;
  CheckRefused(seat, "seat", "goes with the win objective");
  // An objective given is kept: ev with scores is still refused.
  QueryInput ev = scores;
  ev.objective = "ev";
  CHECK(QueryObjective(ev) == "ev");
  CheckRefused(ev, "scores", "goes with the win objective");
}

TEST_CASE("advisor: the win goal's context at its bounds") {
  // Players: 2..6, counted from the totals, or given and matching.
  CheckRefused(Win("5"), "scores", "a game has 2 to 6 players, not 1");
  CheckAccepted(Win("5,6"));
  CheckAccepted(Win("1,2,3,4,5,6"));
  CheckRefused(Win("1,2,3,4,5,6,7"), "scores", "a game has 2 to 6 players, not 7");
  QueryInput players = Win("1,2");
  players.players = 2;
  CheckAccepted(players);
  players.players = 3;
  CheckRefused(players, "players", "3 does not match the 2 totals");
  QueryInput one = Win("5");
  one.players = 1;
  CheckRefused(one, "players", "a game has 2 to 6 players, not 1");
  // The seat: 0..players-1, default 0.
  CHECK(Parsed(Win("1,2")).context->seat == 0);
  CheckAccepted(Win("1,2", 1));
  CheckRefused(Win("1,2", 2), "seat", "seat 2 is out of range for 2 players (0..1)");
  CheckRefused(Win("1,2", -1), "seat", "seat -1 is out of range");
  CheckAccepted(Win("1,2,3", 2));
  CheckRefused(Win("1,2,3", 3), "seat", "seat 3 is out of range for 3 players (0..2)");
  // The totals: whole numbers, reachable, the game not over for the seat to move.
  CheckRefused(Win("1,x"), "scores", "field 2 (\"x\") is not a non-negative whole number");
  CheckRefused(Win("-1,3"), "scores", "field 1 (\"-1\")");
  CheckAccepted(Win("24,0"));
  CheckRefused(Win("25,0"), "scores", "the game is already over");
  CheckRefused(Win("0,25"), "scores", "the game is already over");
  CheckAccepted(Win("25,0", 1));  // the final round: seat 1 plays last
  CheckAccepted(Win("40,0", 1));  // 24 + 16, the highest total
  CheckRefused(Win("41,0", 1), "scores", "unreachable");
  // What the query keeps of the game.
  QueryInput full = Win("10,12,8", 1);
  full.tables = kData;
  const Query query = Parsed(full);
  CHECK(query.goal.is_win());
  CHECK(query.players == 3);
  CHECK(query.context->scores == std::vector<int>{10, 12, 8});
  CHECK(query.context->seat == 1);
  CHECK(query.tables == kData);
}

TEST_CASE("advisor: the roll input at its bounds") {
  const Query seven = Parsed(Turn("ev", "2T 4H"));  // 7 dice left
  CHECK(ParseRoll(seven, "1T 2R 3C 1K").ok());
  CHECK(*ParseRoll(seven, "1t2r3c1k") == *ParseDice("1T 2R 3C 1K"));
  for (const auto& row : std::vector<std::pair<std::string, std::string>>{
           {"2R 3C 1K", "shows 6 dice but 7 are left to roll"},
           {"1T 2R 3C 2K", "shows 8 dice but 7 are left to roll"},
           {"X", "unknown face letter 'X'"},
           {"", "shows 0 dice"}}) {
    const auto& roll = row.first;  // named: clang 14 captures no binding
    const auto& text = row.second;
    CAPTURE(roll);
    const absl::StatusOr<Dice> refused = ParseRoll(seven, roll);
    REQUIRE_FALSE(refused.ok());
    CheckRefusal(refused.status(), "roll: ", text, "roll");
  }
  const Query none = Parsed(Turn("ev", "6R 7H"));  // no dice left
  const absl::StatusOr<Dice> after = ParseRoll(none, "R");
  REQUIRE_FALSE(after.ok());
  CHECK(InputName(after.status()) == "roll");
}

TEST_CASE("advisor: InputName is empty for every other status") {
  CHECK_FALSE(InputName(absl::OkStatus()).has_value());
  CHECK_FALSE(InputName(absl::InvalidArgumentError("aside: not from the advisor")).has_value());
  Advisor advisor;
  QueryInput missing = Win("1,2");
  missing.tables = "/nonexistent/martiandice.mdt";
  const absl::StatusOr<EvalAnswer> answer = advisor.Evaluate(Parsed(missing));
  REQUIRE_FALSE(answer.ok());
  CHECK(answer.status().code() == absl::StatusCode::kNotFound);
  CHECK_FALSE(InputName(answer.status()).has_value());
}

TEST_CASE("advisor: answers are the library's own queries") {
  Advisor advisor;
  SUBCASE("turn objectives, double and exact") {
    for (const bool exact : {false, true}) {
      CAPTURE(exact);
      QueryInput input = Turn("reach:10", "2T 4H");
      input.exact = exact;
      const Query query = Parsed(input);
      const absl::StatusOr<TurnSolution> solution = TurnSolution::Solve(
          Rules{}, Objective::ReachAtLeast(10), exact ? Precision::kExact : Precision::kDouble);
      REQUIRE(solution.ok());
      const absl::StatusOr<EvalAnswer> eval = advisor.Evaluate(query);
      REQUIRE(eval.ok());
      CHECK(Same(eval->eval, *EvaluatePosition(*solution, query.aside)));
      CHECK(eval->win_probabilities.empty());
      CHECK(eval->table == nullptr);
      const Dice roll = *ParseRoll(query, "1T 2R 3C 1K");
      const absl::StatusOr<BestAnswer> best = advisor.Best(query, roll);
      REQUIRE(best.ok());
      CHECK(Same(best->advice, *AdviseRoll(*solution, query.aside, roll)));
      CHECK(best->table == nullptr);
    }
  }
  SUBCASE("the win goal, from the table found") {
    const absl::StatusOr<GameTable> table = GameTable::Open(kTable2);
    REQUIRE(table.ok());
    QueryInput input = Win("18,22", 0, "3T 2R 4H 1K");
    input.tables = kData;
    const Query query = Parsed(input);
    const absl::StatusOr<EvalAnswer> eval = advisor.Evaluate(query);
    REQUIRE(eval.ok());
    const absl::StatusOr<WinEval> direct = EvaluateWin(*table, *query.context, query.aside);
    REQUIRE(direct.ok());
    CHECK(Same(eval->eval, direct->position));
    CHECK(Same(eval->win_probabilities, direct->win_probabilities));
    REQUIRE(eval->table != nullptr);
    CHECK(eval->table->path == kTable2);
    const Dice roll = *ParseRoll(query, "1R 1H 1C");
    const absl::StatusOr<BestAnswer> best = advisor.Best(query, roll);
    REQUIRE(best.ok());
    const absl::StatusOr<WinAdvice> advice = AdviseWin(*table, *query.context, query.aside, roll);
    REQUIRE(advice.ok());
    CHECK(Same(best->advice, advice->advice));
    CHECK(best->table == eval->table);  // one load, from the cache
  }
  SUBCASE("the advisor's own table source, when the query names none") {
    Advisor::Options options;
    options.tables = kTable2;
    Advisor own(options);
    const absl::StatusOr<EvalAnswer> eval = own.Evaluate(Parsed(Win("0,0")));
    REQUIRE(eval.ok());
    CHECK(eval->table->path == kTable2);
    // A table of other rules than the query's is refused, naming the file.
    const absl::StatusOr<EvalAnswer> other =
        own.Evaluate(Parsed(WithRules(Win("0,0"), Rules{6, 3, 25})));
    REQUIRE_FALSE(other.ok());
    CHECK(std::string(other.status().message()).rfind(kTable2 + ": ", 0) == 0);
  }
}

TEST_CASE("advisor: which games a table can cover, and the tables one machine cannot make") {
  // The shipped tables' sizes: the header, 8 bytes per seat and context, 4 per block.
  CHECK(TableBytes(Rules{}, 2) == 26536);
  CHECK(TableBytes(Rules{}, 2) == std::filesystem::file_size(kTable2));
  CHECK(TableBytes(Rules{}, 3) ==
        std::filesystem::file_size(kData + "/martiandice-p3-d13-b3-t25.mdt"));
  // One machine makes tables up to 64 GiB; larger ones take processes sharing them.
  CHECK(TableSolveProcesses(Rules{}, 4) == 1);
  CHECK(TableSolveProcesses(Rules{}, 5) == 1);
  CHECK(TableBytes(Rules{13, 3, 17}, 6) <= std::uint64_t{64} << 30);
  CHECK(TableSolveProcesses(Rules{13, 3, 17}, 6) == 1);
  CHECK(TableBytes(Rules{13, 3, 18}, 6) > std::uint64_t{64} << 30);
  CHECK(TableSolveProcesses(Rules{13, 3, 18}, 6) == 2);  // 76.0 GiB
  CHECK(TableSolveProcesses(Rules{}, 6) == 5);           // 314.8 GiB
  CHECK(TableSolveProcesses(Rules{0, 3, 25}, 6) == 1);   // invalid rules: other checks refuse them
  CHECK(TableSolveCommand(Rules{}, 6) ==
        "mpirun -np 5 martiandice solve --players 6 --out martiandice-p6-d13-b3-t25.mdt");
  // The path is one shell word, whatever it holds.
  CHECK(TableSolveCommand(Rules{13, 3, 30}, 2, "my tables/it's.mdt") ==
        "martiandice solve --players 2 --target 30 --out 'my tables/it'\\''s.mdt'");
  CHECK(ShellWord("data/martiandice-p2-d13-b3-t25.mdt") == "data/martiandice-p2-d13-b3-t25.mdt");
  CHECK(ShellWord("-p2.mdt") == "./-p2.mdt");
  CHECK(ShellWord("a;b $c") == "'a;b $c'");
  CHECK(ShellWord("") == "''");
  CHECK(ShellWord(std::string("a\0b", 3)) == std::string("'a\0b'", 5));

  // Not found: the advisor looks for it, and names the cluster's command.
  Advisor advisor;
  const absl::Status six = advisor.Table(Rules{}, 6).status();
  CHECK(six.code() == absl::StatusCode::kNotFound);
  const std::string message(six.message());
  INFO(message);
  CHECK(message.rfind("no policy table martiandice-p6-d13-b3-t25.mdt for 6 players", 0) == 0);
  CHECK(message.find("Generate it with `mpirun -np 5 martiandice solve --players 6 --out "
                     "martiandice-p6-d13-b3-t25.mdt` on a cluster (the table takes 314.8 GiB, "
                     "more than the 64 GiB one machine makes: 5 processes at least") !=
        std::string::npos);
  QueryInput input = Win("3,0,0,0,0,0", 1);
  const absl::Status eval = advisor.Evaluate(Parsed(input)).status();
  CHECK(eval.code() == absl::StatusCode::kNotFound);
  CHECK(std::string(eval.message()) == message);
  const absl::StatusOr<Dice> roll = ParseRoll(Parsed(input), "13R");
  REQUIRE(roll.ok());
  CHECK(std::string(advisor.Best(Parsed(input), *roll).status().message()) == message);

  // Coverage: the table, or why there is none.
  const absl::StatusOr<TableCoverage> two = advisor.Coverage(Rules{}, 2, kData);
  REQUIRE(two.ok());
  REQUIRE(two->table != nullptr);
  CHECK(two->table->table.players() == 2);
  const absl::StatusOr<TableCoverage> none = advisor.Coverage(Rules{}, 6);
  REQUIRE(none.ok());
  CHECK(none->table == nullptr);
  CHECK(none->reason == message);
  const absl::StatusOr<TableCoverage> four = advisor.Coverage(Rules{}, 4, kData);
  REQUIRE(four.ok());
  CHECK(four->table == nullptr);
  CHECK(four->reason.find("martiandice solve --players 4") != std::string::npos);
  // A table that is there but unusable is an error, not a fallback.
  CHECK_FALSE(advisor.Coverage(Rules{}, 3, kTable2).ok());
}

// A front end whose users give tables their own way (the JavaScript package) words the miss.
TEST_CASE("advisor: Options::missing_table words a table not found, and only that") {
  Advisor::Options options;
  options.tables = kData;
  options.missing_table = [](const Rules& rules, int players) {
    return absl::StrCat("none for ", players, " players to ", rules.target);
  };
  Advisor advisor(options);
  const absl::StatusOr<TableCoverage> four = advisor.Coverage(Rules{13, 3, 20}, 4);
  REQUIRE(four.ok());
  CHECK(four->table == nullptr);
  CHECK(four->reason == "none for 4 players to 20");
  const absl::Status eval = advisor.Evaluate(Parsed(Win("3,0,0,0", 1))).status();
  CHECK(eval.code() == absl::StatusCode::kNotFound);
  CHECK(std::string(eval.message()) == "none for 4 players to 25");
  // A table found answers; one found but unusable keeps its own error.
  const absl::StatusOr<TableCoverage> two = advisor.Coverage(Rules{}, 2);
  REQUIRE(two.ok());
  CHECK(two->table != nullptr);
  const absl::Status damaged = advisor.Coverage(Rules{}, 3, kTable2).status();
  CHECK_FALSE(damaged.ok());
  CHECK(std::string(damaged.message()).find("none for") == std::string::npos);
}

// A front end that can make tables (the command line solves small games).
TEST_CASE("advisor: Options::make_table makes what the default search misses, and only that") {
  test_util::TempDir dir;
  int calls = 0;
  Advisor::Options options;
  options.make_table = [&](const Rules& rules, int players,
                           const absl::Status& searched) -> absl::StatusOr<std::string> {
    ++calls;
    CHECK(absl::IsNotFound(searched));
    CHECK(std::string(searched.message()).find("no policy table") == 0);
    if (players != 2) return absl::NotFoundError(absl::StrCat("not making ", players, " players"));
    solver::GameSolveOptions solve;
    solve.rules = rules;
    solve.players = players;
    solver::GameSolveReport report;
    const absl::StatusOr<std::string> bytes = solver::SolveGameTable(solve, &report);
    REQUIRE(bytes.ok());
    const std::string path = dir.File(TableFileName(rules, players));
    std::ofstream(path, std::ios::binary) << *bytes;
    return path;
  };
  Advisor advisor(options);
  const Rules twenty{13, 3, 20};
  const absl::StatusOr<TableCoverage> made = advisor.Coverage(twenty, 2);
  REQUIRE(made.ok());
  REQUIRE(made->table != nullptr);
  CHECK(made->table->path == dir.File(TableFileName(twenty, 2)));
  CHECK(calls == 1);
  // Kept as any table found: not made again.
  CHECK(advisor.Coverage(twenty, 2)->table == made->table);
  CHECK(calls == 1);
  // Declined: the hook's reason, and the fallback; asked again at the next miss.
  const absl::StatusOr<TableCoverage> three = advisor.Coverage(twenty, 3);
  REQUIRE(three.ok());
  CHECK(three->table == nullptr);
  CHECK(three->reason == "not making 3 players");
  CHECK(advisor.Coverage(twenty, 3)->reason == "not making 3 players");
  CHECK(calls == 3);
  // A table the search finds, or a source named, never calls it.
  CHECK(advisor.Coverage(Rules{}, 2)->table != nullptr);
  const absl::StatusOr<TableCoverage> named = advisor.Coverage(Rules{13, 3, 15}, 2, dir.str());
  REQUIRE(named.ok());
  CHECK(named->table == nullptr);
  CHECK(calls == 3);
  // Another error is the call's.
  Advisor::Options refusing;
  refusing.make_table = [](const Rules&, int, const absl::Status&) -> absl::StatusOr<std::string> {
    return absl::PermissionDeniedError("no writing here");
  };
  Advisor denied(refusing);
  CHECK(denied.Coverage(twenty, 2).status().code() == absl::StatusCode::kPermissionDenied);
}

TEST_CASE("advisor: a table over 64 GiB, as a cluster makes it, is found and answers") {
  // 6 players to 18: 76.0 GiB, written sparse (only the blocks the queries
  // read hold records; the rest are holes of the file, no disk space).
  const Rules rules{13, 3, 18};
  const int players = 6;
  REQUIRE(TableBytes(rules, players) > kMaxTableBytes);
  // Seat 0's first turn decides: its best play is reach:10's.
  const table_builder::TableSpec spec = table_builder::FirstTurnReachSpec(rules, players, 10);
  const std::vector<std::int64_t> blocks = table_builder::FirstTurnBlocks(rules, players);
  test_util::TempDir dir;
  const std::string path = dir.File(TableFileName(rules, players));
  REQUIRE(table_builder::WriteSparseTable(path, spec, blocks));
  REQUIRE(std::filesystem::file_size(path) == TableBytes(rules, players));

  Advisor advisor;
  const absl::StatusOr<TableCoverage> coverage = advisor.Coverage(rules, players, dir.str());
  REQUIRE_MESSAGE(coverage.ok(), coverage.status());
  REQUIRE(coverage->table != nullptr);
  CHECK(coverage->table->path == path);

  QueryInput win = WithRules(Win("0,0,0,0,0,0", 0), rules);
  win.tables = dir.str();
  QueryInput reach = WithRules(Turn("reach:10"), rules);
  // Mid-turn, so that the value is solved from the records the turn leads to.
  win.aside = reach.aside = "2T 3R 4H";
  const absl::StatusOr<EvalAnswer> eval = advisor.Evaluate(Parsed(win));
  REQUIRE_MESSAGE(eval.ok(), eval.status());
  CHECK(eval->table->path == path);
  CHECK(eval->win_probabilities == std::vector<double>{0.5, 0.25, 0.125, 0.0625, 0.03125, 0.03125});
  const absl::StatusOr<EvalAnswer> turn = advisor.Evaluate(Parsed(reach));
  REQUIRE(turn.ok());
  CHECK(eval->eval.value.approx == doctest::Approx(turn->eval.value.approx).epsilon(1e-12));
  CHECK(eval->eval.value.approx > 0.05);  // not vacuous: the records decided it

  win.aside = reach.aside = "";
  const Dice roll = *ParseDice("2T 3R 4H 3C 1K");
  const absl::StatusOr<BestAnswer> best = advisor.Best(Parsed(win), roll);
  REQUIRE_MESSAGE(best.ok(), best.status());
  const absl::StatusOr<BestAnswer> turn_best = advisor.Best(Parsed(reach), roll);
  REQUIRE(turn_best.ok());
  REQUIRE(best->advice.options.size() == turn_best->advice.options.size());
  for (size_t i = 0; i < best->advice.options.size(); ++i) {
    const TakeOption& a = best->advice.options[i];
    const TakeOption& b = turn_best->advice.options[i];
    CHECK(a.take == b.take);
    CHECK(a.value.approx == doctest::Approx(b.value.approx).epsilon(1e-12));
  }

  // A context whose turn leads to blocks never written: read, and refused.
  QueryInput elsewhere = WithRules(Win("5,0,0,0,0,0", 0), rules);
  elsewhere.tables = dir.str();
  const absl::Status refused = advisor.Evaluate(Parsed(elsewhere)).status();
  CHECK_FALSE(refused.ok());
  CHECK(std::string(refused.message()).find("the win probabilities sum to 0, not 1") !=
        std::string::npos);
}

namespace {

GameState Game(int players, const GameContext& context) {
  absl::StatusOr<GameState> state = GameState::AtTurnStart(Rules{}, players, context);
  REQUIRE_MESSAGE(state.ok(), state.status());
  return *std::move(state);
}

void Play(GameState& state, const Move& move) {
  const absl::StatusOr<MoveResult> result = state.Apply(move);
  REQUIRE_MESSAGE(result.ok(), result.status());
}

}  // namespace

TEST_CASE("advisor: a game's advice is the win query of its decision") {
  Advisor advisor;
  // Behind 18 to 22 (the README's example): the cow, then roll on.
  GameState state = Game(2, GameContext{{18, 22}, 0});
  const absl::StatusOr<GameAdvice> start = advisor.Advise(state, kData);
  REQUIRE_MESSAGE(start.ok(), start.status());
  CHECK(start->phase == Phase::kRoll);
  CHECK(start->goal.is_win());
  CHECK_FALSE(start->fallback);
  REQUIRE(start->position.has_value());
  REQUIRE(start->win_probabilities.size() == 2);
  CHECK(start->position->value.approx == start->win_probabilities[0]);
  CHECK_FALSE(start->position->stop.has_value());
  // Rolling is the only move: its chance of a 0-point turn from the start
  // (summed backwards, the law forwards: equal within rounding).
  const absl::StatusOr<GameTable> table2 = GameTable::Open(kTable2);
  REQUIRE(table2.ok());
  const absl::StatusOr<ScoreDistribution> start_law =
      TurnScoreDistribution(*table2, state.context(), Dice());
  REQUIRE(start_law.ok());
  REQUIRE(start->zero_chance.has_value());
  CHECK(std::abs(*start->zero_chance - start_law->probability[0]) < 1e-14);
  for (const Move& move :
       {Move::Roll(*ParseDice("2T 3R 4H 3C 1K")), Move::Take(Face::kHuman), Move::RollOn(),
        Move::Roll(*ParseDice("1T 2R 3C 1K")), Move::Take(Face::kRay), Move::RollOn(),
        Move::Roll(*ParseDice("2H 1C 1K")), Move::Take(Face::kChicken), Move::RollOn(),
        Move::Roll(*ParseDice("1R 1H 1C"))}) {
    Play(state, move);
  }
  const Query query = DecisionQuery(state, Goal::Win());
  CHECK(query.aside == *ParseDice("3T 2R 4H 1K"));
  CHECK(query.context->scores == std::vector<int>{18, 22});
  CHECK(query.players == 2);
  const absl::StatusOr<GameAdvice> takes = advisor.Advise(state, kData);
  REQUIRE(takes.ok());
  REQUIRE(takes->takes.has_value());
  Query with_table = query;
  with_table.tables = kData;
  const absl::StatusOr<BestAnswer> best = advisor.Best(with_table, *ParseDice("1R 1H 1C"));
  REQUIRE(best.ok());
  CHECK(Same(*takes->takes, best->advice));
  CHECK(takes->takes->options[*takes->takes->best].take == Face::kCow);
  CHECK(takes->table->path == best->table->path);

  // The README's final round: at 3T 3R 4H 1K, stopping wins; rolling on
  // loses everything 7 times in 36 (distribution_test's hand count).
  GameState final_round = Game(2, GameContext{{25, 21}, 1});
  for (const Move& move :
       {Move::Roll(*ParseDice("2T 3R 4H 3C 1K")), Move::Take(Face::kHuman), Move::RollOn(),
        Move::Roll(*ParseDice("1T 2R 3C 1K")), Move::Take(Face::kRay), Move::RollOn(),
        Move::Roll(*ParseDice("2H 1C 1K")), Move::Take(Face::kChicken), Move::RollOn(),
        Move::Roll(*ParseDice("1R 1H 1C"))}) {
    Play(final_round, move);
  }
  // At the take, each option's chance that rolling on scores 0: the ray
  // leads to 3T 3R 4H 1K, where it is the hand count's 7/36.
  const absl::StatusOr<GameAdvice> take = advisor.Advise(final_round, kData);
  REQUIRE(take.ok());
  REQUIRE(take->takes.has_value());
  REQUIRE(take->take_zero_chances.size() == take->takes->options.size());
  for (std::size_t i = 0; i < take->takes->options.size(); ++i) {
    const TakeOption& option = take->takes->options[i];
    REQUIRE(take->take_zero_chances[i].has_value());  // two dice left after any take
    CHECK(*take->take_zero_chances[i] > 0);
    CHECK(*take->take_zero_chances[i] < 1);
    if (option.take == Face::kRay) CHECK(*take->take_zero_chances[i] == doctest::Approx(7.0 / 36));
  }
  Play(final_round, Move::Take(Face::kRay));
  const absl::StatusOr<GameAdvice> stop = advisor.Advise(final_round, kData);
  REQUIRE(stop.ok());
  CHECK(stop->phase == Phase::kStopOrRoll);
  REQUIRE(stop->position.has_value());
  CHECK(stop->position->action == Then::kStop);
  CHECK(stop->position->stop->approx == 1.0);
  REQUIRE(stop->zero_chance.has_value());
  CHECK(*stop->zero_chance == doctest::Approx(7.0 / 36));
  CHECK(stop->position->roll->approx == doctest::Approx(29.0 / 36));

  Play(final_round, Move::Stop());
  REQUIRE(final_round.over());
  CHECK(advisor.Advise(final_round, kData).status().code() == absl::StatusCode::kInvalidArgument);
}

// Every zero chance of `advice` (at `state`) is the forward law's
// probability[0] from its set-aside (TurnScoreDistribution).
void CheckZeroChances(const GameTable& table, const GameState& state, const GameAdvice& advice) {
  const auto law_zero = [&](const Dice& aside) {
    absl::StatusOr<ScoreDistribution> law = TurnScoreDistribution(table, state.context(), aside);
    REQUIRE_MESSAGE(law.ok(), law.status());
    return law->probability[0];
  };
  if (advice.takes) {
    REQUIRE(advice.take_zero_chances.size() == advice.takes->options.size());
    for (std::size_t i = 0; i < advice.takes->options.size(); ++i) {
      const TakeOption& option = advice.takes->options[i];
      REQUIRE(advice.take_zero_chances[i].has_value() == option.roll.has_value());
      if (option.roll) {
        CHECK(std::abs(*advice.take_zero_chances[i] - law_zero(option.aside_after)) < 1e-14);
      }
    }
  } else {
    REQUIRE(advice.zero_chance.has_value());
    CHECK(std::abs(*advice.zero_chance - law_zero(state.aside_before_roll())) < 1e-14);
  }
}

TEST_CASE("advisor: a game's zero chances, kept per turn, are the forward law's") {
  const absl::StatusOr<GameTable> table = GameTable::Open(kTable2);
  REQUIRE(table.ok());
  Advisor advisor;
  // Two games' turns at once, each decision advised twice (the second from
  // the kept turn), and a turn left and come back to.
  GameState a = Game(2, GameContext{{18, 22}, 0});
  GameState b = Game(2, GameContext{{24, 9}, 1});
  const Move moves[] = {
      Move::Roll(*ParseDice("2T 3R 4H 3C 1K")), Move::Take(Face::kHuman),  Move::RollOn(),
      Move::Roll(*ParseDice("1T 2R 3C 1K")),    Move::Take(Face::kRay),    Move::RollOn(),
      Move::Roll(*ParseDice("2H 1C 1K")),       Move::Take(Face::kChicken)};
  for (const Move& move : moves) {
    for (GameState* state : {&a, &b, &a}) {
      const absl::StatusOr<GameAdvice> advice = advisor.Advise(*state, kData);
      REQUIRE_MESSAGE(advice.ok(), advice.status());
      CheckZeroChances(*table, *state, *advice);
    }
    Play(a, move);
    Play(b, move);
  }
  // Another advisor, asked first in the middle of the turn: the same chances.
  Advisor fresh;
  const absl::StatusOr<GameAdvice> late = fresh.Advise(a, kData);
  const absl::StatusOr<GameAdvice> kept = advisor.Advise(a, kData);
  REQUIRE(late.ok());
  REQUIRE(kept.ok());
  CheckZeroChances(*table, a, *late);
  CHECK(late->zero_chance == kept->zero_chance);
}

TEST_CASE("advisor: the fallback's zero chances, kept per solved turn, are its forward law's") {
  Advisor advisor;
  // 4 players: no shipped table, so the advice plays capped at the points
  // still needed; two games whose movers need as many points share a turn.
  GameState a = Game(4, GameContext{{18, 22, 3, 9}, 0});
  GameState b = Game(4, GameContext{{3, 9, 18, 22}, 2});
  const Move moves[] = {Move::Roll(*ParseDice("2T 3R 4H 3C 1K")), Move::Take(Face::kHuman),
                        Move::RollOn(), Move::Roll(*ParseDice("1T 2R 3C 1K")),
                        Move::Take(Face::kRay)};
  for (const Move& move : moves) {
    for (GameState* state : {&a, &b, &a}) {
      const absl::StatusOr<GameAdvice> advice = advisor.Advise(*state, kData);
      REQUIRE_MESSAGE(advice.ok(), advice.status());
      REQUIRE(advice->fallback);
      const absl::StatusOr<TurnSolution> turn =
          TurnSolution::Solve(Rules{}, advice->goal.objective(), Precision::kDouble);
      REQUIRE(turn.ok());
      const auto law_zero = [&](const Dice& aside) {
        absl::StatusOr<ScoreDistribution> law = TurnScoreDistribution(*turn, aside);
        REQUIRE_MESSAGE(law.ok(), law.status());
        return law->probability[0];
      };
      if (advice->takes) {
        for (std::size_t i = 0; i < advice->takes->options.size(); ++i) {
          const TakeOption& option = advice->takes->options[i];
          REQUIRE(advice->take_zero_chances[i].has_value() == option.roll.has_value());
          if (option.roll) {
            CHECK(std::abs(*advice->take_zero_chances[i] - law_zero(option.aside_after)) < 1e-14);
          }
        }
      } else {
        REQUIRE(advice->zero_chance.has_value());
        CHECK(std::abs(*advice->zero_chance - law_zero(state->aside_before_roll())) < 1e-14);
      }
    }
    Play(a, move);
    Play(b, move);
  }
}

TEST_CASE("advisor: once the mover chooses to roll on, rolling is the only move") {
  Advisor advisor;
  // 2R 11K, the chickens taken: stopping (11 points at 0-0) beats rolling
  // the last two dice, but the mover has said "roll".
  GameState state = Game(2, GameContext{{0, 0}, 0});
  Play(state, Move::Roll(*ParseDice("2R 11K")));
  Play(state, Move::Take(Face::kChicken));
  const absl::StatusOr<GameAdvice> choice = advisor.Advise(state, kData);
  REQUIRE(choice.ok());
  CHECK(choice->position->action == Then::kStop);
  Play(state, Move::RollOn());
  REQUIRE(state.phase() == Phase::kRoll);
  for (const std::optional<std::string>& tables :
       {std::optional<std::string>(kData), std::optional<std::string>("/nonexistent")}) {
    CAPTURE(tables.value());
    const absl::StatusOr<GameAdvice> advice = advisor.Advise(state, tables);
    REQUIRE_MESSAGE(advice.ok(), advice.status());
    CHECK(advice->fallback == (tables != kData));
    REQUIRE(advice->position.has_value());
    CHECK_FALSE(advice->position->stop.has_value());
    CHECK(advice->position->action == Then::kRoll);
    REQUIRE(advice->position->roll.has_value());
    CHECK(advice->position->value.approx == advice->position->roll->approx);
    // The same chance as at the stop-or-roll decision before it.
    const absl::StatusOr<GameAdvice> before = advisor.Advise(
        [&] {
          GameState undone = Game(2, GameContext{{0, 0}, 0});
          Play(undone, Move::Roll(*ParseDice("2R 11K")));
          Play(undone, Move::Take(Face::kChicken));
          return undone;
        }(),
        tables);
    REQUIRE(before.ok());
    REQUIRE(advice->zero_chance.has_value());
    CHECK(*advice->zero_chance == *before->zero_chance);
    CHECK(advice->position->roll->approx == before->position->roll->approx);
  }
}

TEST_CASE("advisor: solved turns are cached by utility, not by name") {
  Advisor advisor;
  const TurnSolution ev = TurnOf(advisor, Objective::ExpectedScore());
  // A custom utility named like a built-in one, and two customs sharing a
  // name: each gets its own solve.
  std::vector<Rational> reach5(6, Rational(0));
  reach5[5] = 1;
  const absl::StatusOr<Objective> named_ev = Objective::Custom("ev", reach5);
  REQUIRE(named_ev.ok());
  const absl::StatusOr<TurnSolution> direct =
      TurnSolution::Solve(Rules{}, *named_ev, Precision::kDouble);
  REQUIRE(direct.ok());
  const TurnSolution cached = TurnOf(advisor, *named_ev);
  CHECK(cached.StartValue() == direct->StartValue());
  CHECK(cached.StartValue() != ev.StartValue());
  const TurnSolution reach = TurnOf(advisor, Objective::ReachAtLeast(5));
  CHECK(cached.StartValue() == reach.StartValue());
  std::vector<Rational> half = reach5;
  half[5] = Rational(1, 2);
  const absl::StatusOr<Objective> named_ev_half = Objective::Custom("ev", half);
  REQUIRE(named_ev_half.ok());
  const TurnSolution other = TurnOf(advisor, *named_ev_half);
  CHECK(other.StartValue() == doctest::Approx(direct->StartValue() / 2));
  // The same name and utility: the cache's entry.
  CHECK(Identity(TurnOf(advisor, *Objective::Custom("ev", reach5))) == Identity(cached));
  CHECK(named_ev->key() != Objective::ExpectedScore().key());
  CHECK(named_ev->key() != named_ev_half->key());
  CHECK(Objective::ReachAtLeast(5).key() == "reach:5");
}

TEST_CASE("advisor: a query built in code names the input at fault") {
  Advisor advisor;
  // The win goal without a context, and with a game already over.
  Query query = Parsed(Win("3,4"));
  query.tables = kData;
  query.context.reset();
  CheckRefusal(advisor.Evaluate(query).status(), "scores: ", "needs a context", "scores");
  CheckRefusal(advisor.Best(query, *ParseDice("13T")).status(), "scores: ", "needs a context",
               "scores");
  // Each part of the context named as ParseQuery names it.
  query.context = GameContext{{3, 4}, 5};
  CheckRefusal(advisor.Evaluate(query).status(), "seat: ", "seat 5 is out of range", "seat");
  query.context = GameContext{{3, 4, 5, 6, 7, 8, 9}, 0};
  query.players = 7;
  CheckRefusal(advisor.Evaluate(query).status(), "players: ", "2 to 6 players, not 7", "players");
  query.players = 2;
  CheckRefusal(advisor.Evaluate(query).status(), "scores: ", "7 scores are given", "scores");
  query.context = GameContext{{30, 0}, 0};
  CheckRefusal(advisor.Evaluate(query).status(), "scores: ", "already over", "scores");
  CheckRefusal(advisor.Best(query, *ParseDice("13T")).status(), "scores: ", "already over",
               "scores");
  // An impossible set-aside is the aside's fault, for Best too.
  query.context = GameContext{{3, 4}, 0};
  query.aside = *ParseDice("3T");
  CheckRefusal(advisor.Evaluate(query).status(), "aside: ", "impossible", "aside");
  CheckRefusal(advisor.Best(query, *ParseDice("10H")).status(), "aside: ", "impossible", "aside");
  Query turn = Parsed(Turn("ev"));
  turn.aside = *ParseDice("3T");
  CheckRefusal(advisor.Best(turn, *ParseDice("10H")).status(), "aside: ", "impossible", "aside");
  turn.aside = Dice();
  CheckRefusal(advisor.Best(turn, *ParseDice("10H")).status(), "roll: ", "shows 10 dice", "roll");
}

TEST_CASE("advisor: where no table covers the game, the advice plays the fallback, saying so") {
  Advisor advisor;
  // 6 players: seat 2 at 10, nobody at the target: capped:15.
  GameState state = Game(6, GameContext{{12, 3, 10, 0, 7, 1}, 2});
  const absl::StatusOr<GameAdvice> start = advisor.Advise(state);
  REQUIRE_MESSAGE(start.ok(), start.status());
  CHECK(start->fallback);
  CHECK(start->goal.name() == "capped:15");
  CHECK(start->fallback_reason.find("no policy table martiandice-p6-d13-b3-t25.mdt") !=
        std::string::npos);
  CHECK(start->fallback_reason.find("`mpirun -np 5 martiandice solve --players 6") !=
        std::string::npos);
  CHECK(start->win_probabilities.empty());
  CHECK(start->table == nullptr);
  Play(state, Move::Roll(*ParseDice("2T 3R 4H 3C 1K")));
  const absl::StatusOr<GameAdvice> takes = advisor.Advise(state);
  REQUIRE(takes.ok());
  QueryInput capped = Turn("capped:15");
  const absl::StatusOr<BestAnswer> best =
      advisor.Best(Parsed(capped), *ParseDice("2T 3R 4H 3C 1K"));
  REQUIRE(best.ok());
  CHECK(Same(*takes->takes, best->advice));
  Play(state, Move::Take(Face::kRay));
  const absl::StatusOr<GameAdvice> stop = advisor.Advise(state);
  REQUIRE(stop.ok());
  capped.aside = "2T 3R";
  const absl::StatusOr<EvalAnswer> eval = advisor.Evaluate(Parsed(capped));
  REQUIRE(eval.ok());
  CHECK(Same(*stop->position, eval->eval));
  const absl::StatusOr<TurnSolution> turn =
      advisor.Turn(Rules{}, Objective::Capped(15), Precision::kDouble);
  REQUIRE(turn.ok());
  const absl::StatusOr<ScoreDistribution> law = TurnScoreDistribution(*turn, *ParseDice("2T 3R"));
  REQUIRE(law.ok());
  CHECK(std::abs(*stop->zero_chance - law->probability[0]) < 1e-14);  // summed backwards
  CHECK(*stop->zero_chance > 0);
  // The take's advice said the same of the rays, before they were taken.
  REQUIRE(takes->take_zero_chances.size() == takes->takes->options.size());
  for (std::size_t i = 0; i < takes->takes->options.size(); ++i) {
    if (takes->takes->options[i].take != Face::kRay) continue;
    REQUIRE(takes->take_zero_chances[i].has_value());
    CHECK(*takes->take_zero_chances[i] == *stop->zero_chance);
  }

  // Needing more than a turn can score plays as ev, named as what is needed.
  const absl::StatusOr<GameAdvice> fresh =
      advisor.Advise(Game(6, GameContext{{0, 0, 0, 0, 0, 0}, 0}));
  REQUIRE(fresh.ok());
  CHECK(fresh->goal.name() == "capped:25");
  const absl::StatusOr<TurnSolution> ev =
      advisor.Turn(Rules{}, Objective::ExpectedScore(), Precision::kDouble);
  REQUIRE(ev.ok());
  CHECK(fresh->position->value.approx == ev->StartValue());
  // 4 players without a table in the folder given: the fallback, and the
  // reason names the command that makes the table.
  const absl::StatusOr<GameAdvice> four =
      advisor.Advise(Game(4, GameContext{{0, 0, 0, 0}, 0}), kData);
  REQUIRE(four.ok());
  CHECK(four->fallback);
  CHECK(four->fallback_reason.find("martiandice solve --players 4") != std::string::npos);
}

// In the final round, ending below the leader loses whatever the points: the
// fallback plays the chance to pass the leader (a tie with K leaders worth
// 1/(K+1)), in chances, its turn solved with M cut where no score reaches it.
TEST_CASE("advisor: in the final round the fallback plays the chance to pass the leader") {
  Advisor advisor;
  const Rules rules;
  // Seat 3 of 4, two seats at 26: 8 points pass them, 7 tie with both.
  GameState state = Game(4, GameContext{{26, 20, 26, 19}, 3});
  CHECK(FallbackObjective(rules, state.context()).name() == "final:8/2");
  CHECK(FallbackTurnObjective(rules, state.context()).name() == "final:8/2");
  const absl::StatusOr<GameAdvice> start = advisor.Advise(state, kData);
  REQUIRE_MESSAGE(start.ok(), start.status());
  CHECK(start->fallback);
  CHECK(start->goal.name() == "final:8/2");
  const absl::StatusOr<EvalAnswer> eval = advisor.Evaluate(Parsed(Turn("final:8/2")));
  REQUIRE(eval.ok());
  CHECK(start->position->value.approx == eval->eval.value.approx);
  CHECK(start->position->value.approx > 0);
  CHECK(start->position->value.approx < 1);
  // The stop the audit found: 9 points set aside, 1 short of the tie: capped
  // stops, the final round rolls on.
  GameState audit = Game(4, GameContext{{10, 25, 20, 14}, 3});
  CHECK(FallbackObjective(rules, audit.context()).name() == "final:12/1");
  const Move moves[] = {
      Move::Roll(*ParseDice("1T 1R 6H 3C 2K")), Move::Take(Face::kHuman), Move::RollOn(),
      Move::Roll(*ParseDice("1R 2C 3K")),       Move::Take(Face::kRay),   Move::RollOn(),
      Move::Roll(*ParseDice("3C 2K")),          Move::Take(Face::kCow)};
  for (const Move& move : moves) Play(audit, move);
  REQUIRE(audit.aside_before_roll() == *ParseDice("1T 1R 6H 3C"));
  const absl::StatusOr<GameAdvice> stop = advisor.Advise(audit, kData);
  REQUIRE_MESSAGE(stop.ok(), stop.status());
  REQUIRE(stop->position);
  CHECK(stop->position->stop->approx == 0);
  CHECK(stop->position->action == Then::kRoll);
  const absl::StatusOr<TurnSolution> capped =
      advisor.Turn(rules, Objective::Capped(11), Precision::kDouble);
  REQUIRE(capped.ok());
  const absl::StatusOr<PositionEval> old = EvaluatePosition(*capped, audit.aside_before_roll());
  REQUIRE(old.ok());
  CHECK(old->action == Then::kStop);
  // Out of reach: named as needed, solved at MaxTurnScore + 2, worth 0.
  const GameContext far{{30, 20, 26, 5}, 3};
  CHECK(FallbackObjective(rules, far).name() == "final:26/1");
  CHECK(FallbackTurnObjective(rules, far).name() == "final:18/1");
  const absl::StatusOr<GameAdvice> lost = advisor.Advise(Game(4, far), kData);
  REQUIRE(lost.ok());
  CHECK(lost->goal.name() == "final:26/1");
  CHECK(lost->position->value.approx == 0);
  // Before the final round: capped, cut at MaxTurnScore.
  CHECK(FallbackObjective(rules, GameContext{{24, 0, 3}, 1}).name() == "capped:25");
  CHECK(FallbackTurnObjective(rules, GameContext{{24, 0, 3}, 1}).name() == "capped:16");
  // An earlier seat of the final round counts the leaders before it.
  CHECK(FallbackObjective(rules, GameContext{{27, 10, 20}, 1}).name() == "final:18/1");
}

TEST_CASE("advisor: the solved-turn cache drops its least recently used turn") {
  Advisor::Options options;
  options.max_turns = 2;
  Advisor advisor(options);
  const Objective ev = Objective::ExpectedScore();
  const Objective reach = Objective::ReachAtLeast(10);
  const Objective capped = Objective::Capped(8);
  const TurnSolution first_ev = TurnOf(advisor, ev);
  const TurnSolution first_reach = TurnOf(advisor, reach);
  CHECK(Identity(first_ev) != Identity(first_reach));
  CHECK(Identity(TurnOf(advisor, ev)) == Identity(first_ev));  // now the most recently used
  const TurnSolution first_capped = TurnOf(advisor, capped);   // the third: reach goes
  CHECK(Identity(TurnOf(advisor, ev)) == Identity(first_ev));
  CHECK(Identity(TurnOf(advisor, reach)) != Identity(first_reach));  // solved again: capped goes
  CHECK(Identity(TurnOf(advisor, capped)) != Identity(first_capped));
  // Precision and rules are part of the key.
  Advisor wide;
  const TurnSolution double_ev = TurnOf(wide, ev);
  const TurnSolution exact_ev = TurnOf(wide, ev, Precision::kExact);
  CHECK(Identity(exact_ev) != Identity(double_ev));
  CHECK(exact_ev.precision() == Precision::kExact);
  const TurnSolution small = TurnOf(wide, ev, Precision::kDouble, Rules{6, 3, 25});
  CHECK(Identity(small) != Identity(double_ev));
  CHECK(small.rules() == Rules{6, 3, 25});
  CHECK(Identity(TurnOf(wide, ev)) == Identity(double_ev));
  // Rules out of range are refused.
  CHECK(wide.Turn(Rules{0, 3, 25}, ev, Precision::kDouble).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

TEST_CASE("advisor: the table cache drops its least recently used table") {
  Advisor::Options options;
  options.max_tables = 2;
  Advisor advisor(options);
  const std::string table3 = kData + "/martiandice-p3-d13-b3-t25.mdt";
  // Held only by the cache here: a table dropped from it is released.
  const std::weak_ptr<const LoadedTable> two = TableOf(advisor, kTable2);
  const std::weak_ptr<const LoadedTable> three = TableOf(advisor, table3, 3);
  CHECK(three.lock()->table.players() == 3);
  CHECK(TableOf(advisor, kTable2) == two.lock());  // now the most recently used
  // Entries are by source: the folder is a third entry (sharing the file's
  // table), and the 3-player table, least recently used, goes.
  CHECK(TableOf(advisor, kData) == two.lock());
  CHECK(three.expired());
  const std::weak_ptr<const LoadedTable> three_again = TableOf(advisor, table3, 3);
  CHECK_FALSE(three_again.expired());
  // The file's own entry went; the folder's still holds the table.
  CHECK_FALSE(two.expired());
  TableOf(advisor, kData, 3);  // the folder's 3-player entry: the folder's 2-player one goes
  CHECK(two.expired());
  CHECK(TableOf(advisor, kData, 3) == three_again.lock());  // players are part of the key
}

TEST_CASE("advisor: every spelling of a table file shares one loaded table, a copy does not") {
  Advisor advisor;
  const std::shared_ptr<const LoadedTable> by_file = TableOf(advisor, kTable2);
  CHECK(by_file->path == kTable2);
  const std::string name = std::filesystem::path(kTable2).filename().string();
  test_util::TempDir dir;
  std::filesystem::create_symlink(kTable2, dir.File("link.mdt"));
  for (const std::string& spelling :
       {kData, kData + "/", kData + "/./" + name, dir.File("link.mdt")}) {
    CAPTURE(spelling);
    const std::shared_ptr<const LoadedTable> shared = TableOf(advisor, spelling);
    CHECK(shared == by_file);
    CHECK(shared->path == kTable2);  // the path it was read by
  }
  // Another file with the same bytes is read on its own.
  std::filesystem::copy_file(kTable2, dir.File("copy.mdt"));
  const std::shared_ptr<const LoadedTable> copy = TableOf(advisor, dir.File("copy.mdt"));
  CHECK(copy != by_file);
  CHECK(copy->path == dir.File("copy.mdt"));
  // A held table asked for other players is checked again, and refused.
  absl::StatusOr<std::shared_ptr<const LoadedTable>> as_three =
      advisor.Table(Rules{}, 3, dir.File("link.mdt"));
  REQUIRE_FALSE(as_three.ok());
  CHECK(as_three.status().message().find(dir.File("link.mdt")) != std::string::npos);
  CHECK(as_three.status().message().find("is for 2 players") != std::string::npos);
}

TEST_CASE("advisor: a file refused for its content is not read again until it changes") {
  test_util::TempDir dir;
  const std::string path = dir.File("damaged.mdt");
  const std::string good = test_util::ReadFile(kTable2);
  std::string bad = good;
  bad[bad.size() / 2] ^= 0x55;  // a block no longer matches its checksum
  test_util::WriteFile(path, bad);
  Advisor advisor;
  const absl::Status refused = advisor.Table(Rules{}, 2, path).status();
  REQUIRE(absl::IsDataLoss(refused));
  // The good bytes written in place and the modification time put back: the
  // same file to the advisor, which answers its refusal without reading it.
  const std::filesystem::file_time_type written = std::filesystem::last_write_time(path);
  test_util::WriteFile(path, good);
  std::filesystem::last_write_time(path, written);
  CHECK(advisor.Table(Rules{}, 2, path).status() == refused);
  Advisor another;  // one that never refused it reads it, and takes it
  CHECK(another.Table(Rules{}, 2, path).ok());
  // A new modification time: read again, and taken.
  std::filesystem::last_write_time(path, written + std::chrono::seconds(1));
  CHECK(advisor.Table(Rules{}, 2, path).ok());
  // A file that is missing is looked for again at every ask (no refusal kept).
  const std::string later = dir.File("later.mdt");
  CHECK(absl::IsNotFound(advisor.Table(Rules{}, 2, later).status()));
  test_util::WriteFile(later, good);
  CHECK(advisor.Table(Rules{}, 2, later).ok());
}

TEST_CASE("advisor concurrency: threads share one advisor whose caches are smaller than needed") {
  // Two solved turns and one table kept, for three objectives and two
  // tables: entries are dropped and rebuilt while other threads use them.
  Advisor::Options options;
  options.max_turns = 2;
  options.max_tables = 1;
  options.tables = kData;
  Advisor shared(options);
  struct Ask {
    QueryInput input;
    std::string roll;  // "" for Evaluate
  };
  const std::vector<Ask> asks = {
      {Turn("ev", "2T 4H"), ""},
      {Turn("ev", "2T 4H"), "1T 2R 3C 1K"},
      {Turn("reach:10", "3T 3R 4H 1K"), ""},
      {Turn("capped:8"), "2T 3R 4H 3C 1K"},
      {Win("18,22", 0, "3T 2R 4H 1K"), "1R 1H 1C"},
      {Win("25,21", 1, "3T 3R 4H 1K"), ""},
      {Win("10,12,8", 1), "2T 2R 3H 4C 2K"},
      {Win("30,12,20", 2, "2T 3R 4H"), ""},
  };
  // The answers of an advisor used by one thread only.
  struct Answer {
    PositionEval eval;
    RollAdvice advice;
    std::vector<double> win;
  };
  auto answer = [](Advisor& advisor, const Ask& ask) -> absl::StatusOr<Answer> {
    absl::StatusOr<Query> query = ParseQuery(ask.input);
    if (!query.ok()) return query.status();
    Answer a;
    if (ask.roll.empty()) {
      absl::StatusOr<EvalAnswer> eval = advisor.Evaluate(*query);
      if (!eval.ok()) return eval.status();
      a.eval = eval->eval;
      a.win = eval->win_probabilities;
    } else {
      absl::StatusOr<Dice> roll = ParseRoll(*query, ask.roll);
      if (!roll.ok()) return roll.status();
      absl::StatusOr<BestAnswer> best = advisor.Best(*query, *roll);
      if (!best.ok()) return best.status();
      a.advice = best->advice;
      a.win = best->win_probabilities;
    }
    return a;
  };
  std::vector<Answer> expected;
  {
    Advisor alone(options);
    for (const Ask& ask : asks) {
      absl::StatusOr<Answer> a = answer(alone, ask);
      REQUIRE_MESSAGE(a.ok(), a.status());
      expected.push_back(*std::move(a));
    }
  }
  constexpr int kThreads = 4;
  constexpr int kRounds = 6;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<int> answered(kThreads, 0);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int i = 0; i < kRounds * static_cast<int>(asks.size()); ++i) {
        const std::size_t k = (i + 3 * t) % asks.size();  // threads ask different things at once
        const absl::StatusOr<Answer> got = answer(shared, asks[k]);
        ++answered[t];
        const bool same = got.ok() && Same(got->eval, expected[k].eval) &&
                          Same(got->advice, expected[k].advice) && Same(got->win, expected[k].win);
        if (!same) ++mismatches[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(answered[t] == kRounds * static_cast<int>(asks.size()));
    CHECK(mismatches[t] == 0);
  }
}

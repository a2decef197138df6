// `martiandice review` (tools/review.cpp): the rulebook's sample turn (only the
// final stop loses, exactly 11/54), a deliberate blunder whose loss is derived
// by hand, the win objective against `best`, games with `scores` lines, and
// bad input refused with the line number (exit 2, one stderr line).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "cli_test_util.h"
#include "test_util.h"

namespace {

using cli_test::Json;

cli_test::CliRun Review(const std::string& text, std::vector<std::string> options = {}) {
  std::istringstream in(text);
  martiandice::CliEnvironment environment;
  environment.in = &in;
  std::vector<std::string> args = {"review", "-"};
  args.insert(args.end(), options.begin(), options.end());
  return cli_test::Run(args, environment);
}

Json ReviewJson(const std::string& text, std::vector<std::string> options = {}) {
  options.push_back("--json");
  const cli_test::CliRun run = Review(text, options);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  return cli_test::ParseJsonOrFail(run.out);
}

// The rulebook's sample turn (docs/RULES.md), with comments and blank lines.
const char kSampleTurn[] = R"(# The rulebook's sample turn (RULES.md)

roll 2T 3R 4H 3C 1K take H     # 13 dice
roll 1T 2R 3C 1K take R        # 7 dice
roll 2H 1C 1K take K           # humans already taken
ROLL 1R 1H 1C Take ray         # plays safe, declines the cow
stop
)";

// A deliberate blunder on line 4: with 2T 2R 4H 3C set aside and 1R 1K
// rolled, taking the chicken and stopping scores 4 + 3 + 1 + 3 = 11 for sure;
// rolling the last die on instead loses everything to a tank (1/6) and scores
// 11 otherwise: 5/6 * 11 = 55/6. The blunder loses 11 - 55/6 = 11/6.
// (Taking the ray instead: stop 7, roll on 5/6 * 7 + 1/6 * 11 = 23/3.)
const char kBlunderTurn[] = R"(roll 2T 3R 4H 1C 3K take H
roll 2R 3C 2K take C
roll 2R 1H 1K take R
roll 1R 1K take K
roll 1T
)";

const Json& Decision(const Json& review, int turn, int index) {
  return review["turns"].items.at(turn)["decisions"].items.at(index);
}

}  // namespace

TEST_CASE("review: the rulebook's sample turn loses 11/54 with its final stop, exactly") {
  const Json review = ReviewJson(kSampleTurn, {"--exact"});
  CHECK(review["objective"].text == "ev");
  CHECK(review["precision"].text == "exact");
  REQUIRE(review["turns"].items.size() == 1);
  const Json& turn = review["turns"].items[0];
  CHECK(turn["line"].number == 3);
  CHECK(turn["score"].number == 5);
  CHECK_FALSE(turn["tanks_won"].boolean);  // 3 rays hold 3 tanks
  CHECK(turn["end"].text == "stop");
  CHECK(turn["end_line"].number == 7);
  REQUIRE(turn["decisions"].items.size() == 4);
  const std::vector<std::string> takes = {"human", "ray", "chicken", "ray"};
  const std::vector<int> counts = {4, 2, 1, 1};
  for (int i = 0; i < 4; ++i) {
    const Json& d = Decision(review, 0, i);
    CHECK(d["take"].text == takes[i]);
    CHECK(d["count"].number == counts[i]);
    CHECK(d["then"].text == (i < 3 ? "roll" : "stop"));
    CHECK(d["optimal"].boolean == (i < 3));
    CHECK(d["loss_exact"].text == (i < 3 ? "0/1" : "11/54"));
  }
  const Json& last = Decision(review, 0, 3);
  CHECK(last["line"].number == 6);
  CHECK(last["then_line"].number == 7);
  CHECK(last["value_exact"].text == "5/1");
  CHECK(last["best_value_exact"].text == "281/54");
  REQUIRE(last["optimal_choices"].items.size() == 1);
  CHECK(last["optimal_choices"].items[0]["take"].text == "ray");
  CHECK(last["optimal_choices"].items[0]["then"].text == "roll");
  CHECK(review["mistakes"].number == 1);
  CHECK(review["decisions"].number == 4);
  CHECK(review["total_loss_exact"].text == "11/54");
  CHECK(cli_test::Close(review["total_loss"].number, 11.0 / 54));

  // Double precision: the same figure, and the text report.
  const Json approx = ReviewJson(kSampleTurn);
  CHECK(cli_test::Close(approx["total_loss"].number, 11.0 / 54));
  CHECK(approx["mistakes"].number == 1);
  const cli_test::CliRun text = Review(kSampleTurn);
  CHECK(text.code == 0);
  CHECK(text.out.find("MISTAKE, lost 0.203704; best: take 1 ray, then roll on") !=
        std::string::npos);
  CHECK(text.out.find("Summary: 1 turn, 4 decisions, 1 mistake, total loss 0.203704.") !=
        std::string::npos);
}

TEST_CASE("review: a deliberate blunder loses what the hand computation says") {
  const Json review = ReviewJson(kBlunderTurn, {"--exact"});
  REQUIRE(review["turns"].items.size() == 1);
  const Json& turn = review["turns"].items[0];
  CHECK(turn["end"].text == "no_legal_take");
  CHECK(turn["end_line"].number == 5);
  CHECK(turn["score"].number == 0);
  CHECK(turn["tanks_won"].boolean);  // the last die a tank: 3 tanks beat 2 rays
  CHECK(Review(kBlunderTurn).out.find("; scores 0 (3 tanks beat 2 rays); lost") !=
        std::string::npos);
  REQUIRE(turn["decisions"].items.size() == 4);
  const Json& blunder = Decision(review, 0, 3);
  CHECK(blunder["aside"].text == "2T 2R 4H 3C");
  CHECK(blunder["take"].text == "chicken");
  CHECK(blunder["then"].text == "roll");
  CHECK(blunder["value_exact"].text == "55/6");
  CHECK(blunder["best_value_exact"].text == "11/1");
  CHECK(blunder["loss_exact"].text == "11/6");
  CHECK_FALSE(blunder["optimal"].boolean);
  REQUIRE(blunder["optimal_choices"].items.size() == 1);
  CHECK(blunder["optimal_choices"].items[0]["take"].text == "chicken");
  CHECK(blunder["optimal_choices"].items[0]["then"].text == "stop");
  // The turn's and the review's totals add the decisions' losses.
  double sum = 0;
  int mistakes = 0;
  for (const Json& d : turn["decisions"].items) {
    sum += d["loss"].number;
    mistakes += !d["optimal"].boolean;
  }
  CHECK(cli_test::Close(turn["loss"].number, sum));
  CHECK(cli_test::Close(review["total_loss"].number, sum));
  CHECK(review["mistakes"].number == mistakes);
  CHECK(mistakes >= 1);

  // The other blunder from the same roll: the ray, then stop (7 against 11).
  std::string ray_stop = kBlunderTurn;
  ray_stop.replace(ray_stop.find("roll 1R 1K take K\nroll 1T\n"), std::string::npos,
                   "roll 1R 1K take 1R\nstop\n");
  const Json other = ReviewJson(ray_stop, {"--exact"});
  const Json& d = Decision(other, 0, 3);
  CHECK(d["value_exact"].text == "7/1");
  CHECK(d["loss_exact"].text == "4/1");
  CHECK(other["turns"].items[0]["score"].number == 7);
}

TEST_CASE("review: faces may be written as words, in the rolls and the takes") {
  const std::string words =
      "roll 2 tanks 3 rays 4 humans 3 cows 1 chicken take 4 humans\n"
      "roll 1 tank 2 rays 3 cows 1 chicken take rays\n"
      "roll 2H 1C 1K take chicken\n"
      "roll 1 ray 1 human 1 cow take 1 ray\n"
      "stop\n";
  const Json review = ReviewJson(words, {"--exact"});
  const Json letters = ReviewJson(kSampleTurn, {"--exact"});
  CHECK(review["total_loss_exact"].text == "11/54");
  REQUIRE(review["turns"].items.size() == 1);
  for (int i = 0; i < 4; ++i) {
    CHECK(Decision(review, 0, i)["rolled"].text == Decision(letters, 0, i)["rolled"].text);
    CHECK(Decision(review, 0, i)["take"].text == Decision(letters, 0, i)["take"].text);
  }
  const cli_test::CliRun wrong = Review("roll 2T 3R 4H 3C 1K take 3 humans\n");
  CHECK(wrong.code == 2);
  CHECK(wrong.err.find("line 1: take: the roll shows 4 humans, not 3") != std::string::npos);
}

TEST_CASE("review: the win objective reads the table, and games give scores per turn") {
  // The README's example: behind 18 to 22, the cow (then roll) beats the ray.
  const Json review = ReviewJson(kSampleTurn, {"--objective", "win", "--scores", "18,22"});
  const Json best = cli_test::RunJson({"best", "--objective", "win", "--scores", "18,22", "--aside",
                                       "3T 2R 4H 1K", "--roll", "1R 1H 1C", "--json"});
  const Json& last = Decision(review, 0, 3);
  CHECK(cli_test::Close(last["best_value"].number, best["value"].number));
  CHECK(cli_test::Close(last["value"].number, best["options"].items[0]["stop"].number));
  CHECK(cli_test::Close(last["loss"].number,
                        best["value"].number - best["options"].items[0]["stop"].number));
  CHECK(last["optimal_choices"].items[0]["take"].text == "cow");
  CHECK(review["turns"].items[0]["win_probabilities"].items.size() == 2);
  CHECK(review["table"].kind == Json::Kind::kString);

  // A game: two turns, each after its scores line; a turn over ends the first.
  const std::string game =
      "scores 18,22 seat 0\n"
      "roll 2T 3R 4H 3C 1K take H\n"
      "roll 3T 3R 1K\n"  // 3 tanks: 5T > 0R and no ray taken... rays can be taken: see below
      "scores 18,22 seat 1\n"
      "roll 4R 3H 2C 4K take K\n"
      "stop\n";
  const cli_test::CliRun run = Review(game, {"--objective", "win", "--json"});
  INFO("stderr: " << run.err);
  // 3R can be taken on line 3, so it needs a take: refused with the line number.
  CHECK(run.code == 2);
  CHECK(run.err.find("line 3: say what was taken") != std::string::npos);
  const std::string fixed =
      "scores 18,22 seat 0\n"
      "roll 2T 3R 4H 3C 1K take H\n"
      "roll 3T 3R 1K take R\n"
      "stop\n"
      "scores 18,22 seat 1\n"
      "roll 4R 3H 2C 4K take K\n"
      "stop\n";
  const Json two = ReviewJson(fixed, {"--objective", "win"});
  REQUIRE(two["turns"].items.size() == 2);
  CHECK(two["turns"].items[0]["seat"].number == 0);
  CHECK(two["turns"].items[1]["seat"].number == 1);
  CHECK(two["turns"].items[1]["line"].number == 6);
  CHECK(two["turns"].items[1]["score"].number == 4);
  CHECK(two["decisions"].number == 3);

  // Without the second scores line the game goes on from the first turn's
  // end: the mover's total gains its score, the next seat moves; the chances
  // are the table's at those totals, as `eval` gives them.
  const std::string carried =
      "scores 23,22 seat 0\n"
      "roll 3R 4H 3C 3K take H\n"
      "stop\n"
      "roll 4R 3H 2C 4K take K\n"
      "stop\n";
  const Json game3 = ReviewJson(carried, {"--objective", "win"});
  REQUIRE(game3["turns"].items.size() == 2);
  const Json& second = game3["turns"].items[1];
  CHECK(game3["turns"].items[0]["score"].number == 4);
  REQUIRE(second["scores"].items.size() == 2);
  CHECK(second["scores"].items[0].number == 27);
  CHECK(second["scores"].items[1].number == 22);
  CHECK(second["seat"].number == 1);
  const Json eval = cli_test::RunJson(
      {"eval", "--objective", "win", "--scores", "27,22", "--seat", "1", "--json"});
  CHECK(cli_test::Close(second["win_probabilities"].items[1].number, eval["value"].number));
  // Seat 0 reached the target: seat 1's turn is the final round's, and says so.
  CHECK_FALSE(game3["turns"].items[0]["final_round"].boolean);
  CHECK(second["final_round"].boolean);
  const cli_test::CliRun text = Review(carried, {"--objective", "win"});
  CHECK(text.out.find("Turn 1 (line 2): scores 23,22, seat 0 to move, chance") !=
        std::string::npos);
  CHECK(text.out.find("Turn 2 (line 4): scores 27,22, seat 1 to move in the final round, chance") !=
        std::string::npos);
  // Seat 1 scores 4: 27 to 26, the game is over; a third turn needs a new
  // scores line.
  const cli_test::CliRun over =
      Review(carried + "roll 2T 3R 4H 3C 1K take C\nstop\n", {"--objective", "win"});
  CHECK(over.code == 2);
  CHECK(over.err.find("line 6: the game ended with turn 2 (totals 27,26)") != std::string::npos);
}

// A game no table covers is reviewed as coach advised it: by the fallback,
// capped at the points still needed, turn by turn; turns with a table keep
// the chances, and the totals keep the two apart.
TEST_CASE("review: the win objective without a table measures by the fallback, as coach") {
  // Seat 0 needs 2: after 3 rays and 2 humans, stopping is worth 2 of 2.
  const std::string four =
      "scores 23,0,0,0 seat 0\n"
      "roll 1T 3R 2H 3C 4K take R\n"
      "roll 2H 3C 4K take H\n"
      "roll 3C 4K take C\n"  // rolled on: a mistake in capped:2, costing what eval says
      "stop\n";
  const Json review = ReviewJson(four, {"--objective", "win"});
  CHECK(review["fallback_reason"].text.find("no policy table martiandice-p4") != std::string::npos);
  const Json& turn = review["turns"].items.at(0);
  CHECK(turn["values"].text == "capped:2");
  CHECK(turn["fallback"].boolean);
  CHECK(turn["win_probabilities"].is_null());
  CHECK_FALSE(turn["final_round"].boolean);
  const Json& stop = Decision(review, 0, 1);
  CHECK_FALSE(stop["optimal"].boolean);
  CHECK(stop["class"].is_null());
  const Json eval =
      cli_test::RunJson({"eval", "--objective", "capped:2", "--aside", "1T 3R 2H", "--json"});
  CHECK(cli_test::Close(stop["loss"].number, eval["stop"].number - eval["roll"].number));
  CHECK(review["total_loss"].number == 0);
  CHECK(cli_test::Close(review["fallback_loss"].number, stop["loss"].number));
  CHECK(review["ratings"].items.empty());
  // A 2-player game with its table first: its turn in chances, rated.
  const std::string two =
      "scores 18,22 seat 0\n"
      "roll 2T 3R 4H 3C 1K take H\n"
      "stop\n";
  const Json mixed = ReviewJson(two + four, {"--objective", "win"});
  CHECK(mixed["turns"].items.at(0)["values"].text == "win");
  CHECK_FALSE(mixed["turns"].items.at(0)["fallback"].boolean);
  CHECK(mixed["total_loss"].number > 0);
  CHECK(cli_test::Close(mixed["fallback_loss"].number, review["fallback_loss"].number));
  CHECK(mixed["ratings"].items.size() == 1);
  const cli_test::CliRun text = Review(two + four, {"--objective", "win"});
  CHECK(text.out.find("values are the fallback's, as play and coach advise") != std::string::npos);
  CHECK(text.out.find("percentage points of chance to win, and ") != std::string::npos);
  CHECK(text.out.find(" in the fallback's points.") != std::string::npos);
  // A table named must be there: no fallback then.
  const cli_test::CliRun named =
      Review(four, {"--objective", "win", "--tables", MARTIANDICE_DATA_DIR});
  CHECK(named.code == 2);
  CHECK(named.err.find("no policy table martiandice-p4") != std::string::npos);
}

// A game played under house rules: its log says so, and a review under other
// rules refuses it rather than judge it by the wrong game.
TEST_CASE("review: a house-rules game's log is reviewed under its rules only") {
  test_util::TempDir temp;
  const std::string log = temp.File("b5.log");
  const cli_test::CliRun play =
      cli_test::Run({"play", "--humans", "none", "--bots", "ev", "--bonus", "5", "--target", "20",
                     "--seed", "2", "--log", log});
  REQUIRE(play.code == 0);
  const std::string text = test_util::ReadFile(log);
  CHECK(text.rfind("rules dice 13 bonus 5 target 20\nscores 0,0 seat 0\n", 0) == 0);
  cli_test::CliRun run = cli_test::Run({"review", "--objective", "win", log});
  CHECK(run.code == 2);
  CHECK(run.err.find("line 1: the game was played under 13 dice, bonus 5, target 20; this log is "
                     "read under 13 dice, bonus 3, target 25: give the game's rules") !=
        std::string::npos);
  run = cli_test::Run({"review", "--objective", "win", "--bonus", "5", "--target", "20", log});
  CHECK(run.code == 0);
  CHECK(run.out.find("rules: 13 dice, bonus 5, target 20") != std::string::npos);
}

TEST_CASE("review: a take with nothing to choose is no decision") {
  // Line 3: chickens are the only legal take, and they are the last dice.
  const std::string turn = "roll 2T 3R 4H 3C 1K take H\nroll 1T 1R 3C 2K take C\nroll 3K take K\n";
  const Json review = ReviewJson(turn);
  CHECK(review["decisions"].number == 2);
  const Json& only = review["turns"].items.at(0);
  REQUIRE(only["decisions"].items.size() == 2);
  CHECK(only["end"].text == "no_dice_left");
  CHECK(only["end_line"].number == 3);
  // The first turn's game given twice, the same: read.
  const Json agreed = ReviewJson("scores 3,3 seat 1\n" + turn,
                                 {"--objective", "win", "--scores", "3,3", "--seat", "1"});
  CHECK(agreed["turns"].items.at(0)["seat"].number == 1);
}

TEST_CASE("review: ties are optimal with no loss, and named") {
  // 5 humans or 5 cows: the earthling types are interchangeable, an exact tie.
  const std::string turn = "roll 3T 5H 5C take C\nroll 3R 2K take R\nstop\n";
  const Json review = ReviewJson(turn, {"--exact"});
  const Json& first = Decision(review, 0, 0);
  CHECK(first["optimal"].boolean);
  CHECK(first["loss_exact"].text == "0/1");
  REQUIRE(first["optimal_choices"].items.size() == 2);
  CHECK(first["optimal_choices"].items[0]["take"].text == "human");
  CHECK(first["optimal_choices"].items[1]["take"].text == "cow");
  const cli_test::CliRun text = Review(turn);
  CHECK(text.out.find("optimal (tied with: take 5 humans, then roll on)") != std::string::npos);
}

TEST_CASE("review: bad input is refused with the line number") {
  struct Bad {
    std::string text;
    std::vector<std::string> options;
    std::string names;
  };
  const std::string take_h = "roll 2T 3R 4H 3C 1K take H\n";
  const std::vector<Bad> bad = {
      {"", {}, "no turn to review"},
      {"# only a comment\n\n", {}, "no turn to review"},
      {"roll 2T 3R\n", {}, "line 1: roll: "},
      {"roll 2T 3R 4H 3C 1X take H\n", {}, "line 1: roll: "},
      {"roll 2T 3R 4H 3C 1K take T\n", {}, "line 1: tanks are set aside automatically"},
      {"roll 2T 3R 4H 3C 1K take 3H\n", {}, "line 1: take: the roll shows 4 humans, not 3"},
      {"roll 2T 3R 4H 3C 1K take HC\n", {}, "line 1: take one face"},
      {"roll 2T 3R 4H 3C 1K take H stop\n", {}, "line 1: expected 'roll DICE take FACE'"},
      {"roll take H\n", {}, "line 1: roll: give the dice"},
      {"roll 2T 3R 4H 3C 1K\n", {}, "line 1: say what was taken"},
      {"stop\n", {}, "line 1: 'stop' before any roll"},
      {"jump 3\n", {}, "line 1: expected 'roll', 'stop', 'scores' or 'rules'"},
      {take_h + "roll 1T 2R 3C 1K take H\n", {}, "line 2: take human is not legal here"},
      {take_h + "roll 1T 2R 3C 2K take R\n", {}, "line 2: roll: "},  // 8 dice, 7 left
      {take_h, {}, "line 1: the input ends in the middle of a turn"},
      {take_h + "\n# trailing comment\n",
       {},
       "ends in the middle of a turn: after the take on line 1"},
      {take_h + "stop\nstop\n", {}, "line 3: 'stop' after the turn ended on line 2"},
      {take_h + "stop now\n", {}, "line 2: 'stop' takes nothing after it"},
      {take_h + "scores 1,2\n", {}, "line 2: 'scores' inside a turn"},
      {"scores 1,2\n", {}, "line 1: 'scores' is not followed by a turn"},
      {"scores 1,2 seat\n", {}, "line 1: expected 'scores S0,S1"},
      {"scores 1,x\nroll 2T 3R 4H 3C 1K take H\nstop\n", {}, "line 1: scores: "},
      {"scores 1,40 seat 0\n" + take_h + "stop\n", {}, "line 1: scores: "},
      {"scores 1,2 seat 5\n" + take_h + "stop\n", {}, "line 1: seat: seat 5 is out of range"},
      {"scores 1,2 seat x\n" + take_h + "stop\n", {}, "line 1: seat: expected a number, got 'x'"},
      {"scores 7\n" + take_h + "stop\n", {}, "line 1: scores: a game has 2 to 6 players, not 1"},
      {take_h + "roll 3T 2R 2K take K\nroll 1R 1T 1H take R\n", {}, "line 3: roll: "},
      // 12 dice aside after line 2; the last die is a tank: no take is legal.
      {"roll 2T 3R 4H 3C 1K take H\nroll 1T 1R 3C 2K take C\nroll 1T 1R 1K take R\nroll 1T take "
       "R\n",
       {},
       "line 4: no take is legal"},
      {take_h + "stop\n", {"--objective", "win"}, "line 1: with --objective win every turn needs"},
      // 24 + 4 reaches the target; seat 1's turn ends the game.
      {"roll 3R 4H 3C 3K take H\nstop\n" + take_h + "stop\n" + take_h + "stop\n",
       {"--objective", "win", "--scores", "24,2"},
       "line 5: the game ended with turn 2 (totals 28,2)"},
      {take_h + "stop\n", {"--objective", "win", "--exact"}, "--exact"},
      {take_h + "stop\n", {"--objective", "bogus"}, "--objective"},
      {take_h + "stop\n",
       {"--objective", "ev", "--scores", "1,2"},
       "--scores: goes with the win objective"},
      {take_h + "stop\n", {"--objective", "win", "--seat", "1"}, "--seat goes with --scores"},
      {take_h + "stop\n", {"--objective", "win", "--players", "3"}, "--players goes with --scores"},
      {take_h + "stop\n",
       {"--objective", "win", "--seat", "1", "--players", "3"},
       "--seat and --players go with --scores"},
      // The first turn's game given twice, differently (a play log starts with its line).
      {"scores 1,2\n" + take_h + "stop\n",
       {"--objective", "win", "--scores", "3,3", "--seat", "1"},
       "line 2: the 'scores' line before the first turn (totals 1,2, seat 0 to move) and "
       "--scores (totals 3,3, seat 1 to move) disagree: give the first turn's game once"},
      {"scores 3,3 seat 1\n" + take_h + "stop\n",
       {"--objective", "win", "--scores", "3,3", "--seat", "0"},
       "line 2: the 'scores' line before the first turn (totals 3,3, seat 1 to move) and "
       "--scores (totals 3,3, seat 0 to move) disagree"},
      {take_h + "stop\n",
       {"--objective", "win", "--scores", "1,2", "--seat", "2"},
       "--seat: seat 2 is out of range"},
      {take_h + "stop\n",
       {"--objective", "win", "--scores", "1,2", "--tables", "/nonexistent/t.mdt"},
       "martiandice solve"},
      {take_h + "stop\n", {"--dice", "30"}, "invalid rules"},
      {"roll " + std::string(5000, 'T') + "\n", {}, "line 1: longer than 4096 bytes"},
  };
  for (const Bad& b : bad) {
    INFO("input: " << b.text);
    const cli_test::CliRun run = Review(b.text, b.options);
    INFO("stderr: " << run.err);
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.rfind("martiandice: error: ", 0) == 0);
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    CHECK(run.err.find(b.names) != std::string::npos);
  }
  // Files: missing, a directory, too large.
  CHECK(cli_test::Run({"review", "/nonexistent/turn.txt"}).code == 2);
  CHECK(cli_test::Run({"review", "/"}).err.find("not a regular file") != std::string::npos);
  // A FIFO or a device is named as what it is, never as missing.
  for (const char* special : {"/dev/zero", "/dev/null"}) {
    const cli_test::CliRun device = cli_test::Run({"review", special});
    CHECK(device.code == 2);
    CHECK(device.err.find("it is a character device, not a regular file") != std::string::npos);
  }
  test_util::TempDir fifo_dir;
  const std::string fifo = fifo_dir.File("turns");
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  const cli_test::CliRun from_fifo = cli_test::Run({"review", fifo});
  CHECK(from_fifo.code == 2);
  CHECK(from_fifo.err.find("it is a FIFO (named pipe)") != std::string::npos);
  CHECK(from_fifo.err.find("no such file") == std::string::npos);
  const cli_test::CliRun huge = Review(std::string((1 << 20) + 10, '\n'));
  CHECK(huge.code == 2);
  CHECK(huge.err.find("over 1048576 bytes") != std::string::npos);
}

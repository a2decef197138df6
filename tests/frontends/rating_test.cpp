// The skill rating (app/rating.h, docs/RATING.md): the classes' and the
// scale's numbers; `simulate --rate` rates the win bot at the top of the scale,
// the same moves as without rating, whatever the threads; and its tallies are
// those `review` makes of the same game played by `play` (simulate's game 0),
// read back from the log.
#include "rating.h"

#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_test_util.h"
#include "martiandice/policy.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "simulate.h"
#include "test_util.h"

namespace {

using cli_test::Json;
using martiandice::Rules;
using martiandice::SimulationOptions;
using martiandice::SimulationResult;
using martiandice::app::ClassOf;
using martiandice::app::DecisionClass;
using martiandice::app::Rate;
using martiandice::app::RatingTally;

RatingTally TallyOf(const std::vector<double>& losses) {
  RatingTally tally;
  for (double loss : losses) tally.Add(loss == 0, loss);
  return tally;
}

SimulationResult Simulate(const Rules& rules, const std::string& policies, std::int64_t games,
                          const std::string& tables, bool rate, int threads) {
  SimulationOptions options;
  options.rules = rules;
  auto parsed = martiandice::ParsePolicies(policies);
  REQUIRE(parsed.ok());
  options.policies = *parsed;
  options.games = games;
  options.threads = threads;
  options.tables_path = tables;
  options.rate = rate;
  auto result = martiandice::Simulate(options);
  INFO(result.status());
  REQUIRE(result.ok());
  return *std::move(result);
}

}  // namespace

TEST_CASE("rating: decision classes at 1 and 5 percentage points") {
  CHECK(ClassOf(true, 0) == DecisionClass::kOptimal);
  CHECK(ClassOf(false, 1e-9) == DecisionClass::kInaccuracy);
  CHECK(ClassOf(false, 0.00999) == DecisionClass::kInaccuracy);
  CHECK(ClassOf(false, 0.01) == DecisionClass::kError);
  CHECK(ClassOf(false, 0.0499) == DecisionClass::kError);
  CHECK(ClassOf(false, 0.05) == DecisionClass::kBlunder);
  CHECK(ClassOf(false, 0.6) == DecisionClass::kBlunder);
}

TEST_CASE("rating: the scale halves with each percentage point lost a decision") {
  CHECK(!Rate(RatingTally()).has_value());
  const auto perfect = Rate(TallyOf({0, 0, 0}));
  REQUIRE(perfect.has_value());
  CHECK(perfect->score == 100);
  CHECK(std::string(perfect->band) == "perfect");
  // A mean loss of 1 point rates 50; of 2 points, 25.
  CHECK(Rate(TallyOf({0.02, 0, 0.01, 0.01}))->score == doctest::Approx(50));
  CHECK(std::string(Rate(TallyOf({0.02, 0, 0.01, 0.01}))->band) == "strong");
  CHECK(Rate(TallyOf({0.04, 0}))->score == doctest::Approx(25));
  CHECK(std::string(Rate(TallyOf({0.04, 0}))->band) == "casual");
  // Any loss at all stays below 100: "99 of 100 (master)".
  const auto tiny = Rate(TallyOf({1e-15, 0}));
  CHECK(tiny->score < 100);
  CHECK(martiandice::app::RatingText(*tiny) == "Rating 99 of 100 (master)");
  CHECK(std::string(Rate(TallyOf({0.0041}))->band) == "expert");  // 75.3
  CHECK(std::string(Rate(TallyOf({0.0043}))->band) == "strong");  // 74.2
  CHECK(std::string(Rate(TallyOf({0.3}))->band) == "beginner");
  // The tally's text and JSON.
  const RatingTally tally = TallyOf({0, 0.004, 0.02, 0.07});
  CHECK(martiandice::app::TallyText(tally) ==
        "4 decisions, 25.00% optimal (1 inaccuracy, 1 error, 1 blunder), lost 2.35% a decision: "
        "rating 19 of 100 (beginner)");
  const Json json = cli_test::ParseJsonOrFail(martiandice::app::RatingJson(tally));
  CHECK(json["decisions"].number == 4);
  CHECK(json["optimal"].number == 1);
  CHECK(json["blunders"].number == 1);
  CHECK(json["mean_loss"].number == doctest::Approx(0.0235));
  CHECK(json["score"].number == doctest::Approx(100 * std::exp2(-2.35)));
  CHECK(cli_test::ParseJsonOrFail(martiandice::app::RatingJson(RatingTally()))["score"].is_null());
}

TEST_CASE("rating: simulate --rate puts the win bot at the top, the others below") {
  const Rules rules{4, 3, 8};
  test_util::TempDir dir;
  test_util::WriteFile(dir.File("tiny.mdt"), test_util::SolveTinyTable(rules, 2));
  const SimulationResult rated = Simulate(rules, "win,random", 400, dir.File("tiny.mdt"), true, 2);
  REQUIRE(rated.policy_rating.size() == 2);
  const RatingTally& win = rated.policy_rating[0];
  const RatingTally& random = rated.policy_rating[1];
  CHECK(win.decisions > 400);
  CHECK(win.optimal() == win.decisions);
  CHECK(win.total_loss == 0);
  CHECK(Rate(win)->score == 100);
  CHECK(random.decisions > 400);
  CHECK(random.optimal() < random.decisions);
  CHECK(Rate(random)->score < 90);
  // Rating changes no move: the win rates are those of the unrated games.
  const SimulationResult plain = Simulate(rules, "win,random", 400, dir.File("tiny.mdt"), false, 2);
  CHECK(plain.policy_win_rate == rated.policy_win_rate);
  CHECK(plain.mean_turns == rated.mean_turns);
  CHECK(plain.policy_rating[0].decisions == 0);
  // Nor do the threads: the tallies are exact sums.
  const SimulationResult one = Simulate(rules, "win,random", 400, dir.File("tiny.mdt"), true, 1);
  // Nor where the table comes from: given in memory, it rates as its file does.
  SimulationOptions given;
  given.rules = rules;
  given.policies = *martiandice::ParsePolicies("win,random");
  given.games = 400;
  given.threads = 2;
  given.rate = true;
  absl::StatusOr<martiandice::GameTable> table =
      martiandice::GameTable::FromBytes(test_util::SolveTinyTable(rules, 2));
  REQUIRE(table.ok());
  given.table = *std::move(table);
  const absl::StatusOr<SimulationResult> in_memory = martiandice::Simulate(given);
  REQUIRE(in_memory.ok());
  for (const SimulationResult* other : {&one, &*in_memory}) {
    for (int k = 0; k < 2; ++k) {
      CHECK(other->policy_rating[k].decisions == rated.policy_rating[k].decisions);
      CHECK(other->policy_rating[k].classes == rated.policy_rating[k].classes);
      CHECK(other->policy_rating[k].total_loss == rated.policy_rating[k].total_loss);
    }
  }
}

TEST_CASE("rating: simulate --rate without a table says why") {
  SimulationOptions options;
  options.rules = Rules{4, 3, 8};
  options.policies = *martiandice::ParsePolicies("ev,ev,ev,ev,ev");
  options.games = 1;
  options.rate = true;
  const absl::Status status = martiandice::Simulate(options).status();
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(status.message()).find("--rate reviews decisions against a table") !=
        std::string::npos);
}

TEST_CASE("rating: simulate's tallies are review's of the same game played by play") {
  // play --humans none is simulate's game 0 with the same seed; review reads
  // its log back and rates each seat's decisions on its own.
  for (const std::string seed : {"1", "7"}) {
    CAPTURE(seed);
    const std::string bots = "cautious,random";
    const Json simulated =
        cli_test::RunJson({"simulate", "--games", "1", "--no-alternate", "--policies", bots,
                           "--seed", seed, "--rate", "--quiet", "--json"});
    std::istringstream none;
    martiandice::CliEnvironment environment;
    environment.in = &none;
    const cli_test::CliRun play = cli_test::Run(
        {"play", "--humans", "none", "--bots", bots, "--seed", seed, "--json"}, environment);
    REQUIRE(play.code == 0);
    std::string log;
    std::istringstream events(play.out);
    for (std::string line; std::getline(events, line);) {
      const Json event = cli_test::ParseJsonOrFail(line);
      if (event["event"].text != "log") continue;
      for (const Json& l : event["lines"].items) log += l.text + "\n";
    }
    REQUIRE(!log.empty());
    std::istringstream in(log);
    environment.in = &in;
    const cli_test::CliRun review =
        cli_test::Run({"review", "-", "--objective", "win", "--json"}, environment);
    REQUIRE(review.code == 0);
    const Json reviewed = cli_test::ParseJsonOrFail(review.out);
    REQUIRE(reviewed["ratings"].items.size() == 2);
    for (int seat = 0; seat < 2; ++seat) {
      const Json& mine = simulated["rating"].items[seat];
      const Json& theirs = reviewed["ratings"].items[seat];
      CHECK(theirs["seat"].number == seat);
      CHECK(theirs["rating"]["decisions"].number >= 5);
      for (const char* key : {"decisions", "optimal", "inaccuracies", "errors", "blunders"}) {
        CAPTURE(key);
        CHECK(mine[key].number == theirs["rating"][key].number);
      }
      CHECK(mine["total_loss"].number ==
            doctest::Approx(theirs["rating"]["total_loss"].number).epsilon(1e-9));
      CHECK(mine["score"].number == doctest::Approx(theirs["rating"]["score"].number));
    }
  }
}

// `martiandice play` (tools/play.cpp), driven through its input like a pipe:
// bots-only games reproduce bit for bit and are simulate's game 0; the log is
// what `review` replays, the win bots' decisions optimal in it; a human game
// to its end with hints and a review that agrees with `review`; every kind of
// bad entry refused with one line and nothing changed; the end of input mid
// game (exit 4); the fallback where no table covers the game; bad options.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli.h"
#include "cli_test_util.h"
#include "test_util.h"

namespace {

using cli_test::CliRun;
using cli_test::Json;

// Runs `play` with `options`, the human entries `input` on its stdin.
CliRun Play(std::vector<std::string> options, const std::string& input = "") {
  std::istringstream in(input);
  martiandice::CliEnvironment environment;
  environment.in = &in;
  options.insert(options.begin(), "play");
  return cli_test::Run(options, environment);
}

// The events of a `play --json` run, one object per line.
std::vector<Json> Events(const CliRun& run) {
  std::vector<Json> events;
  std::istringstream lines(run.out);
  std::string line;
  while (std::getline(lines, line)) events.push_back(cli_test::ParseJsonOrFail(line));
  return events;
}

std::vector<Json> Named(const std::vector<Json>& events, const std::string& name) {
  std::vector<Json> found;
  for (const Json& event : events) {
    if (event["event"].text == name) found.push_back(event);
  }
  return found;
}

// The log's lines from the "log" event.
std::string LogText(const std::vector<Json>& events) {
  const std::vector<Json> logs = Named(events, "log");
  REQUIRE(logs.size() == 1);
  std::string text;
  for (const Json& line : logs[0]["lines"].items) text += line.text + "\n";
  return text;
}

// `review --json` of `log` with `options`.
Json Review(const std::string& log, std::vector<std::string> options) {
  std::istringstream in(log);
  martiandice::CliEnvironment environment;
  environment.in = &in;
  options.insert(options.begin(), {"review", "-", "--json"});
  const CliRun run = cli_test::Run(options, environment);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  return cli_test::ParseJsonOrFail(run.out);
}

// Entries that always lead somewhere: one of the four takes is legal at any
// roll, and a decision after a take gets `stop` or `roll`.
std::string Stubborn(int repeats, const std::string& after_take = "stop") {
  std::string input;
  for (int i = 0; i < repeats; ++i) input += "human\ncow\nchicken\nray\n" + after_take + "\n";
  return input;
}

}  // namespace

TEST_CASE("play: a bots-only game replays bit for bit from its seed") {
  const std::vector<std::string> options = {"--humans", "none",   "--seed",
                                            "7",        "--bots", "win,cautious"};
  const CliRun first = Play(options);
  INFO("stderr: " << first.err);
  REQUIRE(first.code == 0);
  CHECK(first.err.empty());
  CHECK(Play(options).out == first.out);
  CHECK(first.out.find("Game over after") != std::string::npos);
  std::vector<std::string> other = options;
  other[3] = "8";
  CHECK(Play(other).out != first.out);
  // 6 seats of every style, in JSON: the same for the same seed.
  const std::vector<std::string> six = {
      "--humans", "none", "--players", "6",
      "--seed",   "11",   "--bots",    "ev,capped,random,stop:8,cautious,bold",
      "--json"};
  const CliRun a = Play(six);
  REQUIRE(a.code == 0);
  CHECK(Play(six).out == a.out);
  const std::vector<Json> events = Events(a);
  REQUIRE(Named(events, "game_over").size() == 1);
  CHECK(Named(events, "review").empty());  // no human
}

TEST_CASE("play: a bots-only game is simulate's game 0 with the same seed") {
  for (const std::string& seed : {"1", "2", "3", "20240613"}) {
    for (const std::string& bots : {std::string("win,ev"), std::string("random,stop:6,capped")}) {
      CAPTURE(seed);
      CAPTURE(bots);
      const int players = static_cast<int>(std::count(bots.begin(), bots.end(), ',')) + 1;
      const CliRun play = Play({"--humans", "none", "--players", std::to_string(players), "--bots",
                                bots, "--seed", seed, "--json"});
      REQUIRE(play.code == 0);
      const Json over = Named(Events(play), "game_over").at(0);
      const Json simulated = cli_test::RunJson({"simulate", "--games", "1", "--no-alternate",
                                                "--policies", bots, "--seed", seed, "--json"});
      CHECK(simulated["mean_turns"].number == over["turns"].number);
      for (int seat = 0; seat < players; ++seat) {
        const auto& winners = over["winners"].items;
        const bool won = std::any_of(winners.begin(), winners.end(),
                                     [&](const Json& w) { return w.number == seat; });
        const double share = won ? 1.0 / static_cast<double>(winners.size()) : 0.0;
        CHECK(simulated["seat_win_rate"].items[seat].number == doctest::Approx(share));
      }
    }
  }
}

TEST_CASE("play: the log replays in review, where the win bots make no mistake") {
  const CliRun run = Play({"--humans", "none", "--players", "3", "--seed", "5", "--json"});
  REQUIRE(run.code == 0);
  const std::vector<Json> events = Events(run);
  const std::string log = LogText(events);
  const Json review = Review(log, {"--objective", "win"});
  const Json over = Named(events, "game_over").at(0);
  CHECK(review["turns"].items.size() == static_cast<std::size_t>(over["turns"].number));
  CHECK(review["decisions"].number > 10);
  CHECK(review["mistakes"].number == 0);
  // Every turn's score in the log is the game's.
  const std::vector<Json> ends = Named(events, "turn_end");
  REQUIRE(ends.size() == review["turns"].items.size());
  for (std::size_t i = 0; i < ends.size(); ++i) {
    CHECK(review["turns"].items[i]["score"].number == ends[i]["score"].number);
  }
  // The text form prints the same log after its header line with --print-log,
  // and says how to keep it without.
  const CliRun text = Play({"--humans", "none", "--players", "3", "--seed", "5", "--print-log"});
  REQUIRE(text.code == 0);
  const std::string header = "Game log (martiandice review --objective win - replays it):\n";
  const std::size_t at = text.out.find(header);
  REQUIRE(at != std::string::npos);
  CHECK(text.out.substr(at + header.size()) == log);
  const CliRun plain = Play({"--humans", "none", "--players", "3", "--seed", "5"});
  REQUIRE(plain.code == 0);
  CHECK(plain.out.find(header) == std::string::npos);
  CHECK(plain.out.substr(plain.out.rfind('\n', plain.out.size() - 2) + 1) ==
        "Game log: not kept (--log FILE writes it, --print-log prints it).\n");
  CHECK(plain.out == text.out.substr(0, at) +
                         "Game log: not kept (--log FILE writes it, --print-log prints it).\n");
}

TEST_CASE("play: a human game to its end, with hints and a review that agrees with review") {
  const CliRun run = Play({"--seed", "3", "--hints", "--json"}, Stubborn(200));
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  const std::vector<Json> events = Events(run);
  const std::vector<Json> hints = Named(events, "hint");
  const std::vector<Json> prompts = Named(events, "prompt");
  CHECK(hints.size() == prompts.size());  // a hint before each human decision
  REQUIRE(!hints.empty());
  for (const Json& hint : hints) {
    CHECK(hint["seat"].number == 0);
    CHECK(hint["values"].text == "win");
    if (hint["decision"].text == "stop_or_roll") {
      CHECK(hint["zero_chance"].number >= 0);
      CHECK(hint["zero_chance"].number <= 1);
    } else {
      CHECK(hint["options"].items.size() >= 1);
    }
  }
  const std::vector<Json> reviews = Named(events, "review");
  REQUIRE(reviews.size() == 1);
  const Json& mine = reviews[0];
  CHECK(mine["seat"].number == 0);
  // `review` on the log: seat 0's decisions lose what play's review says.
  const Json review = Review(LogText(events), {"--objective", "win"});
  std::vector<double> losses;
  for (const Json& turn : review["turns"].items) {
    if (turn["seat"].number != 0) continue;
    for (const Json& d : turn["decisions"].items) losses.push_back(d["loss"].number);
  }
  REQUIRE(losses.size() == mine["decisions"].items.size());
  double total = 0;
  for (std::size_t i = 0; i < losses.size(); ++i) {
    CHECK(mine["decisions"].items[i]["loss"].number == doctest::Approx(losses[i]).epsilon(1e-12));
    total += losses[i];
  }
  CHECK(mine["total_loss"].number == doctest::Approx(total));
  // The text ends on one screen: the summary and the three costliest
  // decisions, largest loss first; --full-review lists every decision. Each
  // in 80 columns: its continuation lines (4 spaces) joined back to it.
  const auto review_lines = [](const std::string& out) {
    std::vector<std::string> lines;
    std::istringstream in(out.substr(out.find("\nReview of seat 0 (you): ")));
    for (std::string line; std::getline(in, line);) {
      CHECK(line.size() <= 80);
      if (line.rfind("  turn ", 0) == 0) lines.push_back(line);
      if (line.rfind("    ", 0) == 0 && !lines.empty()) lines.back() += line.substr(3);
    }
    return lines;
  };
  const CliRun text = Play({"--seed", "3", "--hints"}, Stubborn(200));
  REQUIRE(text.code == 0);
  std::vector<double> sorted = losses;
  std::sort(sorted.rbegin(), sorted.rend());
  const int mistakes = static_cast<int>(
      std::count_if(losses.begin(), losses.end(), [](double loss) { return loss > 0; }));
  CHECK(mine["mistakes"].number == mistakes);
  const std::vector<std::string> shown = review_lines(text.out);
  REQUIRE(shown.size() == static_cast<std::size_t>(std::min(3, mistakes)));
  REQUIRE(shown.size() > 0);
  // Each with its class: under 1 point an inaccuracy, under 5 an error, else a blunder.
  const char* kind = sorted[0] < 0.01 ? "inaccuracy" : sorted[0] < 0.05 ? "error" : "blunder";
  char costliest[64];
  std::snprintf(costliest, sizeof costliest, ": lost %.2f%%, %s (best: ", 100 * sorted[0], kind);
  CHECK(shown[0].find(costliest) != std::string::npos);
  // The rating (docs/RATING.md) from review's losses: 100 * 2^(-mean / 1%).
  double sum = 0;
  int classes[3] = {0, 0, 0};
  for (double loss : losses) {
    sum += loss;
    if (loss > 0) ++classes[loss < 0.01 ? 0 : loss < 0.05 ? 1 : 2];
  }
  const double score = 100 * std::exp2(-sum / static_cast<double>(losses.size()) / 0.01);
  const Json& rating = mine["rating"];
  CHECK(rating["decisions"].number == static_cast<double>(losses.size()));
  CHECK(rating["inaccuracies"].number == classes[0]);
  CHECK(rating["errors"].number == classes[1]);
  CHECK(rating["blunders"].number == classes[2]);
  CHECK(rating["score"].number == doctest::Approx(score));
  CHECK(text.out.find(absl::StrCat("Rating ", static_cast<int>(std::floor(score)), " of 100 (")) !=
        std::string::npos);
  CHECK(text.out.find(absl::StrCat(
            "Review of seat 0 (you): ", losses.size() - mistakes, " of ", losses.size(),
            " decisions optimal, their losses adding up to")) != std::string::npos);
  const CliRun full = Play({"--seed", "3", "--hints", "--full-review"}, Stubborn(200));
  CHECK(review_lines(full.out).size() == losses.size());
  CHECK(mine["mistakes"].number > 0);  // stopping after every first take is no way to win
  CHECK(text.out.find(" percentage points of chance to win.") != std::string::npos);
}

TEST_CASE("play: a game played as the hints say is reviewed as optimal, nothing given away") {
  // The moves a line at a time: each run replays the seed's game with the moves so far.
  std::string input;
  bool over = false;
  for (int moves = 0; moves < 300 && !over; ++moves) {
    const CliRun run = Play({"--seed", "11", "--hints", "--json"}, input);
    const std::vector<Json> events = Events(run);
    over = !Named(events, "game_over").empty();
    if (over) break;
    const Json prompt = Named(events, "prompt").back();
    const std::string decision = prompt["decision"].text;
    const Json hint = Named(events, "hint").back();
    if (decision == "take") {
      input += "take " + hint["best"]["take"].text + "\n";
    } else if (decision == "stop_or_roll") {
      input += hint["action"].text == "roll" ? "roll\n" : "stop\n";
    } else {
      input += "roll\n";
    }
  }
  REQUIRE(over);
  const CliRun text = Play({"--seed", "11"}, input);
  REQUIRE(text.code == 0);
  CHECK(text.out.find(" decisions optimal: nothing given away.") != std::string::npos);
  CHECK(text.out.find("The costliest") == std::string::npos);
}

TEST_CASE("play: every kind of bad entry gets one line and changes nothing") {
  // Seed 3: seat 0 first rolls 1T 5R 3H 4K (no cow); the take decision waits.
  const std::string bad =
      "roll\n"           // roll on before a take
      "stop\n"           // stop before a take
      "take tank\n"      // tanks go aside by themselves
      "tank\n"           // likewise, without "take"
      "take cow\n"       // not in the roll
      "take 2 humans\n"  // the roll shows 3
      "take 2 cows\n"    // a count, for a face not in the roll
      "take\tcow\n"      // a tab between the words
      "take humans cows\n"
      "humans cows\n"  // two faces, without "take"
      "jump\n"
      "take\n" +  // no face
      std::string("take ") +
      std::string(1100, ' ') + "cow\n" +  // refused whole, not read cut
      "\n"                                // blank: ignored
      "take 3 humans\n"                   // legal at last
      "take ray\n"                        // after the take: stop or roll
      "ray\n"
      "stop\n";
  const CliRun run = Play({"--seed", "3", "--json"}, bad);
  REQUIRE(run.code == 4);  // the input ends before the game
  const std::vector<Json> events = Events(run);
  const std::vector<Json> refused = Named(events, "refused");
  const std::vector<std::string> expected = {
      "cannot roll on now: the game waits for seat 0 to take from the roll 1T 5R 3H 4K",
      "cannot stop now",
      "tanks are set aside automatically",
      "tanks are set aside automatically",
      "the roll 1T 5R 3H 4K shows no cows",
      "the roll shows 3 humans, not 2",
      "the roll 1T 5R 3H 4K shows no cows",
      "the roll 1T 5R 3H 4K shows no cows",
      "take one face",
      "take one face (R, H, C or K), not 'humans cows'",
      "unknown entry 'jump'",
      "take: name the face, e.g. 'take humans' or 'take H'",
      "the line is longer than 1024 bytes",
      "cannot take now: the game waits for seat 0 to stop or roll on",
      "cannot take now"};
  REQUIRE(refused.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(refused[i]["message"].text.find(expected[i]) != std::string::npos);
  }
  // Refusals changed nothing: the take of 3 humans, then the stop (1T 3H
  // scores 0: a tank, no ray).
  const std::vector<Json> takes = Named(events, "take");
  REQUIRE(takes.size() >= 1);
  CHECK(takes[0]["take"].text == "human");
  CHECK(takes[0]["aside"].text == "1T 3H");
  const std::vector<Json> ends = Named(events, "turn_end");
  REQUIRE(ends.size() >= 1);
  CHECK(ends[0]["reason"].text == "stop");
  CHECK(ends[0]["score"].number == 0);
  // Text: one "Refused:" line per bad entry.
  const CliRun text = Play({"--seed", "3"}, bad);
  std::size_t lines = 0;
  for (std::size_t at = text.out.find("Refused: "); at != std::string::npos;
       at = text.out.find("Refused: ", at + 1)) {
    ++lines;
  }
  CHECK(lines == expected.size());
}

// A human who always rolls on meets rolls with one legal take: they are made
// for them (a forced event, then the take, never a prompt with one choice);
// --ask-forced prompts for them instead.
TEST_CASE("play: a take with one legal choice is made for you, --ask-forced prompts for it") {
  int forced_games = 0, prompted_games = 0;
  for (const std::string seed : {"1", "2", "3", "4", "5", "6"}) {
    CAPTURE(seed);
    const CliRun run = Play({"--seed", seed, "--json"}, Stubborn(300, "roll"));
    REQUIRE(run.code == 0);
    const std::vector<Json> events = Events(run);
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (events[i]["event"].text == "prompt" && events[i]["decision"].text == "take") {
        CHECK(events[i]["legal"].items.size() > 1);
      }
      if (events[i]["event"].text != "forced") continue;
      REQUIRE(i + 1 < events.size());
      CHECK(events[i + 1]["event"].text == "take");
      CHECK(events[i + 1]["seat"].number == events[i]["seat"].number);
      CHECK(events[i + 1]["take"].text == events[i]["take"].text);
      CHECK(events[i + 1]["count"].number == events[i]["count"].number);
    }
    if (!Named(events, "forced").empty()) ++forced_games;
    const CliRun asked = Play({"--seed", seed, "--json", "--ask-forced"}, Stubborn(300, "roll"));
    REQUIRE(asked.code == 0);
    const std::vector<Json> asked_events = Events(asked);
    CHECK(Named(asked_events, "forced").empty());
    for (const Json& prompt : Named(asked_events, "prompt")) {
      if (prompt["decision"].text == "take" && prompt["legal"].items.size() == 1) {
        ++prompted_games;
        break;
      }
    }
  }
  CHECK(forced_games > 0);  // not vacuous
  CHECK(prompted_games > 0);
  // The text says so in a line.
  const CliRun text = Play({"--seed", "1"}, Stubborn(300, "roll"));
  REQUIRE(text.code == 0);
  const std::regex line("\nSeat 0: the only legal take is [0-9]+ [a-z]+, taken for you\\.\n");
  CHECK(std::regex_search(text.out, line));
}

TEST_CASE("play: the end of input or quit mid game ends cleanly, exit 4") {
  const CliRun ended = Play({"--seed", "3"}, "h\nroll\nr\nstop\n");
  CHECK(ended.code == 4);
  CHECK(ended.err.empty());
  // No log kept: no word of one but the line saying how to keep it.
  CHECK(ended.out.find("The input ended in turn 3, before the game ended.\n") != std::string::npos);
  CHECK(ended.out.find("Game log: not kept") != std::string::npos);
  const CliRun printed = Play({"--seed", "3", "--print-log"}, "h\nroll\nr\nstop\n");
  CHECK(printed.out.find("The input ended in turn 3, before the game ended: the log holds") !=
        std::string::npos);
  // The log holds the turns that ended: review reads it.
  const CliRun json = Play({"--seed", "3", "--json"}, "h\nroll\nr\nstop\n");
  REQUIRE(json.code == 4);
  const std::vector<Json> events = Events(json);
  REQUIRE(Named(events, "abandoned").size() == 1);
  CHECK(Named(events, "abandoned")[0]["reason"].text == "end of input");
  const Json review = Review(LogText(events), {"--objective", "win"});
  CHECK(review["turns"].items.size() >= 1);
  const CliRun quit = Play({"--seed", "3", "--json"}, "quit\nh\n");
  CHECK(quit.code == 4);
  CHECK(Named(Events(quit), "abandoned")[0]["reason"].text == "quit");
  CHECK(Play({"--seed", "3"}).code == 4);  // no input at all
}

TEST_CASE("play: where no table covers the game, the fallback, said once") {
  const CliRun run = Play({"--players", "6", "--humans", "none", "--seed", "4"});
  REQUIRE(run.code == 0);
  const std::string note =
      "No policy table covers this game: no policy table martiandice-p6-d13-b3-t25.mdt";
  CHECK(run.out.find(note) != std::string::npos);
  CHECK(run.out.find(note, run.out.find(note) + 1) == std::string::npos);
  // Lines wrapped at 80 columns: a continuation line starts with spaces.
  std::string joined = run.out;
  for (std::size_t at; (at = joined.find("\n  ")) != std::string::npos;) {
    joined.replace(at, joined.find_first_not_of(' ', at + 1) - at, " ");
  }
  CHECK(joined.find("play the fallback: the expected turn score capped at the points still needed "
                    "to reach the target; in the final round, the chance to pass the leader (a tie "
                    "counting its share).") != std::string::npos);
  CHECK(run.out.find("mpirun -np 5 martiandice solve --players 6") != std::string::npos);
  // Hints for a human in the fallback, and the review in its values.
  const CliRun human =
      Play({"--players", "6", "--seed", "4", "--hints", "--json"}, Stubborn(300, "roll"));
  REQUIRE(human.code == 0);
  const std::vector<Json> events = Events(human);
  const Json start = Named(events, "start").at(0);
  CHECK(start["table"].is_null());
  CHECK(start["seats"].items[1]["fallback"].boolean);
  for (const Json& hint : Named(events, "hint")) {
    CHECK(hint["fallback"].boolean);
    const std::string& values = hint["values"].text;
    CHECK((values.rfind("capped:", 0) == 0 || values.rfind("final:", 0) == 0));
  }
  const std::vector<Json> reviews = Named(events, "review");
  REQUIRE(reviews.size() == 1);
  // No rating: the fallback's losses are points, not chances to win.
  CHECK(reviews[0]["rating"].is_null());
  for (const Json& d : reviews[0]["decisions"].items) CHECK(d["class"].is_null());
  // review --objective win replays the log by the same fallback: the human's
  // mistakes and losses (the bots play the fallback: none).
  const Json replayed = Review(LogText(events), {"--objective", "win"});
  CHECK(replayed["fallback_reason"].text.find("no policy table martiandice-p6") !=
        std::string::npos);
  CHECK(replayed["total_loss"].number == 0);
  CHECK(reviews[0]["total_loss"].number == 0);  // no table: no chance to win measured
  CHECK(replayed["ratings"].items.empty());
  CHECK(replayed["mistakes"].number == reviews[0]["mistakes"].number);
  // Points before the final round, chances in it: two totals, each the play review's.
  CHECK(replayed["fallback_loss"].number == doctest::Approx(reviews[0]["fallback_loss"].number));
  CHECK(reviews[0]["fallback_loss"].number > 0);
  CHECK(replayed["fallback_final_loss"].number ==
        doctest::Approx(reviews[0]["fallback_final_loss"].number));
  int final_turns = 0;
  for (const Json& turn : replayed["turns"].items) {
    CHECK(turn["fallback"].boolean);
    const bool final_round = turn["final_round"].boolean;
    CHECK(turn["values"].text.rfind(final_round ? "final:" : "capped:", 0) == 0);
    final_turns += final_round;
  }
  CHECK(final_turns > 0);
  // The text's summary names both totals, each in its unit.
  std::istringstream log(LogText(events));
  martiandice::CliEnvironment environment;
  environment.in = &log;
  const CliRun text = cli_test::Run({"review", "-", "--objective", "win"}, environment);
  REQUIRE(text.code == 0);
  CHECK(text.out.find(" in the fallback's points, and ") != std::string::npos);
  CHECK(text.out.find(" percentage points of chance in the fallback's final round.\n") !=
        std::string::npos);
}

// Under the fallback the costliest decisions rank each unit apart: a final
// round's chance lost (the game itself) before points.
TEST_CASE("play: the fallback's costliest decisions put final-round chances first") {
  std::string input;
  for (int i = 0; i < 3000; ++i) input += "take h\ntake c\ntake k\ntake r\nstop\n";
  const CliRun run = Play({"--players", "4", "--humans", "0,1,2,3", "--seed", "37"}, input);
  REQUIRE(run.code == 0);
  const std::size_t seat = run.out.find("Review of seat 2 (human): ");
  REQUIRE(seat != std::string::npos);
  const std::string review = run.out.substr(seat, run.out.find("Review of seat 3") - seat);
  CHECK(review.find(" in the\n  fallback's points (capped at what was needed), and ") !=
        std::string::npos);
  CHECK(review.find("percentage points of\n  chance in the final round.") != std::string::npos);
  const std::size_t costliest = review.find("The costliest decisions:\n  turn ");
  REQUIRE(costliest != std::string::npos);
  const std::size_t first_final = review.find("[final:", costliest);
  const std::size_t first_points = review.find("[capped:", costliest);
  REQUIRE(first_final != std::string::npos);
  REQUIRE(first_points != std::string::npos);
  CHECK(first_final < first_points);
}

// The longest line of `text`, in characters (UTF-8).
std::size_t LongestLine(const std::string& text) {
  std::size_t longest = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto chars = static_cast<std::size_t>(
        std::count_if(line.begin(), line.end(), [](char c) { return (c & 0xC0) != 0x80; }));
    longest = std::max(longest, chars);
  }
  return longest;
}

TEST_CASE("play: the text wraps to a narrower terminal's columns") {
  const std::string input = Stubborn(60);
  const CliRun wide = Play({"--seed", "3", "--hints", "--players", "3"}, input);
  std::istringstream in(input);
  martiandice::CliEnvironment narrow;
  narrow.in = &in;
  narrow.columns = 60;  // the advice's table takes 58
  const CliRun run = cli_test::Run({"play", "--seed", "3", "--hints", "--players", "3"}, narrow);
  REQUIRE(wide.code == run.code);
  CHECK(LongestLine(wide.out) > 60);  // the same game at 80 columns has longer lines
  CHECK(LongestLine(run.out) <= 60);
  // The same words, only broken elsewhere.
  const auto words = [](const std::string& text) {
    std::vector<std::string> all;
    std::istringstream in(text);
    for (std::string word; in >> word;) all.push_back(word);
    return all;
  };
  CHECK(words(run.out) == words(wide.out));
}

TEST_CASE("play: --log writes the log atomically, the same lines") {
  test_util::TempDir dir;
  const std::string file = dir.str() + "/game.log";
  const CliRun run = Play({"--humans", "none", "--seed", "9", "--log", file, "--json"});
  REQUIRE(run.code == 0);
  const std::vector<Json> events = Events(run);
  REQUIRE(Named(events, "log").size() == 1);
  CHECK(Named(events, "log")[0]["path"].text == file);
  const CliRun inline_log = Play({"--humans", "none", "--seed", "9", "--json"});
  CHECK(test_util::ReadFile(file) == LogText(Events(inline_log)));
  // With --print-log too, the text form writes the file and prints the same log.
  const std::string both = dir.str() + "/both.log";
  const CliRun text = Play({"--humans", "none", "--seed", "9", "--log", both, "--print-log"});
  REQUIRE(text.code == 0);
  CHECK(test_util::ReadFile(both) == test_util::ReadFile(file));
  CHECK(text.out.find("Game log written to " + both) != std::string::npos);
  const std::string header = " - replays it):\n";
  const std::size_t at = text.out.find(header);
  REQUIRE(at != std::string::npos);
  CHECK(text.out.substr(at + header.size()) == test_util::ReadFile(file));
}

// The review command printed with the log names what review needs to read
// it (the rules that differ from the defaults); with no turn ended, the log
// is empty and no command is offered.
TEST_CASE("play: the log's review command replays it, and no turn ended offers none") {
  test_util::TempDir dir;
  const std::string file = dir.str() + "/six.log";
  const CliRun six = Play({"--humans", "none", "--seed", "1", "--dice", "6", "--bonus", "2",
                           "--target", "15", "--log", file});
  REQUIRE(six.code == 0);
  // No table for these rules: the advice was the fallback's.
  const std::string command =
      "martiandice review --objective win --dice 6 --bonus 2 --target 15 " + file;
  CHECK(six.out.find("(replay it: " + command + ")") != std::string::npos);
  const Json review = Review(test_util::ReadFile(file), {"--objective", "win", "--dice", "6",
                                                         "--bonus", "2", "--target", "15"});
  CHECK(review["turns"].items.size() >= 2);
  CHECK(review["fallback_reason"].text.find("no policy table") != std::string::npos);
  // The official rules and table: the win objective, and --tables when given.
  const std::string official = dir.str() + "/official.log";
  const CliRun two = Play(
      {"--humans", "none", "--seed", "9", "--tables", MARTIANDICE_DATA_DIR, "--log", official});
  REQUIRE(two.code == 0);
  CHECK(two.out.find("(replay it: martiandice review --objective win --tables ") !=
        std::string::npos);
  CHECK(two.out.find(" " + official + ").") != std::string::npos);
  const std::string none = dir.str() + "/none.log";
  test_util::WriteFile(none, "an earlier game's log\n");
  const CliRun quit = Play({"--seed", "3", "--log", none}, "quit\n");
  CHECK(quit.code == 4);
  CHECK(quit.out.find("Game log written to " + none + ": no turn ended, nothing to replay.") !=
        std::string::npos);
  CHECK(test_util::ReadFile(none).empty());
  const CliRun unkept = Play({"--seed", "3"}, "quit\n");
  CHECK(unkept.out.find("Game log: no turn ended, nothing to replay.") != std::string::npos);
}

TEST_CASE("play: bad options are refused before the game, exit 2") {
  cli_test::CheckUsageError({"play", "--humans", "2"}, "--humans: seat 2 is out of range");
  cli_test::CheckUsageError({"play", "--humans", "0,0"}, "--humans: seat 0 is given twice");
  cli_test::CheckUsageError({"play", "--humans", "x"}, "--humans");
  cli_test::CheckUsageError({"play", "--players", "7"}, "--players");
  cli_test::CheckUsageError(
      {"play", "--bots", "bogus"},
      "--bots: unknown policy 'bogus' (use win, ev, capped, capped:M, fallback, reach:K, "
      "random, stop:K, cautious or bold)\n");
  cli_test::CheckUsageError({"play", "--bots", "reach:x"},
                            "--bots: unknown policy 'reach:x' (use ");
  cli_test::CheckUsageError({"play", "--bots", "reach:x"}, "bold): ");  // and what is wrong with K
  cli_test::CheckUsageError({"play", "--players", "3", "--bots", "ev,ev,ev"},
                            "--bots: 3 policies for 2 bot seats");
  cli_test::CheckUsageError({"play", "--seed", "-1"}, "--seed");
  cli_test::CheckUsageError({"play", "--log", "/nonexistent/dir/x.log"}, "--log: ");
  cli_test::CheckUsageError({"play", "--dice", "0"}, "invalid rules");
}

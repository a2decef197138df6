// `martiandice coach` (tools/coach.cpp), driven through its input like a
// pipe: the rulebook's sample turn advised as `best` and `eval` advise it; a
// whole 3-player game typed in, its winner and totals as counted by hand, its
// log what `review` replays; `undo`; every kind of bad entry refused with one
// line and nothing changed; the fallback where no table covers the game; bad
// options.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "cli_test_util.h"
#include "test_util.h"

namespace {

using cli_test::CliRun;
using cli_test::Json;

CliRun Coach(std::vector<std::string> options, const std::string& input) {
  std::istringstream in(input);
  martiandice::CliEnvironment environment;
  environment.in = &in;
  options.insert(options.begin(), "coach");
  return cli_test::Run(options, environment);
}

using test_util::Lines;

// The "state" object of an event line, as written (it holds no object),
// without its last field, the entries `undo` can take back.
std::string RawState(const std::string& line) {
  const std::size_t at = line.find("\"state\":{");
  REQUIRE(at != std::string::npos);
  const std::string state = line.substr(at, line.find('}', at) - at + 1);
  return state.substr(0, state.rfind(",\"undo\":"));
}

std::vector<Json> Events(const CliRun& run) {
  std::vector<Json> events;
  for (const std::string& line : Lines(run.out)) events.push_back(cli_test::ParseJsonOrFail(line));
  return events;
}

std::vector<Json> Named(const std::vector<Json>& events, const std::string& name) {
  std::vector<Json> found;
  for (const Json& event : events) {
    if (event["event"].text == name) found.push_back(event);
  }
  return found;
}

std::string LogText(const std::vector<Json>& events) {
  const std::vector<Json> logs = Named(events, "log");
  REQUIRE(logs.size() == 1);
  std::string text;
  for (const Json& line : logs[0]["lines"].items) text += line.text + "\n";
  return text;
}

void CheckSameValue(const Json& a, const Json& b) {
  if (b.is_null()) {
    CHECK(a.is_null());
  } else {
    CHECK(a.number == b.number);
  }
}

// docs/RULES.md's sample turn, entered as the rulebook tells it.
const char kSampleTurn[] =
    "roll 2T 3R 4H 3C 1K\n"
    "take humans\n"
    "roll 1T 2R 3C 1K\n"
    "take R\n"
    "roll 2H 1C 1K\n"
    "take K\n"
    "roll 1 ray 1 human 1 cow\n"
    "take 1R\n"
    "stop\n";

}  // namespace

TEST_CASE("coach: the rulebook's sample turn gets best's and eval's advice") {
  const CliRun run = Coach({"--json"}, kSampleTurn);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  const std::vector<Json> events = Events(run);
  const std::vector<Json> applied = Named(events, "applied");
  REQUIRE(applied.size() == 9);
  int takes = 0;
  int stops = 0;
  for (const Json& event : applied) {
    const Json& state = event["state"];
    if (state["phase"].text == "over" || event["advice"].is_null()) continue;
    const Json& advice = event["advice"];
    CHECK(advice["values"].text == "win");
    if (state["phase"].text == "take") {
      ++takes;
      // The set-aside before the roll: the previous entry's.
      const std::string roll = state["roll"].text;
      const std::size_t index = static_cast<std::size_t>(&event - applied.data());
      const std::string aside_before = index == 0 ? "-" : applied[index - 1]["state"]["aside"].text;
      const Json best = cli_test::RunJson(
          {"best", "--json", "--scores", "0,0", "--aside", aside_before, "--roll", roll});
      REQUIRE(best["options"].items.size() == advice["options"].items.size());
      for (std::size_t i = 0; i < best["options"].items.size(); ++i) {
        const Json& want = best["options"].items[i];
        const Json& got = advice["options"].items[i];
        CHECK(got["take"].text == want["take"].text);
        CHECK(got["count"].number == want["count"].number);
        CHECK(got["then"].text == want["then"].text);
        CHECK(got["optimal"].boolean == want["optimal"].boolean);
        CheckSameValue(got["stop"], want["stop"]);
        CheckSameValue(got["roll"], want["roll"]);
        CHECK(got["value"].number == want["value"].number);
      }
      CHECK(advice["best"]["take"].text == best["best"]["take"].text);
      CHECK(advice["best"]["then"].text == best["best"]["then"].text);
    } else if (state["phase"].text == "stop_or_roll") {
      ++stops;
      const Json eval =
          cli_test::RunJson({"eval", "--json", "--scores", "0,0", "--aside", state["aside"].text});
      CHECK(advice["stop"].number == eval["stop"].number);
      CHECK(advice["roll"].number == eval["roll"].number);
      CHECK(advice["action"].text == eval["action"].text);
      CHECK(advice["zero_chance"].number > 0);
      CHECK(advice["zero_chance"].number < 1);
    }
  }
  CHECK(takes == 4);
  CHECK(stops == 4);
  // The turn: 3T 3R 4H 1K scores 5, seat 1 to move.
  const Json& last = applied.back();
  REQUIRE(last["turn_ends"].items.size() == 1);
  CHECK(last["turn_ends"].items[0]["score"].number == 5);
  CHECK(last["turn_ends"].items[0]["aside"].text == "3T 3R 4H 1K");
  CHECK(last["state"]["seat"].number == 1);
  CHECK(last["state"]["scores"].items[0].number == 5);
  // The text: best's table after each roll, the chance of losing the points.
  const CliRun text = Coach({}, kSampleTurn);
  REQUIRE(text.code == 0);
  CHECK(text.out.find("  Best: take 4 humans, then roll on.") != std::string::npos);
  CHECK(text.out.find("  Best: take 2 rays, then roll on.") != std::string::npos);
  CHECK(text.out.find("Rolling on ends the turn with 0 points with chance") != std::string::npos);
  CHECK(text.out.find("Seat 0 stops with 3T 3R 4H 1K and scores 5. Scores: 5, 0.") !=
        std::string::npos);
  // Its log is review's input for the turn: the same lines, canonical.
  const std::string log =
      "scores 0,0 seat 0\n"
      "roll 2T 3R 4H 3C 1K take H\n"
      "roll 1T 2R 3C 1K take R\n"
      "roll 2H 1C 1K take K\n"
      "roll 1R 1H 1C take R\n"
      "stop\n";
  CHECK(LogText(events) == log);
  // And review's lines are coach's: fed back, the same game.
  const CliRun again = Coach({"--json"}, log);
  REQUIRE(again.code == 0);
  const std::vector<Json> replayed = Named(Events(again), "applied");
  CHECK(replayed.size() == 6);
  CHECK(RawState(Lines(again.out).at(Lines(again.out).size() - 3)) ==
        RawState(Lines(run.out).at(Lines(run.out).size() - 3)));
}

TEST_CASE("coach: a whole 3-player game typed in, the winner and totals by hand") {
  // Round 1: seat 0 the rulebook's turn (5); seat 1 enters 8; seat 2 takes
  // 10 humans (1T 10H: 0 so far), then 2 rays: no dice left, 10 points.
  // Round 2: seat 0 enters 12 (17); seat 1 enters 16 (24); seat 2 rolls 13
  // tanks: no take, 0 (10). Round 3: seat 0 enters 8 (25, the target: the
  // final round); seat 1 enters 1 (25); seat 2 needs 16 to overtake: it
  // takes 4 humans, 5 cows, 4 chickens: no dice left, 13 + the bonus 3.
  const std::string game = std::string(kSampleTurn) +
                           "score 8\n"
                           "roll 1T 2R 10H take human\n"
                           "roll 2R take R\n"
                           "score 12\n"
                           "score 16\n"
                           "roll 13T\n"
                           "score 8\n"
                           "score 1\n"
                           "roll 4H 5C 4K take H\n"
                           "roll 5C 4K take C\n"
                           "roll 4K take K\n";
  const CliRun run = Coach({"--players", "3", "--json"}, game);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  const std::vector<Json> events = Events(run);
  CHECK(Named(events, "refused").empty());
  std::vector<int> scores;
  std::vector<std::string> reasons;
  for (const Json& event : Named(events, "applied")) {
    for (const Json& end : event["turn_ends"].items) {
      scores.push_back(static_cast<int>(end["score"].number));
      reasons.push_back(end["reason"].text);
    }
  }
  CHECK(scores == std::vector<int>{5, 8, 10, 12, 16, 0, 8, 1, 16});
  CHECK(reasons == std::vector<std::string>{"stop", "entered", "no_dice_left", "entered", "entered",
                                            "no_legal_take", "entered", "entered", "no_dice_left"});
  const Json last = Named(events, "applied").back();
  CHECK(last["state"]["phase"].text == "over");
  CHECK(last["advice"].is_null());
  std::vector<int> totals;
  for (const Json& s : last["state"]["scores"].items) totals.push_back(static_cast<int>(s.number));
  CHECK(totals == std::vector<int>{25, 25, 26});
  REQUIRE(last["state"]["winners"].items.size() == 1);
  CHECK(last["state"]["winners"].items[0].number == 2);
  // The final round was flagged from seat 0's 25 on.
  bool final_round = false;
  for (const Json& event : Named(events, "applied")) {
    if (event["entry"].text == "score 1") final_round = event["state"]["final_round"].boolean;
  }
  CHECK(final_round);
  // Over: a further entry is refused.
  const CliRun more = Coach({"--players", "3"}, game + "roll 13R\n");
  CHECK(more.out.find("Refused: cannot roll: the game is over (undo takes back the last entry).") !=
        std::string::npos);
  CHECK(more.out.find("Game over. Scores: 25, 25, 26. Seat 2 wins.") != std::string::npos);
  // `review` replays the log: the turns played move by move, their scores.
  std::istringstream in(LogText(events));
  martiandice::CliEnvironment environment;
  environment.in = &in;
  const CliRun review = cli_test::Run({"review", "-", "--json", "--objective", "win"}, environment);
  INFO("review: " << review.err);
  REQUIRE(review.code == 0);
  const Json reviewed = cli_test::ParseJsonOrFail(review.out);
  std::vector<int> played;
  for (const Json& turn : reviewed["turns"].items) {
    played.push_back(static_cast<int>(turn["score"].number));
  }
  CHECK(played == std::vector<int>{5, 10, 0, 16});
}

TEST_CASE("coach: the text wraps to a narrower terminal's columns") {
  std::istringstream in(kSampleTurn);
  martiandice::CliEnvironment narrow;
  narrow.in = &in;
  narrow.columns = 60;
  const CliRun run = cli_test::Run({"coach"}, narrow);
  REQUIRE(run.code == 0);
  const CliRun wide = Coach({}, kSampleTurn);
  std::size_t longest = 0;
  std::size_t longest_wide = 0;
  for (const std::string& line : Lines(run.out)) longest = std::max(longest, line.size());
  for (const std::string& line : Lines(wide.out))
    longest_wide = std::max(longest_wide, line.size());
  CHECK(longest <= 60);
  CHECK(longest_wide > 60);
}

TEST_CASE("coach: undo takes back entries one by one") {
  const CliRun run = Coach({"--json"}, "roll 2T 3R 4H 3C 1K\ntake H\nstop\nundo\nundo\nundo\n");
  REQUIRE(run.code == 0);
  const std::vector<std::string> lines = Lines(run.out);
  // start, state, 3 applied, 3 undone, end, log.
  REQUIRE(lines.size() == 10);
  CHECK(RawState(lines[7]) == RawState(lines[1]));  // back at the start
  CHECK(RawState(lines[6]) == RawState(lines[2]));  // after the roll
  CHECK(RawState(lines[5]) == RawState(lines[3]));  // after the take
  const std::vector<Json> events = Events(run);
  CHECK(Named(events, "undone")[0]["entry"].text == "stop");
  CHECK(LogText(events).empty());
  const CliRun text = Coach({}, "score 7\nundo\n");
  CHECK(text.out.find("Undone: score 7.") != std::string::npos);
}

TEST_CASE("coach: every kind of bad entry gets one line and changes nothing") {
  struct Bad {
    std::string entry;
    std::string message;
  };
  // Each group of bad entries follows the good entries that set the game up.
  const std::vector<std::pair<std::string, std::vector<Bad>>> script = {
      {"",
       {{"undo", "nothing to undo"},
        {"take H", "cannot take now: the game waits for seat 0 to roll"},
        {"stop", "cannot stop now"},
        {"roll on", "enter the dice rolled: roll DICE (the 13 dice rolled)"},
        {"roll 12R", "12"},
        {"roll 2X 11R", "roll: "},
        {"roll", "enter the dice rolled"},
        {"roll take H", "roll: give the dice rolled before 'take'"},
        {"score 17", "17 points is not a score a turn can have"},
        {"score -1", "not a score a turn can have"},
        {"score x", "score: expected the whole turn's points"},
        {"scores 1,2,3", "scores: 3 totals for 2 players"},
        {"scores 30,30", "scores: "},
        {"scores 1,2 seat 2", "scores: "},
        {"roll 2T 3R 4H 3C 1K take T", "tanks are set aside automatically"},
        {"roll 2T 3R 4H 4C take K", "no chickens"},
        {"roll 2T 3R 4H 3C 1K take HHH", "the roll shows 4 humans, not 3"},
        {"jump", "unknown entry 'jump'"}}},
      {"roll 2T 3R 4H 3C 1K\n",
       {{"roll 2T 3R 4H 3C 1K", "; undo takes back the roll entered"},
        {"take tank", "tanks are set aside automatically"},
        {"take 2H", "the roll shows 4 humans, not 2"},
        {"take humans cows", "take one face"},
        {"take", "take: name the face"},
        {"stop", "cannot stop now"},
        {"score 5", "cannot enter a whole turn now"},
        {"scores 0,0", "scores: only at a turn's start"}}},
      {"take H\n",
       {{"take R", "cannot take now"},
        {"roll 8R", "8"},
        {"roll 1T 2R 3H 1K take H", "humans are already set aside"},
        {"stop now", "'stop' takes nothing after it"}}},
  };
  std::string input;
  std::vector<Bad> expected;
  for (const auto& [good, bad] : script) {
    input += good;
    for (const Bad& b : bad) {
      input += b.entry + "\n";
      expected.push_back(b);
    }
  }
  const CliRun run = Coach({"--json"}, input);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  const std::vector<std::string> lines = Lines(run.out);
  std::size_t refused = 0;
  std::string state;  // the state after the last accepted entry
  for (const std::string& line : lines) {
    const Json event = cli_test::ParseJsonOrFail(line);
    const std::string name = event["event"].text;
    if (name == "state" || name == "applied") state = RawState(line);
    if (name != "refused") continue;
    REQUIRE(refused < expected.size());
    CAPTURE(expected[refused].entry);
    CHECK(event["entry"].text == expected[refused].entry);
    CHECK(event["message"].text.find(expected[refused].message) != std::string::npos);
    CHECK(RawState(line) == state);
    ++refused;
  }
  CHECK(refused == expected.size());
  // The game went on from the take: 2T 4H set aside.
  CHECK(state.find("\"aside\":\"2T 4H\"") != std::string::npos);
  // Text: one "Refused:" line per bad entry.
  const CliRun text = Coach({}, input);
  std::size_t count = 0;
  for (const std::string& line : Lines(text.out)) count += line.rfind("Refused: ", 0) == 0;
  CHECK(count == expected.size());
  // In 80 columns (the long refusals wrapped), the table's path on a line of
  // its own.
  for (const std::string& line : Lines(text.out)) {
    CAPTURE(line);
    CHECK(
        (line.size() <= 80 || line == "  " MARTIANDICE_DATA_DIR "/martiandice-p2-d13-b3-t25.mdt"));
  }
  CHECK(text.out.find("from the table\n  " MARTIANDICE_DATA_DIR) != std::string::npos);
}

// A line is read whole or refused: 1024 bytes (a "\r\n" after them) are read;
// a longer line is refused, not read cut (its first 1024 bytes say score 1).
TEST_CASE("coach: a line over 1024 bytes is refused, never read cut") {
  const std::string long_score = "score " + std::string(1017, '0') + "12";  // 1025 bytes
  const std::string score = "score " + std::string(1016, '0') + "12";       // 1024 bytes
  const CliRun run = Coach({"--json"}, long_score + "\n" + score + "\r\n");
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  std::vector<Json> events;
  for (const std::string& line : Lines(run.out)) {
    events.push_back(cli_test::ParseJsonOrFail(line));
  }
  std::vector<std::string> names;
  for (const Json& event : events) names.push_back(event["event"].text);
  REQUIRE(std::count(names.begin(), names.end(), "refused") == 1);
  REQUIRE(std::count(names.begin(), names.end(), "applied") == 1);
  for (const Json& event : events) {
    if (event["event"].text == "refused") {
      CHECK(event["message"].text == "the line is longer than 1024 bytes");
      CHECK(event["entry"].text == long_score.substr(0, 1024));
    } else if (event["event"].text == "applied") {
      CHECK(event["entry"].text == score);
      CHECK(event["state"]["scores"].items.at(0).number == 12);
    }
  }
}

TEST_CASE("coach: where no table covers the game, the fallback's expected points") {
  const CliRun run = Coach({"--players", "6", "--scores", "20,3,4,5,24,1", "--seat", "1"},
                           "roll 2T 3R 4H 3C 1K\ntake H\n");
  REQUIRE(run.code == 0);
  CHECK(run.out.find("No policy table covers this game: no policy table martiandice-p6") !=
        std::string::npos);
  CHECK(run.out.find("The advice plays the fallback: the expected turn score capped at the points\n"
                     "  still needed to reach the target; in the final round, the chance to pass "
                     "the\n  leader (a tie counting its share).") != std::string::npos);
  CHECK(run.out.find("mpirun -np 5 martiandice solve --players 6") != std::string::npos);
  const CliRun json = Coach({"--players", "6", "--json"}, "roll 2T 3R 4H 3C 1K\ntake H\n");
  REQUIRE(json.code == 0);
  for (const Json& event : Named(Events(json), "applied")) {
    CHECK(event["advice"]["fallback"].boolean);
    CHECK(event["advice"]["values"].text == "capped:25");
  }
}

// The audit's stop: 9 points short of the leader's 25 in the final round lose
// whatever is kept, so the fallback rolls on, in chances (capped:11 stopped).
TEST_CASE("coach: in the final round the fallback plays to pass the leader, in chances") {
  const CliRun run = Coach({"--players", "4", "--scores", "10,25,20,14", "--seat", "3"},
                           "roll 1T 1R 6H 3C 2K\ntake H\nroll on\nroll 1R 2C 3K\ntake R\n"
                           "roll on\nroll 3C 2K\ntake C\n");
  REQUIRE(run.code == 0);
  CHECK(run.out.find("Values: the fallback's final:12/1, as chances: chance to score at least 12 "
                     "and\n    pass the leader (a tie at 11 with 1 seat counts 1/2).") !=
        std::string::npos);
  CHECK(run.out.find("Seat 3: set aside 1T 1R 6H 3C, 2 dice left, 9 points so far.\n"
                     "  stop 0.00%, roll on ") != std::string::npos);
  CHECK(run.out.rfind(": best roll on.") > run.out.find("9 points so far"));
  const CliRun json = Coach({"--players", "4", "--scores", "10,25,20,14", "--seat", "3", "--json"},
                            "roll 1T 1R 6H 3C 2K\n");
  REQUIRE(json.code == 0);
  const std::vector<Json> applied = Named(Events(json), "applied");
  REQUIRE_FALSE(applied.empty());
  for (const Json& event : applied) {
    CHECK(event["advice"]["fallback"].boolean);
    CHECK(event["advice"]["values"].text == "final:12/1");
  }
}

// The fallback's values are said again whenever they change: from points
// (capped:M) to chances once the final round begins, and on `state`.
TEST_CASE("coach: the fallback's values are said again when they change") {
  const std::string roll = "roll 2T 3R 4H 3C 1K\n";
  const CliRun run = Coach({"--players", "4", "--scores", "24,20,10,14"},
                           roll + "undo\nscore 5\n" + roll + "undo\nscore 3\n" + roll + "state\n");
  REQUIRE(run.code == 0);
  const auto at = [&](const std::string& text) { return run.out.find(text); };
  const std::size_t capped = at("Values: the fallback's capped:1, in points:");
  const std::size_t final = at("Values: the fallback's final:10/1, as chances:");
  const std::size_t again = at("Values: the fallback's final:20/1, as chances:");
  REQUIRE(capped != std::string::npos);
  REQUIRE(final != std::string::npos);
  REQUIRE(again != std::string::npos);
  CHECK(capped < final);
  CHECK(final < again);
  // `state` says them once more.
  CHECK(run.out.find("Values: the fallback's final:20/1", again + 1) != std::string::npos);
}

TEST_CASE("coach: bad options are refused before the game, exit 2") {
  cli_test::CheckUsageError({"coach", "--players", "7"}, "--players");
  cli_test::CheckUsageError({"coach", "--scores", "1,2", "--players", "3"},
                            "--scores: 2 totals for 3 players");
  cli_test::CheckUsageError({"coach", "--scores", "1,x"}, "--scores: ");
  // A start that cannot be a turn's names the input at fault.
  cli_test::CheckUsageError({"coach", "--scores", "30,30"}, "--scores: ");
  cli_test::CheckUsageError({"coach", "--seat", "2"}, "--seat: ");
  cli_test::CheckUsageError({"coach", "--log", "/nonexistent/dir/x.log"}, "--log: ");
  cli_test::CheckUsageError({"coach", "--dice", "0"}, "invalid rules");
}

TEST_CASE("coach: --log writes the finished turns atomically, the lines it prints otherwise") {
  test_util::TempDir dir;
  const std::string file = dir.str() + "/coached.log";
  const std::string input = std::string(kSampleTurn) + "score 7\nroll 2T 3R 4H 3C 1K\n";
  const CliRun run = Coach({"--log", file}, input);
  REQUIRE(run.code == 0);
  CHECK(run.out.find("Game log written to " + file +
                     " (review it: martiandice review --objective win " + file + ")") !=
        std::string::npos);
  const CliRun json = Coach({"--json"}, input);
  REQUIRE(json.code == 0);
  // The turn in progress is left out: review reads whole turns.
  CHECK(test_util::ReadFile(file) == LogText(Events(json)));
  CHECK(test_util::ReadFile(file).find("scores 5,7 seat 0") == std::string::npos);
  CHECK(test_util::ReadFile(file).rfind("stop\n") + 5 == test_util::ReadFile(file).size());
  // Other rules: review needs them to read the log (no table: the fallback,
  // which review replays as the coach advised).
  const std::string six = dir.str() + "/six.log";
  const CliRun other = Coach({"--dice", "6", "--log", six}, "roll 2T 1R 3H take H\nstop\n");
  REQUIRE(other.code == 0);
  CHECK(other.out.find("(review it: martiandice review --objective win --dice 6 " + six + ")") !=
        std::string::npos);
  // No turn entered roll by roll ended: an empty log, no command offered.
  const std::string none = dir.str() + "/none.log";
  test_util::WriteFile(none, "an earlier game's log\n");
  const CliRun empty = Coach({"--log", none}, "roll 2T 3R 4H 3C 1K\nscore 7\n");
  REQUIRE(empty.code == 0);
  CHECK(empty.out.find("Game log written to " + none +
                       ": nothing to review (no turn was entered roll by roll to its end).") !=
        std::string::npos);
  CHECK(test_util::ReadFile(none).empty());
}

TEST_CASE("coach: a roll waiting for its take names what is set aside") {
  const CliRun run = Coach({}, "roll 1T 2R 3C 7K\n");
  REQUIRE(run.code == 0);
  CHECK(run.out.find("Seat 0 rolled 1T 2R 3C 7K; set aside: 1T.\n") != std::string::npos);
}

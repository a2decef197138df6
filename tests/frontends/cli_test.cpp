// Tests of the martiandice command line (tools/cli.h): the JSON contract of
// `eval`, `best` and `stats`, the human output, --help, every error path, and
// a few runs of the real executable. The game subcommands and the win
// objective are tested in cli_game_test.cpp.
#include "cli.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_test_util.h"
#include "martiandice/table.h"
#include "test_util.h"

namespace {

using cli_test::CheckBestConsistent;
using cli_test::CheckRules;
using cli_test::CheckStopRollValue;
using cli_test::CheckUsageError;
using cli_test::CliRun;
using cli_test::Close;
using cli_test::Json;
using cli_test::ParseJsonOrFail;
using cli_test::Run;
using cli_test::RunJson;

// "4 humans" from the JSON's face name, spelled here on its own (not the library's FaceCountText).
std::string TakeWords(const std::string& face, int count) {
  return std::to_string(count) + " " + face + (count == 1 ? "" : "s");
}

const std::vector<std::string> kSampleBest = {"best",   "--aside",     "2T 4H",
                                              "--roll", "1T 2R 3C 1K", "--json"};

}  // namespace

// ---------------------------------------------------------------------------

TEST_CASE("cli eval json at the start of a turn") {
  const Json eval = RunJson({"eval", "--json"});
  CheckRules(eval, 13, 3, 25);
  CHECK(eval["aside"].text == "-");
  CHECK(eval["dice_left"].number == 13);
  CHECK(eval["objective"].text == "ev");
  CHECK(eval["stop"].is_null());
  CHECK(eval["action"].text == "roll");
  CheckStopRollValue(eval, "action", false);
  CHECK(eval["value"].number > 0);
  CHECK(eval["value"].number < 16);
}

TEST_CASE("cli eval json mid turn and with no dice left") {
  const Json mid = RunJson({"eval", "--aside", "3t 3r 4h 1k", "--json"});
  CHECK(mid["aside"].text == "3T 3R 4H 1K");
  CHECK(mid["dice_left"].number == 2);
  CHECK(mid["stop"].number == 5);
  CheckStopRollValue(mid, "action", false);

  const Json done = RunJson({"eval", "--aside", "6R 7H", "--json"});
  CHECK(done["dice_left"].number == 0);
  CHECK(done["roll"].is_null());
  CHECK(done["stop"].number == 7);
  CHECK(done["action"].text == "stop");
  CheckStopRollValue(done, "action", false);
}

TEST_CASE("cli eval exact strings agree with the doubles") {
  for (const char* aside : {"", "2T 4H", "3T 3R 4H 1K", "6R 7H"}) {
    INFO("aside: " << aside);
    const Json eval = RunJson({"eval", "--aside", aside, "--exact", "--json"});
    CHECK(eval["precision"].text == "exact");
    CheckStopRollValue(eval, "action", true);
  }
  const Json start = RunJson({"eval", "--exact", "--json"});
  CHECK(start["stop_exact"].is_null());
  const Json approx = RunJson({"eval", "--json"});
  CHECK(Close(approx["value"].number, start["value"].number));
}

TEST_CASE("cli best json for the rulebook's sample roll") {
  const Json best = RunJson(kSampleBest);
  CheckRules(best, 13, 3, 25);
  CHECK(best["aside"].text == "2T 4H");
  CHECK(best["rolled"].text == "1T 2R 3C 1K");
  CHECK(best["aside_after_tanks"].text == "3T 4H");
  CHECK_FALSE(best["turn_over"].boolean);
  const Json& options = best["options"];
  REQUIRE(options.items.size() == 3);
  CHECK(options.items[0]["take"].text == "ray");
  CHECK(options.items[0]["count"].number == 2);
  CHECK(options.items[1]["take"].text == "cow");
  CHECK(options.items[1]["count"].number == 3);
  CHECK(options.items[2]["take"].text == "chicken");
  CHECK(options.items[2]["count"].number == 1);
  CheckBestConsistent(best, false);
}

TEST_CASE("cli best json exact agrees with double") {
  std::vector<std::string> args = kSampleBest;
  args.push_back("--exact");
  const Json exact = RunJson(args);
  CheckBestConsistent(exact, true);
  const Json approx = RunJson(kSampleBest);
  CHECK(Close(exact["value"].number, approx["value"].number));
  CHECK(exact["best"]["take"].text == approx["best"]["take"].text);
}

TEST_CASE("cli best json when the turn is over or no dice are left") {
  // No ray and every earthling already taken: no legal take; 1 tank vs 1 ray.
  const Json over = RunJson({"best", "--aside", "1R 2H 2C 2K", "--roll", "1T 2H 2C 1K", "--json"});
  CHECK(over["turn_over"].boolean);
  CHECK(over["turn_over_score"].number == 9);
  CHECK(over["value"].number == 9);
  CheckBestConsistent(over, false);

  const Json last = RunJson({"best", "--aside", "4R 4H", "--roll", "5C", "--json", "--exact"});
  REQUIRE(last["options"].items.size() == 1);
  const Json& option = last["options"].items[0];
  CHECK(option["take"].text == "cow");
  CHECK(option["roll"].is_null());
  CHECK(option["roll_exact"].is_null());
  CHECK(option["then"].text == "stop");
  CHECK(option["stop_exact"].text == "9/1");
  CheckBestConsistent(last, true);
}

TEST_CASE("cli objectives and rule variants are echoed and respected") {
  const Json reach = RunJson({"eval", "--objective", "reach:10", "--json"});
  CHECK(reach["objective"].text == "reach:10");
  CHECK(reach["value"].number >= 0);
  CHECK(reach["value"].number <= 1);
  const Json capped = RunJson({"best", "--roll", "13R", "--objective", "capped:5", "--json"});
  CHECK(capped["value"].number <= 5);
  CheckBestConsistent(capped, false);
  const Json small = RunJson({"eval", "--dice", "6", "--bonus", "0", "--target", "10", "--json"});
  CheckRules(small, 6, 0, 10);
  CHECK(small["dice_left"].number == 6);
  CHECK(small["value"].number <= 6);
}

TEST_CASE("cli stats json counts roll outcomes") {
  const Json stats = RunJson({"stats", "--json"});
  CheckRules(stats, 13, 3, 25);
  CHECK(stats["max_turn_score"].number == 16);
  CHECK(stats["positions"].number > 1);
  CHECK(stats["canonical_positions"].number <= stats["positions"].number);
  CHECK(stats["terminal_positions"].number > 0);
  CHECK(stats["roll_pairs"].number > 0);
  const Json& rolls = stats["roll_outcomes"];
  REQUIRE(rolls.items.size() == 13);
  for (int n = 1; n <= 13; ++n) {
    const Json& roll = rolls.items[n - 1];
    CHECK(roll["dice"].number == n);
    // Multisets of n dice over 5 faces: C(n + 4, 4).
    CHECK(roll["outcomes"].number == (n + 1) * (n + 2) * (n + 3) * (n + 4) / 24);
    CHECK(roll["ordered_results"].number == std::pow(6.0, n));
  }
  const CliRun text = Run({"stats", "--dice", "4"});
  CHECK(text.code == 0);
  CHECK(text.out.find("4 dice") != std::string::npos);
}

TEST_CASE("cli human output names the best move") {
  const Json json = RunJson(kSampleBest);
  const std::string take =
      TakeWords(json["best"]["take"].text, static_cast<int>(json["best"]["count"].number));
  const CliRun text = Run({"best", "--aside", "2T 4H", "--roll", "1T 2R 3C 1K"});
  CHECK(text.code == 0);
  CHECK(text.err.empty());
  CHECK(text.out.find("Best: take " + take + ", then ") != std::string::npos);
  CHECK(text.out.find("3 cows") != std::string::npos);
  CHECK(text.out.find("1 chicken ") != std::string::npos);
  CHECK(text.out.find('*') != std::string::npos);

  const CliRun exact = Run({"best", "--aside", "2T 4H", "--roll", "1T 2R 3C 1K", "--exact"});
  CHECK(exact.code == 0);
  CHECK(exact.out.find("exactly") != std::string::npos);
  CHECK(exact.out.find("Best: take " + take) != std::string::npos);

  const CliRun over = Run({"best", "--aside", "1R 2H 2C 2K", "--roll", "1T 2H 2C 1K"});
  CHECK(over.out.find("Turn over: no legal take; the turn scores 9.") != std::string::npos);
}

TEST_CASE("cli best's text ends with the set-aside and the dice the best take leaves") {
  // The rulebook's last roll: the ray, then roll the last 2 dice.
  const CliRun roll = Run({"best", "--aside", "3T 2R 4H 1K", "--roll", "1R 1H 1C"});
  CHECK(roll.out.size() > 0);
  CHECK(roll.out.substr(roll.out.rfind('\n', roll.out.size() - 2) + 1) ==
        "Next: 3T 3R 4H 1K set aside, roll 2 dice.\n");
  // Taking the chicken and stopping scores 4 + 3 + 1 + 3 = 11 (review's blunder turn).
  const CliRun stop = Run({"best", "--aside", "2T 2R 4H 3C", "--roll", "1R 1K"});
  CHECK(stop.out.find("Best: take 1 chicken, then stop.\nNext: 2T 2R 4H 3C 1K set aside, stop: "
                      "the turn scores 11.\n") != std::string::npos);
  // The cows take the last 2 dice: 7 earthlings of the three types, 7 + 3 = 10 points.
  const CliRun last = Run({"best", "--aside", "3T 3R 4H 1K", "--roll", "2C"});
  CHECK(last.out.find("Next: 3T 3R 4H 2C 1K set aside, no dice left: the turn scores 10.\n") !=
        std::string::npos);
}

TEST_CASE("cli human eval shows stop, roll and the decision") {
  const CliRun start = Run({"eval"});
  CHECK(start.code == 0);
  CHECK(start.out.find("not allowed") != std::string::npos);
  CHECK(start.out.find("Decision: roll") != std::string::npos);
  const CliRun mid = Run({"eval", "--aside", "3T 3R 4H 1K", "--exact"});
  CHECK(mid.code == 0);
  CHECK(mid.out.find("exactly 5/1") != std::string::npos);
  CHECK(mid.out.find("Decision: ") != std::string::npos);
  const CliRun done = Run({"eval", "--aside", "6R 7H"});
  CHECK(done.out.find("Decision: stop") != std::string::npos);
}

TEST_CASE("cli help goes to stdout, exit 0, and explains the fields") {
  const CliRun app = Run({"--help"});
  CHECK(app.code == 0);
  CHECK(app.err.empty());
  for (const char* word : {"eval", "best", "stats", "reach:K", "Tank"}) {
    CHECK(app.out.find(word) != std::string::npos);
  }
  const CliRun best = Run({"best", "--help"});
  CHECK(best.code == 0);
  for (const char* word :
       {"--roll", "take", "stop", "roll", "value", "then", "optimal", "turn_over"}) {
    CHECK(best.out.find(word) != std::string::npos);
  }
  const CliRun eval = Run({"eval", "-h"});
  CHECK(eval.code == 0);
  CHECK(eval.out.find("action") != std::string::npos);
  CHECK(Run({"stats", "--help"}).code == 0);
}

TEST_CASE("cli: every subcommand of the table is listed by --help and errors, and has its help") {
  const std::vector<std::string_view> names = martiandice::SubcommandNames();
  REQUIRE(names.size() >= 12);
  CHECK(std::find(names.begin(), names.end(), "eval") != names.end());
  CHECK(std::find(names.begin(), names.end(), "serve") != names.end());
  // --help's "Subcommands:" section: one line per row, in the table's order, no other.
  const CliRun app = Run({"--help"});
  REQUIRE(app.code == 0);
  std::istringstream lines(app.out.substr(app.out.find("\nSubcommands:\n") + 14));
  std::vector<std::string> listed;
  for (std::string line; std::getline(lines, line) && !line.empty();) {
    REQUIRE(line.rfind("  ", 0) == 0);
    listed.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  CHECK(listed == std::vector<std::string>(names.begin(), names.end()));
  std::string list;
  for (const std::string_view name : names) {
    list += (list.empty() ? "" : ", ") + std::string(name);
    // Each dispatches to its own help, with its usage line and a footer.
    const CliRun help = Run({std::string(name), "--help"});
    INFO("subcommand: " << name);
    CHECK(help.code == 0);
    CHECK(help.err.empty());
    CHECK(help.out.find("Usage: martiandice " + std::string(name) + " [OPTIONS]") !=
          std::string::npos);
    CHECK(help.out.find("\n\n\n") != std::string::npos);  // the footer after the options
    CHECK(help.out.size() > 600);
    // Known to the command line: a bad option is CLI11's error, not an unknown subcommand.
    const CliRun bad = Run({std::string(name), "--no-such-option"});
    CHECK(bad.code == 2);
    CHECK(bad.err.find("unknown subcommand") == std::string::npos);
  }
  CHECK(Run({"frob"}).err ==
        "martiandice: error: unknown subcommand 'frob'; use one of: " + list + "\n");
  CHECK(Run({}).err ==
        "martiandice: error: no subcommand given; use one of: " + list + " (see --help)\n");
  CHECK(Run({"--json", "eval"}).err.find("(options go after the subcommand: " + list + ")") !=
        std::string::npos);
}

TEST_CASE("cli bad input: one line on stderr, exit 2, nothing on stdout") {
  CheckUsageError({"eval", "--aside", "2X"}, "--aside");                       // unknown letter
  CheckUsageError({"eval", "--aside", "21R"}, "--aside");                      // notation overflow
  CheckUsageError({"eval", "--aside", "14R"}, "--aside");                      // more than 13 dice
  CheckUsageError({"eval", "--aside", "3T"}, "--aside");                       // tanks only
  CheckUsageError({"best", "--aside", "2T 4H", "--roll", "1T 2R"}, "--roll");  // wrong count
  CheckUsageError({"best", "--aside", "6R 7H", "--roll", "R"}, "--roll");      // no dice left
  CheckUsageError({"best", "--roll", "13Q"}, "--roll");
  CheckUsageError({"eval", "--objective", "bogus"}, "--objective");
  CheckUsageError({"eval", "--objective", "reach:abc"}, "--objective");
  CheckUsageError({"eval", "--dice", "0"}, "dice");
  CheckUsageError({"eval", "--dice", "21"}, "dice");
  CheckUsageError({"eval", "--dice", "abc"}, "--dice");
  CheckUsageError({"stats", "--dice", "-3"}, "dice");
  CheckUsageError({"eval", "--bonus", "-1"}, "bonus");
  CheckUsageError({"eval", "--target", "0"}, "target");
  CheckUsageError({"eval", "--bogus"}, "--bogus");          // unknown flag
  CheckUsageError({"best", "--aside", "2T 4H"}, "--roll");  // missing --roll
  CheckUsageError({"eval", "extra"}, "extra");              // extra positional
  CheckUsageError({"eval", "--aside"}, "--aside");          // missing value
  CheckUsageError({"eval", "best"}, "best");
  CheckUsageError({"stats", "--exact"}, "--exact");
  CheckUsageError({}, "eval, best, stats");  // no subcommand
  CheckUsageError({"frobnicate"}, "frobnicate");
  CheckUsageError({"--json"}, "--json");
}

TEST_CASE("cli errors about a query input name its option") {
  struct Bad {
    std::vector<std::string> args;
    std::string start;  // the error line's start, after "martiandice: error: "
  };
  const std::vector<Bad> bad = {
      {{"eval", "--aside", "2X"}, "--aside: "},
      {{"best", "--roll", "2T"}, "--roll: "},
      {{"eval", "--objective", "bogus"}, "--objective: "},
      {{"eval", "--objective", "win"}, "--scores: "},
      {{"eval", "--objective", "ev", "--scores", "1,2"}, "--scores: "},
      {{"eval", "--objective", "win", "--scores", "1,2", "--seat", "2"}, "--seat: "},
      {{"eval", "--objective", "win", "--scores", "1,2", "--players", "3"}, "--players: "},
      {{"eval", "--objective", "win", "--scores", "1,2", "--exact"}, "--exact: "},
      {{"best", "--tables", "x", "--roll", "2T 3R 4H 3C 1K"}, "--tables: "},
      {{"eval", "--dice", "0"}, "invalid rules: "},  // about no one option
  };
  for (const Bad& b : bad) {
    CAPTURE(b.start);
    const CliRun run = Run(b.args);
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.rfind("martiandice: error: " + b.start, 0) == 0);
  }
}

TEST_CASE("cli --version prints the version, exit 0") {
  const CliRun run = Run({"--version"});
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  CHECK(run.out == std::string("martiandice ") + MARTIANDICE_VERSION + "\n");
  CHECK(Run({"--help"}).out.find("--version") != std::string::npos);
}

namespace {

// A small table written by `solve` into `dir` (2 players, 4 dice, target 8).
std::string SolveSmall(const test_util::TempDir& dir) {
  const std::string file = (dir.path() / "small.mdt").string();
  const CliRun run =
      Run({"solve", "--dice", "4", "--target", "8", "--quiet", "--no-certify", "--out", file});
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  return file;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("cli certify shows its progress on stderr: lines, a bar on a terminal, or none") {
  const test_util::TempDir dir;
  const std::string table = SolveSmall(dir);
  const std::vector<std::string> args = {"certify",   "--dice", "4",        "--target", "8",
                                         "--threads", "1",      "--tables", table};
  const CliRun lines = Run(args);
  INFO("stderr: " << lines.err);
  REQUIRE(lines.code == 0);
  CHECK(lines.out.find("Certification: every decision and value is certified.") != std::string::npos);
  CHECK(lines.err.find('\r') == std::string::npos);
  // A line at each tenth of the work reached: increasing, the last at 100%.
  const std::vector<std::string> progress = Lines(lines.err);
  REQUIRE(progress.size() >= 2);
  int previous = 0;
  for (const std::string& line : progress) {
    CAPTURE(line);
    const std::string prefix = "martiandice: certifying: ";
    REQUIRE(line.rfind(prefix, 0) == 0);
    const int percent = std::stoi(line.substr(prefix.size()));
    CHECK(percent / 10 > previous / 10);
    CHECK(line.find("% (") != std::string::npos);
    CHECK(line.back() == ')');
    previous = percent;
  }
  CHECK(previous == 100);
  // On a terminal: one bar redrawn in place, its line ended.
  const CliRun bar = Run(args, martiandice::CliEnvironment{true});
  REQUIRE(bar.code == 0);
  CHECK(bar.err.rfind("\rmartiandice: certifying: ", 0) == 0);
  CHECK(bar.err.find("100%") != std::string::npos);
  CHECK(bar.err.find('\n') == bar.err.size() - 1);
  CHECK(bar.out.find("Certification: every decision and value is certified.") != std::string::npos);
  // --quiet: none.
  std::vector<std::string> quiet_args = args;
  quiet_args.push_back("--quiet");
  const CliRun quiet = Run(quiet_args, martiandice::CliEnvironment{true});
  CHECK(quiet.code == 0);
  CHECK(quiet.err.empty());
  CHECK(quiet.out.find("Certification: every decision and value is certified.") != std::string::npos);
}

TEST_CASE("cli solve creates missing output folders, not a file over a directory") {
  namespace fs = std::filesystem;
  const test_util::TempDir dir;
  const std::vector<std::string> rules = {"--dice", "3",       "--target",
                                          "5",      "--quiet", "--no-certify"};
  auto solve = [&](const std::string& out) {
    std::vector<std::string> args = {"solve", "--out", out};
    args.insert(args.end(), rules.begin(), rules.end());
    return Run(args);
  };
  const std::string name = martiandice::TableFileName(martiandice::Rules{3, 3, 5}, 2);
  // A file in folders that do not exist yet.
  const fs::path file = dir.path() / "a" / "b" / "t.mdt";
  const CliRun nested = solve(file.string());
  INFO("stderr: " << nested.err);
  CHECK(nested.code == 0);
  CHECK(fs::file_size(file) > 128);
  CHECK(nested.out.find("Wrote " + file.string()) != std::string::npos);
  // A path ending in a separator: a folder, created, with the table's name inside.
  const CliRun folder = solve((dir.path() / "c").string() + "/");
  CHECK(folder.code == 0);
  CHECK(fs::file_size(dir.path() / "c" / name) > 128);
  // Refused before solving: a directory where the table would go, a file
  // where a folder would go.
  fs::create_directories(dir.path() / "d" / name);
  const CliRun taken = solve((dir.path() / "d").string());
  CHECK(taken.code == 2);
  CHECK(taken.err.find("--out: '" + (dir.path() / "d" / name).string() + "' is a directory") !=
        std::string::npos);
  const CliRun under_file = solve((dir.path() / "a" / "b" / "t.mdt" / "x.mdt").string());
  CHECK(under_file.code == 2);
  CHECK(under_file.err.find("is not a directory") != std::string::npos);
  CHECK(under_file.out.empty());
}

#ifdef MARTIANDICE_CLI_PATH
namespace {

// Runs the real executable through the shell; stderr is dropped.
CliRun RunProcess(const std::string& args) {
  const std::string command =
      std::string("'") + MARTIANDICE_CLI_PATH + "' " + args + " 2>/dev/null";
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace

TEST_CASE("cli executable runs with exit statuses") {
  const CliRun best = RunProcess("best --aside '2T 4H' --roll '1T 2R 3C 1K' --json");
  CHECK(best.code == 0);
  CheckBestConsistent(ParseJsonOrFail(best.out), false);
  const CliRun eval = RunProcess("eval --exact");
  CHECK(eval.code == 0);
  CHECK(eval.out.find("Decision: roll") != std::string::npos);
  const CliRun help = RunProcess("--help");
  CHECK(help.code == 0);
  CHECK(help.out.find("best") != std::string::npos);
  const CliRun bad = RunProcess("best --roll 'XYZ'");
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  const CliRun none = RunProcess("");
  CHECK(none.code == 2);
  CHECK(none.out.empty());
}
#endif  // MARTIANDICE_CLI_PATH

// Tests of the command line's game features (tools/cli.h): `eval` and `best`
// with --objective win on a policy table solved here for small rules, the
// `solve` subcommand (atomic write, report, progress) and `simulate`, and
// their error paths.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "atomic_file.h"
#include "cli.h"
#include "cli_test_util.h"
#include "game_solver.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
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
using test_util::ScopedEnv;
using test_util::TempDir;

// Small rules: 4 dice (turns score 0..7), target 8; the 2-player table is tiny.
const martiandice::Rules kSmall{4, 3, 8};
const std::vector<std::string> kSmallRules = {"--dice", "4", "--target", "8"};

// The 2-player table for kSmall, solved once and written to a temporary dir.
struct SmallTable {
  TempDir dir;
  std::string file;
  martiandice::solver::GameSolveReport report;

  SmallTable() {
    const std::string bytes = test_util::SolveTinyTable(kSmall, 2, &report);
    file = (dir.path() / martiandice::TableFileName(kSmall, 2)).string();
    REQUIRE(martiandice::solver::WriteFileAtomically(file, bytes).ok());
  }
};

const SmallTable& Small() {
  static const SmallTable table;
  return table;
}

// `subcommand` with the win objective on the small table, plus `extra`.
std::vector<std::string> WinArgs(const std::string& subcommand,
                                 const std::vector<std::string>& extra) {
  std::vector<std::string> args = {subcommand, "--objective", "win", "--tables", Small().dir.str()};
  args.insert(args.end(), kSmallRules.begin(), kSmallRules.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

double Sum(const Json& list) {
  double sum = 0;
  for (const Json& item : list.items) sum += item.number;
  return sum;
}

// The fields every win answer has, for `scores` and `seat`.
void CheckGameFields(const Json& json, const std::vector<int>& scores, int seat) {
  CheckRules(json, 4, 3, 8);
  CHECK(json["objective"].text == "win");
  CHECK(json["precision"].text == "double");
  CHECK(json["players"].number == 2);
  CHECK(json["seat"].number == seat);
  REQUIRE(json["scores"].items.size() == scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i)
    CHECK(json["scores"].items[i].number == scores[i]);
  const Json& win = json["win_probabilities"];
  REQUIRE(win.items.size() == 2);
  for (const Json& p : win.items) {
    CHECK(p.number >= -1e-12);
    CHECK(p.number <= 1 + 1e-12);
  }
  CHECK(std::fabs(Sum(win) - 1) <= 1e-9);
  CHECK(json["table"].text == Small().file);
  CHECK(json["error_bound"].number >= 0);
  CHECK(json["error_bound"].number < 1e-6);
}

std::string ScoresText(const std::vector<int>& scores) {
  return std::to_string(scores[0]) + "," + std::to_string(scores[1]);
}

}  // namespace

// ---------------------------------------------------------------------------
// eval and best with --objective win

TEST_CASE("cli game eval at the start of a turn is the mover's win probability") {
  struct Context {
    std::vector<int> scores;
    int seat;
  };
  for (const Context& c :
       std::vector<Context>{{{0, 0}, 0}, {{3, 5}, 1}, {{7, 2}, 0}, {{9, 7}, 1}, {{12, 0}, 1}}) {
    INFO("scores " << ScoresText(c.scores) << " seat " << c.seat);
    const Json eval = RunJson(WinArgs(
        "eval", {"--scores", ScoresText(c.scores), "--seat", std::to_string(c.seat), "--json"}));
    CheckGameFields(eval, c.scores, c.seat);
    CHECK(eval["aside"].text == "-");
    CHECK(eval["dice_left"].number == 4);
    CHECK(eval["stop"].is_null());
    CHECK(eval["action"].text == "roll");
    CheckStopRollValue(eval, "action", false);
    const double mover = eval["win_probabilities"].items[c.seat].number;
    CHECK(Close(eval["value"].number, mover));
    CHECK(eval["final_round"].boolean == (c.seat == 1 && c.scores[0] >= 8));
  }
  const Json start = RunJson(WinArgs("eval", {"--scores", "0,0", "--json"}));
  CHECK(Close(start["value"].number, Small().report.start[0]));
}

TEST_CASE("cli game eval mid turn: stop, roll and value are win probabilities") {
  const Json mid =
      RunJson(WinArgs("eval", {"--scores", "3,5", "--seat", "1", "--aside", "1R 1H", "--json"}));
  CheckGameFields(mid, {3, 5}, 1);
  CHECK(mid["aside"].text == "1R 1H");
  CHECK(mid["dice_left"].number == 2);
  CheckStopRollValue(mid, "action", false);
  for (const char* key : {"stop", "roll", "value"}) {
    CHECK(mid[key].number >= 0);
    CHECK(mid[key].number <= 1);
  }
  // --players defaults to the number of scores; giving it changes nothing.
  const Json same = RunJson(WinArgs(
      "eval", {"--scores", "3,5", "--seat", "1", "--aside", "1R 1H", "--players", "2", "--json"}));
  CHECK(same["value"].number == mid["value"].number);
}

TEST_CASE("cli game best ranks the takes by the mover's chance to win") {
  const Json best = RunJson(WinArgs(
      "best", {"--scores", "3,5", "--seat", "1", "--aside", "1R", "--roll", "1T 1H 1C", "--json"}));
  CheckGameFields(best, {3, 5}, 1);
  CHECK(best["rolled"].text == "1T 1H 1C");
  CHECK(best["aside_after_tanks"].text == "1T 1R");
  CHECK_FALSE(best["turn_over"].boolean);
  REQUIRE(best["options"].items.size() == 2);
  CheckBestConsistent(best, false);
  CHECK(best["value"].number <= 1);

  // The last seat's final turn: the game ends with this turn.
  const Json last =
      RunJson(WinArgs("best", {"--scores", "9,6", "--seat", "1", "--roll", "2R 1H 1C", "--json"}));
  CHECK(last["final_round"].boolean);
  CheckBestConsistent(last, false);

  const Json over = RunJson(
      WinArgs("best", {"--scores", "2,2", "--aside", "1R 1H 1C", "--roll", "1T", "--json"}));
  CHECK(over["turn_over"].boolean);
  CHECK(over["turn_over_score"].number == 2);
  CheckBestConsistent(over, false);
}

TEST_CASE("cli game: --scores without --objective plays to win, in eval, best and review") {
  std::vector<std::string> implied = WinArgs(
      "best", {"--scores", "3,5", "--seat", "1", "--aside", "1R", "--roll", "1T 1H 1C", "--json"});
  implied.erase(implied.begin() + 1, implied.begin() + 3);  // drops --objective win
  const Json best = RunJson(implied);
  const Json named = RunJson(WinArgs(
      "best", {"--scores", "3,5", "--seat", "1", "--aside", "1R", "--roll", "1T 1H 1C", "--json"}));
  CHECK(best["objective"].text == "win");
  CHECK(best["value"].number == named["value"].number);
  const Json eval = RunJson({"eval", "--scores", "18,22", "--json"});
  CHECK(eval["objective"].text == "win");
  CHECK(eval["win_probabilities"].items.size() == 2);
}

TEST_CASE("cli game human output shows every seat's win probability") {
  const CliRun eval = Run(WinArgs("eval", {"--scores", "3,5", "--seat", "1"}));
  INFO(eval.err);
  REQUIRE(eval.code == 0);
  CHECK(eval.err.empty());
  CHECK(eval.out.find("(win)") != std::string::npos);
  // Chances in percent: "seat 0 41.23%".
  const auto percent = [](const std::string& out, const std::string& seat) {
    return std::regex_search(out, std::regex(seat + "[0-9]{1,3}\\.[0-9]{2}%"));
  };
  CHECK(percent(eval.out, "seat 0 "));
  CHECK(percent(eval.out, "seat 1 "));
  CHECK(eval.out.find("(to move)") != std::string::npos);
  CHECK(eval.out.find("Decision: roll") != std::string::npos);

  const CliRun best = Run(
      WinArgs("best", {"--scores", "3,5", "--seat", "1", "--aside", "1R", "--roll", "1T 1H 1C"}));
  REQUIRE(best.code == 0);
  CHECK(percent(best.out, "seat 0 "));
  CHECK(percent(best.out, "seat 1 "));
  CHECK(best.out.find("Best: take ") != std::string::npos);

  const CliRun final_round = Run(WinArgs("eval", {"--scores", "9,6", "--seat", "1"}));
  CHECK(final_round.out.find("final round") != std::string::npos);
}

// --seat goes with --scores: spaces around the number are dropped as around
// each total (eval, best, plot, review); anything else still is no number.
TEST_CASE("cli game --seat takes spaces around its number, as --scores does") {
  const CliRun plain = Run(WinArgs("eval", {"--scores", "3,5", "--seat", "1"}));
  REQUIRE(plain.code == 0);
  for (const char* seat : {" 1", "1 ", "\t1 "}) {
    CAPTURE(seat);
    const CliRun spaced = Run(WinArgs("eval", {"--scores", " 3, 5", "--seat", seat}));
    CHECK(spaced.code == 0);
    CHECK(spaced.out == plain.out);
  }
  const CliRun heatmap_plain = Run({"plot", "heatmap", "--seat", "1", "--out", "/dev/null/x"});
  const CliRun heatmap_spaced = Run({"plot", "heatmap", "--seat", "1 ", "--out", "/dev/null/x"});
  CHECK(heatmap_spaced.err == heatmap_plain.err);  // the same --out error, not --seat's
  CHECK(heatmap_spaced.err.find("--seat") == std::string::npos);
  for (const char* bad : {"", " ", "1 1", "0x1", "+1"}) {
    CheckUsageError(WinArgs("eval", {"--scores", "3,5", "--seat", bad}), "--seat");
    CheckUsageError({"plot", "heatmap", "--seat", bad, "--out", "x.svg"}, "--seat");
    CheckUsageError({"review", "--objective", "win", "--scores", "3,5", "--seat", bad, "-"},
                    "--seat");
  }
}

TEST_CASE("cli game finds the table through MARTIANDICE_DATA") {
  const ScopedEnv data("MARTIANDICE_DATA", Small().dir.str());
  std::vector<std::string> args = {"eval", "--objective", "win", "--scores", "0,0", "--json"};
  args.insert(args.end(), kSmallRules.begin(), kSmallRules.end());
  const Json eval = RunJson(args);
  CHECK(eval["table"].text == Small().file);
  CHECK(Close(eval["value"].number, Small().report.start[0]));
}

TEST_CASE("cli game win query errors: exit 2, one stderr line, nothing on stdout") {
  const TempDir empty;
  const std::string solve_hint = "martiandice solve";
  // Tables: a missing path, a directory without the table, a table for other
  // rules, and the default search finding nothing.
  CheckUsageError({"eval", "--objective", "win", "--scores", "0,0", "--dice", "4", "--target", "8",
                   "--tables", (empty.path() / "missing.mdt").string()},
                  solve_hint);
  CheckUsageError({"eval", "--objective", "win", "--scores", "0,0", "--dice", "4", "--target", "8",
                   "--tables", empty.str()},
                  solve_hint);
  CheckUsageError({"eval", "--objective", "win", "--scores", "0,0", "--dice", "4", "--target", "9",
                   "--tables", Small().file},
                  solve_hint);
  CheckUsageError({"eval", "--objective", "win", "--scores", "0,0", "--dice", "4", "--target", "9",
                   "--tables", Small().file},
                  "--target 9");
  {
    // The default search finding nothing: the fallback answers, naming why.
    const ScopedEnv data("MARTIANDICE_DATA", empty.str());
    const CliRun run =
        Run({"eval", "--objective", "win", "--scores", "0,0", "--dice", "3", "--target", "7"});
    CHECK(run.code == 0);
    CHECK(run.out.find("No exact table for 2 players: no policy table") != std::string::npos);
    CHECK(run.out.find(solve_hint) != std::string::npos);
  }
  // Contexts.
  CheckUsageError(WinArgs("eval", {"--scores", "1,x"}), "--scores");
  CheckUsageError(WinArgs("eval", {"--scores", ""}), "--scores");
  CheckUsageError(WinArgs("eval", {"--scores", "1,2,3", "--players", "2"}), "--players");
  CheckUsageError(WinArgs("eval", {"--scores", "1,2", "--players", "3"}), "--players");
  CheckUsageError(WinArgs("eval", {"--scores", "1"}), "--scores");
  CheckUsageError(WinArgs("eval", {"--scores", "1,2,3,4,5,6,7"}), "--scores");
  CheckUsageError(WinArgs("eval", {"--scores", "100,0"}), "--scores");
  CheckUsageError(WinArgs("eval", {"--scores", "-1,0"}), "--scores");
  CheckUsageError(WinArgs("eval", {"--scores", "8,3"}), "--scores");  // game over
  CheckUsageError(WinArgs("eval", {"--scores", "8,8", "--seat", "1"}), "--scores");
  CheckUsageError(WinArgs("eval", {"--scores", "1,2", "--seat", "2"}), "--seat");
  CheckUsageError(WinArgs("eval", {"--scores", "1,2", "--seat", "-1"}), "--seat");
  // Options that do not go together.
  CheckUsageError(WinArgs("eval", {"--scores", "1,2", "--exact"}),
                  "exact values are available for turn objectives");
  CheckUsageError(WinArgs("eval", {}), "--scores");
  CheckUsageError({"eval", "--objective", "ev", "--scores", "1,2"},
                  "--scores: goes with the win objective");
  CheckUsageError({"best", "--roll", "13R", "--tables", "x"},
                  "--tables: goes with the win objective");
  // Positions and rolls are still checked.
  CheckUsageError(WinArgs("eval", {"--scores", "1,2", "--aside", "5R"}), "--aside");
  CheckUsageError(WinArgs("best", {"--scores", "1,2", "--aside", "1R", "--roll", "1R"}), "--roll");
}

// ---------------------------------------------------------------------------
// solve

TEST_CASE("cli game solve writes the table atomically and reports") {
  const TempDir dir;
  const std::string file = (dir.path() / "small.mdt").string();
  std::vector<std::string> args = {"solve", "--players", "2", "--out", file, "--json"};
  args.insert(args.end(), kSmallRules.begin(), kSmallRules.end());
  const CliRun run = Run(args);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  const Json report = ParseJsonOrFail(run.out);
  CheckRules(report, 4, 3, 8);
  CHECK(report["players"].number == 2);
  CHECK(report["out"].text == file);
  for (const char* key :
       {"bytes", "format_version", "contexts", "turn_solves", "cycles", "max_rounds",
        "max_residual", "error_bound", "mixed_cycles", "mixing_error", "threads", "seconds"}) {
    CAPTURE(key);
    CHECK(report[key].kind == Json::Kind::kNumber);
  }
  // 2 players: the pair kernel counts no ties (a tie changes no value).
  CHECK(report["tied_decisions"].is_null());
  CHECK(report["kingmaking"].is_null());
  for (const char* gone : {"blocks", "stored_states", "max_iterations", "first_seat_win"}) {
    CAPTURE(gone);
    CHECK_FALSE(report.Has(gone));
  }
  CHECK(report["format_version"].number == 3);
  CHECK(report["contexts"].number == Small().report.contexts);
  CHECK(report["cycles"].number == Small().report.cycles);
  CHECK(report["bytes"].number == static_cast<double>(fs::file_size(file)));
  REQUIRE(report["start"].items.size() == 2);
  CHECK(Close(report["start"].items[0].number, Small().report.start[0]));
  CHECK(Close(report["start"].items[1].number, Small().report.start[1]));
  // The table written is certified as read back.
  CHECK(report["certification"]["certified"].boolean);
  CHECK(report["certification"]["inexact_ties"].number == 0);
  CHECK(report["certification"]["smallest_margin"].number >
        report["certification"]["margin_threshold"].number);
  // The certifier's own bound: at least each value's distance to its own turn
  // solve, and the margins measured against it where it is the larger.
  const Json& derived = report["certification"]["derived_bound"];
  REQUIRE(derived.kind == Json::Kind::kNumber);
  CHECK(derived.number >= report["certification"]["largest_value_gap"].number);
  CHECK(report["certification"]["margin_threshold"].number >= 2 * derived.number);
  CHECK(report["certification"]["value_threshold"].number >= 2 * report["error_bound"].number);
  // Only the table is left in the directory: the temporary was renamed.
  CHECK(dir.Files() == std::vector<std::string>{"small.mdt"});
  // Progress went to stderr as plain lines (not a terminal).
  CHECK(run.err.find("martiandice: solving 2 players: 100%") != std::string::npos);
  CHECK(run.err.find('\r') == std::string::npos);

  // The table answers queries; solving again replaces it in place.
  std::vector<std::string> query = {"eval", "--objective", "win", "--scores",
                                    "0,0",  "--tables",    file,  "--json"};
  query.insert(query.end(), kSmallRules.begin(), kSmallRules.end());
  CHECK(Close(RunJson(query)["value"].number, report["start"].items[0].number));
  args.push_back("--quiet");
  const CliRun again = Run(args);
  CHECK(again.code == 0);
  CHECK(again.err.empty());
  CHECK(dir.Files() == std::vector<std::string>{"small.mdt"});
}

// Tables and checkpoints are made as the user's umask allows: 0644 less it.
TEST_CASE("cli game: a file written atomically has mode 0644 less the umask") {
  const TempDir dir;
  for (const mode_t mask : {mode_t{022}, mode_t{077}, mode_t{002}}) {
    CAPTURE(mask);
    const std::string file = (dir.path() / ("m" + std::to_string(mask))).string();
    const mode_t old = umask(mask);
    const absl::Status written = martiandice::solver::WriteFileAtomically(file, "bytes");
    umask(old);
    REQUIRE(written.ok());
    struct stat info;
    REQUIRE(stat(file.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == (0644 & ~mask));
  }
}

TEST_CASE("cli game solve into a directory, human report, progress bar on a terminal") {
  const TempDir dir;
  std::vector<std::string> args = {"solve", "--out", dir.str()};
  args.insert(args.end(), kSmallRules.begin(), kSmallRules.end());
  const CliRun run = Run(args, martiandice::CliEnvironment{true});
  REQUIRE(run.code == 0);
  const std::string name = martiandice::TableFileName(kSmall, 2);
  CHECK(dir.Files() == std::vector<std::string>{name});
  const std::string path = (dir.path() / name).string();
  const std::string wrote =
      "Wrote " + path + " (" + std::to_string(fs::file_size(path)) + " bytes, format version 3).";
  for (const std::string& text :
       {std::string("Solved the 2-player game: 4 dice, bonus 3, target 8."),
        std::string("turn-start contexts"), std::string("turn solves"),
        std::string("zero-score cycles"), std::string("largest residual"),
        std::string("error bound of every value"),
        std::string("tied decisions (kingmaking)     not counted (2 players: a tie changes no "
                    "value)"),
        std::string("solve time"), std::string("each seat wins from the start"), wrote,
        std::string("Certification: every decision and value is certified.")}) {
    CAPTURE(text);
    CHECK(run.out.find(text) != std::string::npos);
  }
  // The bar is redrawn in place and its line ended.
  CHECK(run.err.find("\rmartiandice: solving 2 players: ") != std::string::npos);
  CHECK(run.err.find("100%") != std::string::npos);
  CHECK(run.err.back() == '\n');
}

TEST_CASE("cli game solve errors: exit 2, one stderr line, nothing on stdout") {
  const TempDir dir;
  const std::string file = (dir.path() / "t.mdt").string();
  CheckUsageError({"solve", "--dice", "4", "--target", "8", "--out", "/etc/passwd/no/t.mdt"},
                  "--out");
  CheckUsageError({"solve", "--dice", "4", "--target", "8"}, "--out");
  CheckUsageError({"solve", "--players", "1", "--out", file}, "--players");
  CheckUsageError({"solve", "--players", "7", "--out", file}, "--players");
  CheckUsageError({"solve", "--dice", "0", "--out", file}, "dice");
  CheckUsageError({"solve", "--target", "x", "--out", file}, "--target");
  CHECK(dir.Files().empty());
}

// ---------------------------------------------------------------------------
// simulate

TEST_CASE("cli game simulate json fields") {
  std::vector<std::string> args = {"simulate", "--games",         "2000",   "--policies", "win,ev",
                                   "--tables", Small().dir.str(), "--seed", "7",          "--json"};
  args.insert(args.end(), kSmallRules.begin(), kSmallRules.end());
  const Json json = RunJson(args);
  CheckRules(json, 4, 3, 8);
  CHECK(json["games"].number == 2000);
  CHECK(json["players"].number == 2);
  CHECK(json["seed"].text == "7");
  REQUIRE(json["policies"].items.size() == 2);
  CHECK(json["policies"].items[0].text == "win");
  CHECK(json["policies"].items[1].text == "ev");
  REQUIRE(json["seat_win_rate"].items.size() == 2);
  REQUIRE(json["policy_win_rate"].items.size() == 2);
  CHECK(std::fabs(Sum(json["seat_win_rate"]) - 1) <= 1e-12);
  CHECK(std::fabs(Sum(json["policy_win_rate"]) - 1) <= 1e-12);
  REQUIRE(json["ci95"]["seat"].items.size() == 2);
  REQUIRE(json["ci95"]["policy"].items.size() == 2);
  for (const Json& half : json["ci95"]["seat"].items) CHECK(half.number > 0);
  CHECK(json["mean_turns"].number >= 2);
  CHECK(json["table"].text == Small().file);
  // Same seed, same output.
  CHECK(Run(args).out == Run(args).out);
}

TEST_CASE("cli game simulate --no-alternate keeps the seats") {
  const std::vector<std::string> args = {"simulate",   "--games",   "300",
                                         "--policies", "ev,random", "--no-alternate"};
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const Json json = RunJson(json_args);
  CHECK(json["alternate_seats"].boolean == false);
  CHECK(json["seat_win_rate"].items[0].number == json["policy_win_rate"].items[0].number);
  CHECK(RunJson({"simulate", "--games", "10", "--policies", "ev,ev", "--json"})["alternate_seats"]
            .boolean);
  const CliRun run = Run(args);
  REQUIRE(run.code == 0);
  CHECK(run.out.find("Seats fixed (--no-alternate): policy k sits in seat k") != std::string::npos);
}

TEST_CASE("cli game simulate human output") {
  const CliRun run = Run({"simulate", "--games", "300", "--policies", "ev,stop:8,random"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  for (const char* text : {"Simulated 300 games of 3 players", "seat 2", "policy 1 stop:8",
                           "policy 2 random", "±", "Turns per game", "games/s"}) {
    CHECK(run.out.find(text) != std::string::npos);
  }
  // Rated, its lines (a rating's passes 80 columns alone) fit a terminal.
  const CliRun rated = Run({"simulate", "--games", "30", "--policies", "win,ev,random", "--rate"});
  INFO(rated.err);
  REQUIRE(rated.code == 0);
  CHECK(rated.out.find("rating 100 of 100 (perfect)") != std::string::npos);
  for (std::string_view rest = rated.out; !rest.empty();) {
    const std::string_view line = rest.substr(0, rest.find('\n'));
    rest.remove_prefix(std::min(rest.size(), line.size() + 1));
    const auto columns = std::count_if(line.begin(), line.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // one a UTF-8 character
    });
    CHECK_MESSAGE(columns <= 80, line);
  }
}

TEST_CASE("cli game simulate errors: exit 2, one stderr line, nothing on stdout") {
  const TempDir empty;
  CheckUsageError({"simulate", "--games", "10", "--policies", "ev,bogus"}, "bogus");
  CheckUsageError({"simulate", "--games", "10", "--policies", "ev,stop:x"}, "stop:x");
  CheckUsageError({"simulate", "--games", "10", "--policies", "ev"}, "--policies");
  CheckUsageError({"simulate", "--games", "10", "--policies", "ev,ev", "--players", "3"},
                  "--players");
  CheckUsageError({"simulate", "--games", "0", "--policies", "ev,ev"}, "--games");
  CheckUsageError({"simulate", "--policies", "ev,ev"}, "--games");
  CheckUsageError({"simulate", "--games", "10"}, "--policies");
  CheckUsageError({"simulate", "--games", "10", "--policies", "ev,ev", "--seed", "-1"}, "--seed");
  CheckUsageError({"simulate", "--games", "10", "--policies", "ev,ev", "--threads", "-2"},
                  "--threads");
  CheckUsageError({"simulate", "--games", "10", "--policies", "win,ev", "--dice", "4", "--target",
                   "8", "--tables", empty.str()},
                  "martiandice solve");
}

TEST_CASE("cli game help lists the new subcommands and fields") {
  const CliRun app = Run({"--help"});
  CHECK(app.code == 0);
  for (const char* word : {"solve", "simulate", "win"}) {
    CHECK(app.out.find(word) != std::string::npos);
  }
  const CliRun eval = Run({"eval", "--help"});
  for (const char* word : {"--scores", "--seat", "--players", "--tables", "win_probabilities"}) {
    CHECK(eval.out.find(word) != std::string::npos);
  }
  const CliRun solve = Run({"solve", "--help"});
  CHECK(solve.code == 0);
  for (const char* word : {"--out", "max_residual", "tied_decisions", "start", "certification"}) {
    CHECK(solve.out.find(word) != std::string::npos);
  }
  const CliRun simulate = Run({"simulate", "--help"});
  CHECK(simulate.code == 0);
  for (const char* word : {"--policies", "stop:K", "seat_win_rate", "ci95"}) {
    CHECK(simulate.out.find(word) != std::string::npos);
  }
}

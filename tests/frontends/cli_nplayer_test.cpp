// The command line with 3 players: `solve --players 3` writes a version 3
// table (read back with the reader), and eval/best --objective win answer
// from it (text and JSON), with every seat's win probabilities; the shipped
// 3-player table answers as the library does; player-count mismatches refused.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cli.h"
#include "cli_test_util.h"
#include "gpu_batch.h"
#include "martiandice/final_round.h"
#include "martiandice/win_query.h"
#include "nplayer_naive.h"
#include "table_builder.h"
#include "table_format.h"
#include "test_util.h"

namespace fs = std::filesystem;
using namespace martiandice;
using cli_test::CheckUsageError;
using cli_test::CliRun;
using cli_test::Json;
using cli_test::ParseJsonOrFail;
using cli_test::Run;
using cli_test::RunJson;

namespace {

const Rules kTiny{4, 2, 6};
const std::vector<std::string> kTinyRules = {"--dice", "4", "--bonus", "2", "--target", "6"};

struct TinyTable {
  test_util::TempDir temp;
  std::string dir = temp.str();
  std::string file;
  Json report;
  TinyTable() {
    file = dir + "/" + TableFileName(kTiny, 3);
    std::vector<std::string> args = {"solve", "--players", "3",      "--threads", "2",
                                     "--out", dir,         "--json", "--quiet"};
    args.insert(args.end(), kTinyRules.begin(), kTinyRules.end());
    const CliRun run = Run(args);
    INFO("stderr: " << run.err);
    REQUIRE(run.code == 0);
    report = ParseJsonOrFail(run.out);
  }
};

const TinyTable& Tiny() {
  static const TinyTable table;
  return table;
}

std::vector<std::string> Args(std::vector<std::string> args, bool json) {
  args.insert(args.end(), {"--objective", "win", "--tables", Tiny().dir});
  args.insert(args.end(), kTinyRules.begin(), kTinyRules.end());
  if (json) args.push_back("--json");
  return args;
}

void CheckWinProbabilities(const Json& json, const std::vector<double>& expected) {
  const Json& win = json["win_probabilities"];
  REQUIRE(win.items.size() == expected.size());
  for (std::size_t j = 0; j < expected.size(); ++j) CHECK(win.items[j].number == expected[j]);
}

}  // namespace

TEST_CASE("cli 3 players: solve writes a version 3 table and reports") {
  const Json& r = Tiny().report;
  CHECK(r["players"].number == 3);
  CHECK(r["format_version"].number == 3);
  CHECK(r["threads"].number == 2);
  CHECK(r["out"].text == Tiny().file);
  CHECK(r["bytes"].number == static_cast<double>(fs::file_size(Tiny().file)));
  CHECK(r["error_bound"].number < 1e-12);
  CHECK(r["kingmaking"].number == 0);
  REQUIRE(r["start"].items.size() == 3);
  // Read back with the reader: the reported start vector is the stored one.
  auto table = GameTable::Open(Tiny().file);
  REQUIRE(table.ok());
  CHECK(table->format_version() == 3);
  CHECK(table->context_count() == r["contexts"].number);
  auto start = table->WinProbabilities(GameContext{{0, 0, 0}, 0});
  REQUIRE(start.ok());
  for (int j = 0; j < 3; ++j) CHECK((*start)[j] == r["start"].items[j].number);
  // The table as read back is certified: every decision a reader derives.
  const Json& c = r["certification"];
  CHECK(c["certified"].boolean);
  CHECK(c["decisions"].number > 0);
  CHECK(c["inexact_ties"].number == 0);
  CHECK(c["kingmaking_ties"].number == 0);
  CHECK(c["smallest_margin"].number > c["margin_threshold"].number);
  CHECK(c["margin_threshold"].number >= 2 * r["error_bound"].number);
  // Only the table is in the directory (the temporary was renamed, the
  // checkpoint removed).
  int files = 0;
  for (const auto& entry : fs::directory_iterator(Tiny().dir)) files += entry.is_regular_file();
  CHECK(files == 1);
}

TEST_CASE("cli 3 players: eval and best, JSON as the library answers, and text") {
  auto table = GameTable::Open(Tiny().file);
  REQUIRE(table.ok());
  const GameContext context{{3, 5, 2}, 1};
  auto win = table->WinProbabilities(context);
  REQUIRE(win.ok());

  const Json eval =
      RunJson(Args({"eval", "--scores", "3,5,2", "--seat", "1", "--aside", "1R 1H"}, true));
  CHECK(eval["players"].number == 3);
  CHECK(eval["seat"].number == 1);
  CheckWinProbabilities(eval, *win);
  auto e = EvaluateWin(*table, context, *ParseDice("1R 1H"));
  REQUIRE(e.ok());
  CHECK(eval["stop"].number == e->position.stop->approx);
  CHECK(eval["roll"].number == e->position.roll->approx);
  CHECK(eval["value"].number == e->position.value.approx);

  const Json best =
      RunJson(Args({"best", "--scores", "3,5,2", "--seat", "1", "--roll", "1T 1R 1H 1C"}, true));
  CheckWinProbabilities(best, *win);
  auto a = AdviseWin(*table, context, Dice(), *ParseDice("1T 1R 1H 1C"));
  REQUIRE(a.ok());
  CHECK(best["value"].number == a->advice.value.approx);
  REQUIRE(best["options"].items.size() == a->advice.options.size());
  for (std::size_t i = 0; i < a->advice.options.size(); ++i) {
    CHECK(best["options"].items[i]["value"].number == a->advice.options[i].value.approx);
  }
  cli_test::CheckBestConsistent(best, false);

  const CliRun text =
      Run(Args({"best", "--scores", "3,5,2", "--seat", "1", "--roll", "1T 1R 1H 1C"}, false));
  CHECK(text.code == 0);
  CHECK(text.err.empty());
  CHECK(text.out.find("Game: 3 players, scores 3, 5, 2; seat 1 to move.") != std::string::npos);
  CHECK(text.out.find("seat 2") != std::string::npos);
  CHECK(text.out.find("Best: take") != std::string::npos);
}

TEST_CASE("cli 5 players: best and eval answer from a 5-player table, with the fields of 3") {
  const test_util::TempDir dir;
  const std::string file = dir.File("p5.mdt");
  const std::vector<std::string> rules = {"--dice", "3", "--bonus", "0", "--target", "3"};
  std::vector<std::string> solve = {"solve", "--quiet", "--no-certify", "--players", "5",
                                    "--out", file};
  solve.insert(solve.end(), rules.begin(), rules.end());
  REQUIRE(Run(solve).code == 0);
  auto table = GameTable::Open(file);
  REQUIRE(table.ok());
  CHECK(table->players() == 5);
  const GameContext context{{1, 0, 2, 0, 1}, 3};
  auto win = table->WinProbabilities(context);
  REQUIRE(win.ok());
  auto args = [&](std::vector<std::string> a) {
    a.insert(a.end(), {"--objective", "win", "--tables", file, "--json"});
    a.insert(a.end(), rules.begin(), rules.end());
    return a;
  };
  const Json best =
      RunJson(args({"best", "--scores", "1,0,2,0,1", "--seat", "3", "--roll", "1T 1R 1H"}));
  CHECK(best["players"].number == 5);
  CheckWinProbabilities(best, *win);
  auto a = AdviseWin(*table, context, Dice(), *ParseDice("1T 1R 1H"));
  REQUIRE(a.ok());
  CHECK(best["value"].number == a->advice.value.approx);
  REQUIRE(best["options"].items.size() == a->advice.options.size());
  cli_test::CheckBestConsistent(best, false);
  const Json eval =
      RunJson(args({"eval", "--scores", "1,0,2,0,1", "--seat", "3", "--aside", "1R"}));
  CheckWinProbabilities(eval, *win);
  // The same fields, in the same order, as a 3-player answer.
  const Json three =
      RunJson(Args({"best", "--scores", "3,5,2", "--seat", "1", "--roll", "1T 1R 1H 1C"}, true));
  CHECK(best.keys == three.keys);
  const Json three_eval =
      RunJson(Args({"eval", "--scores", "3,5,2", "--seat", "1", "--aside", "1R 1H"}, true));
  CHECK(eval.keys == three_eval.keys);
}

TEST_CASE("cli: win_probabilities in every win answer, 2 and 3 players (shipped tables)") {
  for (const std::vector<std::string>& scores :
       {std::vector<std::string>{"--scores", "10,12"}, {"--scores", "10,12,8"}}) {
    for (const bool best : {false, true}) {
      std::vector<std::string> args = {best ? "best" : "eval", "--objective", "win", "--json"};
      args.insert(args.end(), scores.begin(), scores.end());
      if (best) args.insert(args.end(), {"--roll", "2T 2R 3H 4C 2K"});
      const Json json = RunJson(args);
      const std::size_t players = scores[1].size() > 5 ? 3 : 2;
      REQUIRE(json["win_probabilities"].items.size() == players);
      double sum = 0;
      for (const Json& p : json["win_probabilities"].items) sum += p.number;
      CHECK(std::abs(sum - 1) < 1e-12);
    }
  }
}

TEST_CASE("cli 3 players: player-count mismatches are refused with a clear message") {
  // A 3-player table named explicitly for a 2-player query.
  CheckUsageError({"eval", "--objective", "win", "--scores", "1,2", "--tables", Tiny().file,
                   "--dice", "4", "--bonus", "2", "--target", "6"},
                  "the table is for 3 players, but the game has 2");
  CheckUsageError(Args({"eval", "--scores", "1,2,3", "--players", "2"}, false), "--players");
  // No 4-player table for these rules.
  CheckUsageError(Args({"eval", "--scores", "1,2,3,0"}, false), "4 players");
}

TEST_CASE("cli certify: a table's decisions, its verdict in the exit status") {
  // The tiny 3-player table `solve` wrote: certified, text and JSON.
  std::vector<std::string> args = {"certify", "--players", "3", "--quiet", "--tables", Tiny().file};
  args.insert(args.end(), kTinyRules.begin(), kTinyRules.end());
  CliRun run = Run(args);
  INFO("stderr: " << run.err);
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  CHECK(run.out.find("every decision and value is certified") != std::string::npos);
  CHECK(run.out.find("format version 3") != std::string::npos);
  args.push_back("--json");
  run = Run(args);
  REQUIRE(run.code == 0);
  const Json json = ParseJsonOrFail(run.out);
  CHECK(json["format_version"].number == 3);
  CHECK(json["players"].number == 3);
  CHECK(json["certification"]["certified"].boolean);
  CHECK(json["certification"]["decisions"].number ==
        Tiny().report["certification"]["decisions"].number);
  CHECK(json["certification"]["mixed_contexts"].number == 0);

  // The same values with one chance nudged by 1e-13 where the seat's fate is
  // sealed (certify_test.cpp; the leader's chance down as much, so the
  // vector still sums to 1): ties no longer exact, exit status 3.
  test_util::TempDir temp;
  const Rules rules{4, 3, 8};
  solver::GameValues values = test_util::SolveTinyValues(rules, 3);
  const long long c =
      naive::NaiveContextIndex(rules, 3, 2, {rules.target + MaxTurnScore(rules) - 1, 1, 0});
  REQUIRE(c >= 0);
  REQUIRE(values.win[static_cast<size_t>(c) * 3 + 1] == 0.0);
  REQUIRE(values.win[static_cast<size_t>(c) * 3] == 1.0);
  values.win[static_cast<size_t>(c) * 3 + 1] = 1e-13;
  values.win[static_cast<size_t>(c) * 3] = 1.0 - 1e-13;
  const std::string nudged = temp.File("nudged.mdt");
  test_util::WriteFile(nudged, internal::SerializeTable(rules, 3, values.error_bound, values.win));
  run = Run({"certify", "--players", "3", "--dice", "4", "--bonus", "3", "--target", "8",
             "--tables", nudged});
  CHECK(run.code == kCliExitNotCertified);
  CHECK(run.out.find("NOT certified") != std::string::npos);
  CHECK(run.out.find("inexact tie at totals " +
                     std::to_string(rules.target + MaxTurnScore(rules) - 1) + ",") !=
        std::string::npos);
  run = Run({"certify", "--players", "3", "--dice", "4", "--bonus", "3", "--target", "8",
             "--tables", nudged, "--json"});
  CHECK(run.code == kCliExitNotCertified);
  const Json failed = ParseJsonOrFail(run.out)["certification"];
  CHECK_FALSE(failed["certified"].boolean);
  REQUIRE(failed["inexact_examples"].items.size() > 0);
  const Json& example = failed["inexact_examples"].items[0];
  CHECK(example["seat"].number == 1);
  CHECK(example["scores"].items.size() == 3);
  CHECK(example["gap"].number > 0);
  CHECK(example["gap"].number <= failed["largest_inexact_gap"].number);
  CHECK(example["utility"].items.size() == static_cast<size_t>(MaxTurnScore(rules) + 1));

  // A two-player table: the same certification.
  const std::string two = temp.File("two.mdt");
  test_util::WriteFile(two, test_util::SolveTinyTable(Rules{3, 0, 5}, 2));
  run = Run({"certify", "--dice", "3", "--bonus", "0", "--target", "5", "--tables", two});
  CHECK(run.code == 0);
  CHECK(run.out.find("2 players, 3 dice, bonus 0, target 5; format version 3") !=
        std::string::npos);
  CHECK(run.out.find("every decision and value is certified") != std::string::npos);
  CHECK(run.out.find("kingmaking ties (contexts)      0 (0)") != std::string::npos);

  // A damaged file: the reader's refusal, one error line (as for eval).
  std::string bytes = test_util::ReadFile(two);
  bytes[bytes.size() / 2] ^= 1;
  test_util::WriteFile(two, bytes);
  run = Run({"certify", "--dice", "3", "--bonus", "0", "--target", "5", "--tables", two});
  CHECK(run.code == kCliExitUsage);
  CHECK(run.err.find("checksum") != std::string::npos);
  CHECK(run.out.empty());
  CHECK(run.err.rfind("martiandice: error: ", 0) == 0);
  CheckUsageError({"certify", "--players", "3", "--threads", "-1", "--tables", Tiny().file},
                  "--threads");
}

// A table mapped (over kEagerTableBytes) has its blocks checked as they are
// read: one found damaged while certifying is the table's error, as at its
// load (exit 2), not a failure of the system.
// A solve whose own table is not certified says so in its exit status too:
// 17 dice at bonus 100 leave a final-round near-tie (an exact gap under the
// 1e-12 tie tolerance). The table is written all the same; --no-certify
// judges nothing.
TEST_CASE("cli solve: a table the certifier does not certify exits 3, written") {
  test_util::TempDir temp;
  const std::string out = temp.File("t.mdt");
  const std::vector<std::string> solve = {"solve",    "--dice", "17",      "--bonus", "100",
                                          "--target", "2",      "--quiet", "--out",   out};
  CliRun run = Run(solve);
  CHECK(run.code == kCliExitNotCertified);
  CHECK(run.out.find("Certification: NOT certified.") != std::string::npos);
  CHECK(run.out.find("1 not exact") != std::string::npos);
  CHECK(fs::is_regular_file(out));
  std::vector<std::string> json = solve;
  json.push_back("--json");
  run = Run(json);
  CHECK(run.code == kCliExitNotCertified);
  CHECK_FALSE(ParseJsonOrFail(run.out)["certification"]["certified"].boolean);
  std::vector<std::string> unjudged = solve;
  unjudged.push_back("--no-certify");
  run = Run(unjudged);
  CHECK(run.code == kCliExitOk);
  CHECK(run.out.find("Certification") == std::string::npos);
  run = Run({"certify", "--dice", "17", "--bonus", "100", "--target", "2", "--tables", out});
  CHECK(run.code == kCliExitNotCertified);
}

TEST_CASE("cli certify: a mapped table's damaged block is bad input, exit 2") {
  const Rules rules{13, 3, 32};
  REQUIRE(TableBytes(rules, 4) > kEagerTableBytes);
  const test_util::TempDir dir;
  const std::string file = dir.File(TableFileName(rules, 4));
  // No block written: every one reads as zeros, no probabilities.
  REQUIRE(
      table_builder::WriteSparseTable(file, table_builder::FirstTurnReachSpec(rules, 4, 10), {}));
  CheckUsageError({"certify", "--players", "4", "--target", "32", "--tables", file, "--quiet"},
                  "context 0: the win probabilities sum to 0");
}

TEST_CASE("cli 6 players: a table over 64 GiB answers best and eval as the library does") {
  // 6 players to 18: 76.0 GiB, as a cluster makes it, written sparse.
  const Rules rules{13, 3, 18};
  REQUIRE(TableBytes(rules, 6) > kMaxTableBytes);
  const test_util::TempDir dir;
  const std::string file = dir.File(TableFileName(rules, 6));
  REQUIRE(table_builder::WriteSparseTable(file, table_builder::FirstTurnReachSpec(rules, 6, 10),
                                          table_builder::FirstTurnBlocks(rules, 6)));
  auto table = GameTable::Open(file);
  REQUIRE(table.ok());
  const GameContext context{{0, 0, 0, 0, 0, 0}, 0};
  auto win = table->WinProbabilities(context);
  REQUIRE(win.ok());
  auto args = [&](std::vector<std::string> a) {
    a.insert(a.end(), {"--objective", "win", "--scores", "0,0,0,0,0,0", "--target", "18",
                       "--tables", dir.str(), "--json"});
    return a;
  };
  const Json best = RunJson(args({"best", "--roll", "2T 3R 4H 3C 1K"}));
  CHECK(best["players"].number == 6);
  CHECK(best["table"].text == file);
  CHECK_FALSE(best["fallback"].boolean);
  CheckWinProbabilities(best, *win);
  auto a = AdviseWin(*table, context, Dice(), *ParseDice("2T 3R 4H 3C 1K"));
  REQUIRE(a.ok());
  CHECK(best["value"].number == a->advice.value.approx);
  REQUIRE(best["options"].items.size() == a->advice.options.size());
  cli_test::CheckBestConsistent(best, false);
  const Json eval = RunJson(args({"eval", "--aside", "2T 3R 4H"}));
  CheckWinProbabilities(eval, *win);
  auto e = EvaluateWin(*table, context, *ParseDice("2T 3R 4H"));
  REQUIRE(e.ok());
  CHECK(eval["value"].number == e->position.value.approx);
  CHECK(eval["value"].number > 0.05);  // the records after the turn decided it
}

TEST_CASE("cli: 6 players without a table: the fallback, and the command a cluster runs") {
  // eval and best answer by the fallback, naming it and why; simulate's `win`
  // names the fallback for the position.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"eval", "--scores", "0,0,0,0,0,0", "--json"},
        std::vector<std::string>{"best", "--scores", "3,0,0,0,0,0", "--seat", "1", "--roll", "13R",
                                 "--json"}}) {
    CAPTURE(args[0]);
    const Json json = RunJson(args);
    CHECK(json["objective"].text == "win");
    CHECK(json["fallback"].boolean);
    CHECK(json["values"].text == "capped:25");
    CHECK(json["fallback_reason"].text.find("no policy table martiandice-p6-d13-b3-t25.mdt") !=
          std::string::npos);
    CHECK(json["fallback_reason"].text.find("`mpirun -np 5 martiandice solve --players 6 --out "
                                            "martiandice-p6-d13-b3-t25.mdt` on a cluster") !=
          std::string::npos);
  }
  const CliRun text = Run({"eval", "--scores", "0,0,0,0,0,0"});
  CHECK(text.code == 0);
  CHECK(text.out.find("No exact table for 6 players: no policy table martiandice-p6") !=
        std::string::npos);
  CHECK(text.out.find("Values below: the fallback's capped:25, in points: expected min(score, "
                      "25).") != std::string::npos);
  // In the final round, no table is needed: the round is solved, every seat
  // still to move playing to win.
  for (const char* seat : {"1", "5"}) {
    const CliRun final_round = Run({"eval", "--scores", "26,20,10,3,0,0", "--seat", seat});
    CHECK(final_round.code == 0);
    CHECK(final_round.out.find("Values below: the mover's chance to win, solved for this final "
                               "round (no table for 6 players is needed once the target is "
                               "reached).\n") != std::string::npos);
    CHECK(final_round.out.find("fallback") == std::string::npos);
  }
  // Its chances are the solver's, bit for bit.
  const Json early =
      ParseJsonOrFail(Run({"eval", "--scores", "26,20,10,3,0,0", "--seat", "1", "--json"}).out);
  CHECK(early["source"].text == "final_round");
  auto solver = martiandice::FinalRoundSolver::Create(martiandice::Rules{}, 6);
  REQUIRE(solver.ok());
  auto chances = solver->WinProbabilities({{26, 20, 10, 3, 0, 0}, 1});
  REQUIRE(chances.ok());
  REQUIRE(early["win_probabilities"].items.size() == 6);
  for (int seat = 0; seat < 6; ++seat) {
    CHECK(early["win_probabilities"].items[seat].number == (*chances)[seat]);
  }
  const CliRun simulate = Run({"simulate", "--games", "1", "--policies", "win,ev,ev,ev,ev,ev"});
  CHECK(simulate.code == 2);
  CHECK(simulate.err.find("no policy table martiandice-p6-d13-b3-t25.mdt") != std::string::npos);
  CHECK(simulate.err.find("mpirun -np 5 martiandice solve --players 6") != std::string::npos);
  CHECK(simulate.err.find("; or play the policy fallback in the place of win") !=
        std::string::npos);
  // The fallback's values are the turn objective's own (its own solve).
  const Json fallback = RunJson({"eval", "--objective", "capped:25", "--json"});
  CHECK(fallback["objective"].text == "capped:25");
  CHECK(RunJson({"eval", "--scores", "0,0,0,0,0,0", "--json"})["value"].number ==
        fallback["value"].number);
  // Lower targets fit: 6 players up to target 17 are told the usual command,
  // and 5 players at the official target (a 6.2 GiB table) too.
  const Json fits = RunJson({"eval", "--scores", "0,0,0,0,0,0", "--target", "17", "--json"});
  CHECK(fits["fallback_reason"].text.find("martiandice solve --players 6 --target 17") !=
        std::string::npos);
  const Json five = RunJson({"eval", "--scores", "0,0,0,0,0", "--json"});
  CHECK(five["fallback_reason"].text.find("martiandice solve --players 5 --out") !=
        std::string::npos);
}

// --device: cpu is the default; gpu needs a CUDA GPU and a build with the
// backend, else it fails naming why (exit 1); auto takes the GPU when there
// is one. The table is the same bytes whichever solves it.
TEST_CASE("cli solve --device: cpu, gpu where there is one, auto, and bad names refused") {
  test_util::TempDir temp;
  auto args_for = [&](const std::string& device, const std::string& name) {
    std::vector<std::string> args = {
        "solve",  "--players", "3",           "--threads", "2", "--out", temp.str() + "/" + name,
        "--json", "--quiet",   "--no-certify"};
    if (!device.empty()) args.insert(args.end(), {"--device", device});
    args.insert(args.end(), kTinyRules.begin(), kTinyRules.end());
    return args;
  };
  auto solve = [&](const std::string& device, const std::string& name) {
    return Run(args_for(device, name));
  };
  const CliRun cpu = solve("", "cpu.mdt");
  REQUIRE(cpu.code == 0);
  const Json cpu_report = ParseJsonOrFail(cpu.out);
  CHECK(cpu_report["device"].text == "cpu");
  CHECK(cpu_report["gpu"].is_null());
  const bool gpu_here = solver::MakeGpuBackend(1).ok();
  const CliRun gpu = solve("gpu", "gpu.mdt");
  if (gpu_here) {
    REQUIRE(gpu.code == 0);
    const Json report = ParseJsonOrFail(gpu.out);
    CHECK(report["device"].text == "gpu");
    CHECK(report["gpu"]["turn_solves"].number > 0);
    CHECK(test_util::ReadFile(temp.str() + "/gpu.mdt") ==
          test_util::ReadFile(temp.str() + "/cpu.mdt"));
  } else {
    CHECK(gpu.code == 1);
    CHECK(gpu.out.empty());
    CHECK(gpu.err.find("--device gpu: ") != std::string::npos);
    CHECK(gpu.err.find("GPU") != std::string::npos);
    CHECK(!fs::exists(temp.str() + "/gpu.mdt"));
  }
  const CliRun automatic = solve("auto", "auto.mdt");
  REQUIRE(automatic.code == 0);
  CHECK(ParseJsonOrFail(automatic.out)["device"].text == (gpu_here ? "gpu" : "cpu"));
  CHECK(test_util::ReadFile(temp.str() + "/auto.mdt") ==
        test_util::ReadFile(temp.str() + "/cpu.mdt"));
  CheckUsageError(args_for("tpu", "x.mdt"), "--device must be cpu, gpu or auto; got 'tpu'");
}

// The cluster's options (docs/SCALING.md, "On a cluster") alone: a report
// with one rank and its peak memory; bad seconds refused before any work.
TEST_CASE("cli solve: ranks and peak memory reported, --checkpoint-every and --rank-wait checked") {
  test_util::TempDir temp;
  std::vector<std::string> args = {"solve",
                                   "--players",
                                   "3",
                                   "--threads",
                                   "1",
                                   "--out",
                                   temp.File("t.mdt"),
                                   "--json",
                                   "--quiet",
                                   "--no-certify",
                                   "--checkpoint-every",
                                   "0",
                                   "--rank-wait",
                                   "5"};
  args.insert(args.end(), kTinyRules.begin(), kTinyRules.end());
  const CliRun run = Run(args);
  REQUIRE(run.code == 0);
  const Json report = ParseJsonOrFail(run.out);
  CHECK(report["ranks"].number == 1);
  REQUIRE(report["peak_bytes"].items.size() == 1);
  CHECK(report["peak_bytes"].items[0].number > 1e6);
  for (auto [option, value] :
       {std::pair{"--checkpoint-every", "-1"}, std::pair{"--checkpoint-every", "soon"},
        std::pair{"--rank-wait", "0.5"}, std::pair{"--rank-wait", "nan"}}) {
    std::vector<std::string> bad = {"solve", "--players", "3", "--out", temp.File("x.mdt"),
                                    option,  value};
    CheckUsageError(bad, absl::StrCat(option, " must be a number of seconds from "));
    CHECK(!fs::exists(temp.File("x.mdt")));
  }
}

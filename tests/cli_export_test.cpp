// Tests of `martiandice export` (tools/cli.h) and the GameTable inspection
// accessors behind it: the JSON export of a small solved table (counts, every
// context's win probabilities against GameTable::WinProbabilities, the stored
// states, the roll values against EvaluateWin), a 3-player table from the
// independent test writer (tests/table_builder.h), --out, and the errors.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli.h"
#include "cli_test_util.h"
#include "game_solver.h"
#include "martiandice/dice.h"
#include "martiandice/game.h"
#include "martiandice/rules.h"
#include "table_builder.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using cli_test::CheckRules;
using cli_test::CheckUsageError;
using cli_test::CliRun;
using cli_test::Json;
using cli_test::ParseJsonOrFail;
using cli_test::Run;
using martiandice::GameContext;
using martiandice::GameTable;
using martiandice::Rules;
using test_util::ReadFile;
using test_util::TempDir;

// Small rules: 4 dice (turns score 0..7), target 8; the 2-player table is tiny.
const Rules kSmall{4, 3, 8};
const std::vector<std::string> kSmallRules = {"--dice", "4", "--target", "8"};

// The 2-player table for kSmall, solved once and written to a temporary dir.
struct SmallTable {
  TempDir dir;
  std::string file;
  martiandice::solver::GameSolveReport report;
  std::optional<GameTable> table;

  SmallTable() {
    const std::string bytes = test_util::SolveTwoPlayerTable(kSmall, &report);
    file = (dir.path() / martiandice::TableFileName(kSmall, 2)).string();
    REQUIRE(martiandice::solver::WriteFileAtomically(file, bytes).ok());
    auto opened = GameTable::Open(file);
    REQUIRE(opened.ok());
    table = *std::move(opened);
  }
};

const SmallTable& Small() {
  static const SmallTable table;
  return table;
}

std::vector<std::string> ExportArgs(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"export", "--tables", Small().dir.str()};
  args.insert(args.end(), kSmallRules.begin(), kSmallRules.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

Json RunExport(const std::vector<std::string>& args) {
  const CliRun run = Run(args);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  REQUIRE(!run.out.empty());
  CHECK(run.out.back() == '\n');
  return ParseJsonOrFail(run.out);
}

std::vector<int> Ints(const Json& list) {
  REQUIRE(list.kind == Json::Kind::kArray);
  std::vector<int> values;
  for (const Json& item : list.items) {
    REQUIRE(item.kind == Json::Kind::kNumber);
    values.push_back(static_cast<int>(item.number));
    CHECK(values.back() == item.number);
  }
  return values;
}

GameContext ContextOf(const Json& context) {
  return GameContext{Ints(context["scores"]), static_cast<int>(context["seat"].number)};
}

bool FinalRound(const Rules& rules, const GameContext& context) {
  return std::any_of(context.scores.begin(), context.scores.begin() + context.seat,
                     [&](int score) { return score >= rules.target; });
}

// The canonical position of a STATES row as dice: humans, cows, chickens in
// the row's (descending) order.
martiandice::Dice AsideOf(const std::vector<int>& row) {
  martiandice::Dice aside;
  aside.add(martiandice::Face::kTank, row[0]);
  aside.add(martiandice::Face::kRay, row[1]);
  aside.add(martiandice::Face::kHuman, row[2]);
  aside.add(martiandice::Face::kCow, row[3]);
  aside.add(martiandice::Face::kChicken, row[4]);
  return aside;
}

}  // namespace

TEST_CASE("cli export header and counts of a small solved table") {
  const GameTable& table = *Small().table;
  const Json json = RunExport(ExportArgs({}));
  CHECK(json["format_version"].number == 1);
  CHECK(json["table"].text == Small().file);
  CheckRules(json, 4, 3, 8);
  CHECK(json["players"].number == 2);
  CHECK(json["max_turn_score"].number == 7);
  CHECK(json["error_bound"].number == table.error_bound());
  CHECK(json["error_bound"].number == Small().report.error_bound);
  CHECK(json["tie_tolerance_e"].number == 12);
  // Mover 0: 8 x 8 contexts; mover 1: (8 + 7) x 8.
  CHECK(json["context_count"].number == 8 * 8 + 15 * 8);
  CHECK(json["context_count"].number == Small().report.contexts);
  CHECK(json["state_count"].number == Small().report.stored_states);
  CHECK(json["block_count"].number == Small().report.blocks);
  CHECK(json["contexts"].items.size() == static_cast<std::size_t>(table.context_count()));
  CHECK(json["states"].items.size() == table.StoredStates().size());
  CHECK(json["rolls_included"].boolean == false);
  CHECK(json["rolls"].is_null());
  // Key order: header first, then the three lists.
  const std::vector<std::string> keys = {
      "format_version", "table",           "rules",         "players",     "max_turn_score",
      "error_bound",    "tie_tolerance_e", "context_count", "state_count", "block_count",
      "rolls_included", "contexts",        "states",        "rolls"};
  CHECK(json.keys == keys);
}

TEST_CASE("cli export win probabilities match GameTable::WinProbabilities for every context") {
  const GameTable& table = *Small().table;
  const Json json = RunExport(ExportArgs({}));
  const int blocks = static_cast<int>(json["block_count"].number);
  std::set<std::pair<int, std::vector<int>>> seen;
  std::set<int> used_blocks;
  for (const Json& context : json["contexts"].items) {
    CHECK(context.keys ==
          std::vector<std::string>{"seat", "scores", "final_round", "win_probabilities", "block"});
    const GameContext game = ContextOf(context);
    CAPTURE(game.seat);
    CAPTURE(context["scores"].items[0].number);
    CAPTURE(context["scores"].items[1].number);
    REQUIRE(martiandice::ValidateContext(kSmall, 2, game).ok());
    CHECK(seen.insert({game.seat, game.scores}).second);
    CHECK(context["final_round"].boolean == FinalRound(kSmall, game));
    auto expected = table.WinProbabilities(game);
    REQUIRE(expected.ok());
    const Json& win = context["win_probabilities"];
    REQUIRE(win.items.size() == 2);
    // 17 significant digits round-trip: equal to the last bit.
    for (int seat = 0; seat < 2; ++seat) CHECK(win.items[seat].number == (*expected)[seat]);
    const int block = static_cast<int>(context["block"].number);
    CHECK(block >= 0);
    CHECK(block < blocks);
    used_blocks.insert(block);
  }
  // Every valid context once, in file order (mover 0 first, seat 0 most significant).
  CHECK(seen.size() == json["contexts"].items.size());
  CHECK(static_cast<int>(used_blocks.size()) == blocks);
  const Json& first = json["contexts"].items.front();
  CHECK(first["seat"].number == 0);
  CHECK(Ints(first["scores"]) == std::vector<int>{0, 0});
  CHECK(Ints(json["contexts"].items[1]["scores"]) == std::vector<int>{0, 1});
  const Json& last = json["contexts"].items.back();
  CHECK(last["seat"].number == 1);
  CHECK(Ints(last["scores"]) == std::vector<int>{14, 7});
  CHECK(last["final_round"].boolean);
  // The start of the game is the solver's reported first-seat chance.
  CHECK(first["win_probabilities"].items[0].number == Small().report.first_seat_win);
}

TEST_CASE("cli export stored states and, with --rolls, roll values match EvaluateWin") {
  const GameTable& table = *Small().table;
  const Json json = RunExport(ExportArgs({"--rolls"}));
  CHECK(json["rolls_included"].boolean);
  // States: canonical, increasing, dice left consistent, as docs/FORMAT.md lists them.
  std::vector<std::vector<int>> rows;
  for (const Json& state : json["states"].items) rows.push_back(Ints(state));
  REQUIRE(!rows.empty());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::vector<int>& s = rows[k];
    REQUIRE(s.size() == 6);
    CHECK(s[2] >= s[3]);
    CHECK(s[3] >= s[4]);
    CHECK(s[5] == kSmall.dice - s[0] - s[1] - s[2] - s[3] - s[4]);
    CHECK(s[5] > 0);
    CHECK(s[1] + s[2] >= 1);
    CHECK(s[0] <= s[1] + s[5]);
    if (k > 0)
      CHECK(std::vector<int>(rows[k - 1].begin(), rows[k - 1].begin() + 5) <
            std::vector<int>(s.begin(), s.begin() + 5));
    const GameTable::StateRecord record = table.StoredStates()[k];
    CHECK(std::vector<int>{record.tanks, record.rays, record.earthlings[0], record.earthlings[1],
                           record.earthlings[2], record.left} == s);
  }
  // Rolls: block_count arrays of state_count probabilities; the context's
  // block holds the mover's value of rolling on from each stored state.
  const Json& rolls = json["rolls"];
  REQUIRE(rolls.items.size() == static_cast<std::size_t>(table.block_count()));
  for (const Json& block : rolls.items) {
    REQUIRE(block.items.size() == rows.size());
    for (const Json& value : block.items) {
      CHECK(value.number >= 0);
      CHECK(value.number <= 1);
    }
  }
  int checked = 0;
  for (const Json& context : json["contexts"].items) {
    const GameContext game = ContextOf(context);
    const Json& block = rolls.items.at(static_cast<std::size_t>(context["block"].number));
    for (std::size_t k = 0; k < rows.size(); ++k) {
      auto eval = martiandice::EvaluateWin(table, game, AsideOf(rows[k]));
      REQUIRE(eval.ok());
      REQUIRE(eval->position.roll.has_value());
      CHECK(block.items[k].number == eval->position.roll->approx);
      ++checked;
    }
  }
  CHECK(checked == table.context_count() * static_cast<int>(rows.size()));
}

TEST_CASE("cli export of a 3-player table from the independent writer") {
  // Pseudo-random values: every number is known from the spec alone.
  const Rules rules{3, 0, 5};
  const table_builder::TableSpec spec = table_builder::RandomSpec(rules, 3, 11, true);
  const TempDir dir;
  const fs::path file = dir.path() / martiandice::TableFileName(rules, 3);
  REQUIRE(martiandice::solver::WriteFileAtomically(file.string(), table_builder::WriteTable(spec))
              .ok());
  const Json json = RunExport({"export", "--tables", file.string(), "--players", "3", "--dice", "3",
                               "--bonus", "0", "--target", "5", "--rolls"});
  CHECK(json["players"].number == 3);
  CHECK(json["context_count"].number == table_builder::ContextCount(rules, 3));
  CHECK(json["block_count"].number == spec.blocks);
  const std::vector<table_builder::StateRecord> states = table_builder::StoredStates(3);
  REQUIRE(json["states"].items.size() == states.size());
  for (std::size_t k = 0; k < states.size(); ++k) {
    const table_builder::StateRecord& s = states[k];
    CHECK(Ints(json["states"].items[k]) ==
          std::vector<int>{s.tanks, s.rays, s.e0, s.e1, s.e2, s.left});
  }
  const Json& contexts = json["contexts"];
  REQUIRE(contexts.items.size() == static_cast<std::size_t>(table_builder::ContextCount(rules, 3)));
  table_builder::ForEachContext(
      rules, 3, [&](std::int64_t index, int mover, const std::vector<int>& scores) {
        const Json& context = contexts.items.at(static_cast<std::size_t>(index));
        CHECK(context["seat"].number == mover);
        CHECK(Ints(context["scores"]) == scores);
        CHECK(context["final_round"].boolean == FinalRound(rules, GameContext{scores, mover}));
        const std::vector<double> win = spec.win(mover, scores);
        REQUIRE(context["win_probabilities"].items.size() == 3);
        for (int seat = 0; seat < 3; ++seat) {
          CHECK(context["win_probabilities"].items[seat].number == win[seat]);
        }
        CHECK(context["block"].number == spec.block(index));
      });
  for (int b = 0; b < spec.blocks; ++b) {
    for (std::size_t k = 0; k < states.size(); ++k) {
      CHECK(json["rolls"].items.at(b).items.at(k).number == spec.roll(b, states[k]));
    }
  }
}

TEST_CASE("cli export inspection accessors reject indices out of range") {
  const GameTable& table = *Small().table;
  CHECK(table.format_version() == 1);
  CHECK(table.tie_tolerance_exponent() == 12);
  for (std::int64_t index : {std::int64_t{-1}, table.context_count()}) {
    CHECK(table.Context(index).status().code() == absl::StatusCode::kOutOfRange);
  }
  for (std::int64_t block : {std::int64_t{-1}, table.block_count()}) {
    CHECK(table.RollBlock(block).status().code() == absl::StatusCode::kOutOfRange);
  }
  auto last = table.Context(table.context_count() - 1);
  REQUIRE(last.ok());
  CHECK(last->context.seat == 1);
  CHECK(last->context.scores == std::vector<int>{14, 7});
}

TEST_CASE("cli export --out writes the file atomically and reports on stdout") {
  const TempDir out;
  const CliRun stdout_run = Run(ExportArgs({"--rolls"}));
  REQUIRE(stdout_run.code == 0);
  const fs::path file = out.path() / "small.json";
  const CliRun run = Run(ExportArgs({"--rolls", "--out", file.string()}));
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  CHECK(ReadFile(file) == stdout_run.out);
  for (const char* text :
       {"Exported", Small().file.c_str(), file.c_str(), "bytes", "roll values included"}) {
    CHECK(run.out.find(text) != std::string::npos);
  }
  CHECK(std::count(run.out.begin(), run.out.end(), '\n') == 1);
  // A directory gets the table's name with .json; nothing else is left behind.
  const CliRun into_dir = Run(ExportArgs({"--out", out.str()}));
  REQUIRE(into_dir.code == 0);
  CHECK(into_dir.out.find("see --rolls") != std::string::npos);
  const fs::path named = out.path() / "martiandice-p2-d4-b3-t8.json";
  REQUIRE(fs::is_regular_file(named));
  CHECK(ParseJsonOrFail(ReadFile(named))["rolls"].is_null());
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(out.path())) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"martiandice-p2-d4-b3-t8.json", "small.json"});
}

#ifdef MARTIANDICE_DATA_DIR
TEST_CASE("cli export of the shipped official table") {
  const Json json = RunExport({"export", "--tables", MARTIANDICE_DATA_DIR});
  CheckRules(json, 13, 3, 25);
  CHECK(json["context_count"].number == 1650);
  CHECK(json["contexts"].items.size() == 1650);
  const Json& start = json["contexts"].items.front()["win_probabilities"];
  CHECK(std::fabs(start.items[0].number - 0.48412297659) <= 1e-10);
  CHECK(std::fabs(start.items[0].number + start.items[1].number - 1) <= 1e-12);
}
#endif

TEST_CASE("cli export errors: exit 2, one stderr line, nothing on stdout") {
  const TempDir empty;
  const std::string solve_hint = "martiandice solve";
  // No table where it was asked for, or the default search finding none.
  CheckUsageError({"export", "--dice", "4", "--target", "8", "--tables", empty.str()}, solve_hint);
  CheckUsageError({"export", "--dice", "4", "--target", "8", "--tables",
                   (empty.path() / "missing.mdt").string()},
                  solve_hint);
  // A table for other rules or another player count.
  CheckUsageError({"export", "--dice", "4", "--target", "9", "--tables", Small().file},
                  "--target 9");
  CheckUsageError({"export", "--tables", Small().file}, "other rules");
  CheckUsageError(ExportArgs({"--players", "3"}), "3 players");
  CheckUsageError(
      {"export", "--dice", "4", "--target", "8", "--players", "3", "--tables", Small().file},
      "the table is for 2 players");
  // Bad options.
  CheckUsageError(ExportArgs({"--players", "7"}), "--players");
  CheckUsageError(ExportArgs({"--players", "1"}), "--players");
  CheckUsageError({"export", "--dice", "0"}, "invalid rules");
  CheckUsageError(ExportArgs({"--out", (empty.path() / "no" / "such.json").string()}), "--out");
  CheckUsageError(ExportArgs({"--json"}), "--json");
  CheckUsageError(ExportArgs({"--bogus"}), "--bogus");
  // A corrupt table file.
  const fs::path corrupt = empty.path() / martiandice::TableFileName(kSmall, 2);
  {
    std::string bytes = ReadFile(Small().file);
    bytes[bytes.size() / 2] ^= 0x5a;
    std::ofstream(corrupt, std::ios::binary) << bytes;
  }
  CheckUsageError({"export", "--dice", "4", "--target", "8", "--tables", corrupt.string()},
                  corrupt.string());
  CHECK(!fs::exists(empty.path() / "no"));
}

TEST_CASE("cli export help describes the fields") {
  const CliRun app = Run({"--help"});
  CHECK(app.code == 0);
  CHECK(app.out.find("export") != std::string::npos);
  const CliRun help = Run({"export", "--help"});
  CHECK(help.code == 0);
  for (const char* word : {"--tables", "--rolls", "--out", "--players", "win_probabilities",
                           "final_round", "tie_tolerance_e", "state_count", "block"}) {
    CHECK(help.out.find(word) != std::string::npos);
  }
}

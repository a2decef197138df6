// Tests of `martiandice export` (tools/cli.h) and the GameTable inspection
// accessors behind it: the JSON export of a small solved table (its header
// fields, no path of the machine, every context's win probabilities equal to
// the file's bytes and to GameTable::WinProbabilities), a 3-player table from
// the independent test writer (tests/support/table_builder.h), the shipped tables,
// --out, and the errors.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "atomic_file.h"
#include "cli.h"
#include "cli_test_util.h"
#include "game_solver.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
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
  std::string bytes;
  martiandice::solver::GameSolveReport report;
  std::optional<GameTable> table;

  SmallTable() {
    bytes = test_util::SolveTinyTable(kSmall, 2, &report);
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

// The double stored at `at` in a table file's bytes (little-endian, docs/FORMAT.md).
double StoredDouble(const std::string& bytes, std::size_t at) {
  return table_builder::GetF64(bytes, at);
}

// The fields of format version 1 that an export no longer has.
const char* const kGoneFields[] = {"block",       "blocks",      "states",        "rolls",
                                   "state_count", "block_count", "rolls_included"};

}  // namespace

TEST_CASE("cli export header and counts of a small solved table") {
  const GameTable& table = *Small().table;
  const CliRun run = Run(ExportArgs({}));
  REQUIRE(run.code == 0);
  const Json json = ParseJsonOrFail(run.out);
  CHECK(json["format_version"].number == 3);
  CheckRules(json, 4, 3, 8);
  CHECK(json["players"].number == 2);
  CHECK(json["max_turn_score"].number == 7);
  CHECK(json["error_bound"].number == table.error_bound());
  CHECK(json["error_bound"].number == Small().report.error_bound);
  CHECK(json["tie_tolerance_e"].number == 12);
  // Mover 0: 8 x 8 contexts; mover 1: (8 + 7) x 8.
  CHECK(json["context_count"].number == 8 * 8 + 15 * 8);
  CHECK(json["context_count"].number == Small().report.contexts);
  CHECK(json["contexts"].items.size() == static_cast<std::size_t>(table.context_count()));
  // Key order: the header fields, then the contexts; nothing of format version 1.
  const std::vector<std::string> keys = {"format_version",  "table",          "rules",
                                         "players",         "max_turn_score", "error_bound",
                                         "tie_tolerance_e", "context_count",  "contexts"};
  CHECK(json.keys == keys);
  for (const char* gone : kGoneFields) {
    CHECK_MESSAGE(run.out.find(std::string("\"") + gone + "\"") == std::string::npos, gone);
  }
}

TEST_CASE("cli export names the table by its file name: no path of the machine") {
  const CliRun run = Run(ExportArgs({}));
  REQUIRE(run.code == 0);
  const Json json = ParseJsonOrFail(run.out);
  CHECK(json["table"].text == "martiandice-p2-d4-b3-t8.mdt");
  // The table was found through its directory, an absolute path: no part of
  // it, nor any path separator, is in the export.
  REQUIRE(fs::path(Small().file).is_absolute());
  CHECK(run.out.find(Small().dir.str()) == std::string::npos);
  CHECK(run.out.find('/') == std::string::npos);
  CHECK(run.out.find('\\') == std::string::npos);
  // The file given directly, through a path with more components: the same export.
  const std::string roundabout =
      Small().dir.str() + "/./" + fs::path(Small().file).filename().string();
  const CliRun direct = Run({"export", "--tables", roundabout, "--dice", "4", "--target", "8"});
  REQUIRE(direct.code == 0);
  CHECK(direct.out == run.out);
}

TEST_CASE("cli export win probabilities round-trip: the file's doubles, bit for bit") {
  const GameTable& table = *Small().table;
  const std::string& bytes = Small().bytes;
  const Json json = RunExport(ExportArgs({}));
  std::set<std::pair<int, std::vector<int>>> seen;
  std::size_t index = 0;
  for (const Json& context : json["contexts"].items) {
    CHECK(context.keys ==
          std::vector<std::string>{"seat", "scores", "final_round", "win_probabilities"});
    const GameContext game = ContextOf(context);
    CAPTURE(index);
    REQUIRE(martiandice::ValidateContext(kSmall, 2, game).ok());
    CHECK(seen.insert({game.seat, game.scores}).second);
    CHECK(table_builder::ContextIndex(kSmall, 2, game.seat, game.scores) ==
          static_cast<std::int64_t>(index));
    CHECK(context["final_round"].boolean == FinalRound(kSmall, game));
    auto expected = table.WinProbabilities(game);
    REQUIRE(expected.ok());
    const Json& win = context["win_probabilities"];
    REQUIRE(win.items.size() == 2);
    // 17 significant digits round-trip: equal to the last bit, to the file and to the reader.
    for (int seat = 0; seat < 2; ++seat) {
      CHECK(std::bit_cast<std::uint64_t>(win.items[seat].number) ==
            std::bit_cast<std::uint64_t>(StoredDouble(bytes, 128 + 16 * index + 8 * seat)));
      CHECK(win.items[seat].number == (*expected)[seat]);
    }
    ++index;
  }
  // Every valid context once, in file order (mover 0 first, seat 0 most significant).
  CHECK(seen.size() == json["contexts"].items.size());
  const Json& first = json["contexts"].items.front();
  CHECK(first["seat"].number == 0);
  CHECK(Ints(first["scores"]) == std::vector<int>{0, 0});
  CHECK(Ints(json["contexts"].items[1]["scores"]) == std::vector<int>{0, 1});
  const Json& last = json["contexts"].items.back();
  CHECK(last["seat"].number == 1);
  CHECK(Ints(last["scores"]) == std::vector<int>{14, 7});
  CHECK(last["final_round"].boolean);
  // The start of the game is the solver's reported first-seat chance.
  REQUIRE(Small().report.start.size() == 2);
  CHECK(first["win_probabilities"].items[0].number == Small().report.start[0]);
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
                               "--bonus", "0", "--target", "5"});
  CHECK(json["format_version"].number == 3);
  CHECK(json["table"].text == "martiandice-p3-d3-b0-t5.mdt");
  CHECK(json["players"].number == 3);
  CHECK(json["context_count"].number == table_builder::ContextCount(rules, 3));
  for (const char* gone : kGoneFields) CHECK_FALSE(json.Has(gone));
  const Json& contexts = json["contexts"];
  REQUIRE(contexts.items.size() == static_cast<std::size_t>(table_builder::ContextCount(rules, 3)));
  table_builder::ForEachContext(
      rules, 3, [&](std::int64_t index, int mover, const std::vector<int>& scores) {
        const Json& context = contexts.items.at(static_cast<std::size_t>(index));
        CHECK(context["seat"].number == mover);
        CHECK(Ints(context["scores"]) == scores);
        CHECK(context["final_round"].boolean == FinalRound(rules, GameContext{scores, mover}));
        CHECK_FALSE(context.Has("block"));
        const std::vector<double> win = spec.win(mover, scores);
        REQUIRE(context["win_probabilities"].items.size() == 3);
        for (int seat = 0; seat < 3; ++seat) {
          CHECK(context["win_probabilities"].items[seat].number == win[seat]);
        }
      });
}

TEST_CASE("cli export inspection accessors reject indices out of range") {
  const GameTable& table = *Small().table;
  CHECK(table.format_version() == 3);
  CHECK(table.tie_tolerance_exponent() == 12);
  for (std::int64_t index : {std::int64_t{-1}, table.context_count()}) {
    CHECK(table.Context(index).status().code() == absl::StatusCode::kOutOfRange);
  }
  auto last = table.Context(table.context_count() - 1);
  REQUIRE(last.ok());
  CHECK(last->context.seat == 1);
  CHECK(last->context.scores == std::vector<int>{14, 7});
}

TEST_CASE("cli export --out writes the file atomically and reports on stdout") {
  const TempDir out;
  const CliRun stdout_run = Run(ExportArgs({}));
  REQUIRE(stdout_run.code == 0);
  const fs::path file = out.path() / "small.json";
  const CliRun run = Run(ExportArgs({"--out", file.string()}));
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  CHECK(ReadFile(file) == stdout_run.out);
  CHECK(run.out == "Exported " + Small().file + " (184 contexts) to " + file.string() + " (" +
                       std::to_string(stdout_run.out.size()) + " bytes).\n");
  // A directory gets the table's name with .json; nothing else is left behind.
  const CliRun into_dir = Run(ExportArgs({"--out", out.str()}));
  REQUIRE(into_dir.code == 0);
  const fs::path named = out.path() / "martiandice-p2-d4-b3-t8.json";
  CHECK(into_dir.out == "Exported " + Small().file + " (184 contexts) to " + named.string() + " (" +
                            std::to_string(stdout_run.out.size()) + " bytes).\n");
  REQUIRE(fs::is_regular_file(named));
  CHECK(ReadFile(named) == stdout_run.out);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(out.path())) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"martiandice-p2-d4-b3-t8.json", "small.json"});
}

#ifdef MARTIANDICE_DATA_DIR
TEST_CASE("cli export of the shipped official tables") {
  struct Shipped {
    int players;
    double contexts;
  };
  for (const Shipped& shipped : {Shipped{2, 1650}, Shipped{3, 83275}}) {
    const int p = shipped.players;
    CAPTURE(p);
    const std::string name = martiandice::TableFileName(Rules{}, p);
    const std::string bytes = ReadFile(fs::path(MARTIANDICE_DATA_DIR) / name);
    REQUIRE(!bytes.empty());
    const CliRun run =
        Run({"export", "--tables", MARTIANDICE_DATA_DIR, "--players", std::to_string(p)});
    REQUIRE(run.code == 0);
    CHECK(run.out.find('/') == std::string::npos);
    const Json json = ParseJsonOrFail(run.out);
    CheckRules(json, 13, 3, 25);
    CHECK(json["format_version"].number == 3);
    CHECK(json["table"].text == name);
    CHECK(json["players"].number == p);
    CHECK(json["context_count"].number == shipped.contexts);
    REQUIRE(json["contexts"].items.size() == static_cast<std::size_t>(shipped.contexts));
    // Every value as the file stores it.
    for (std::size_t c = 0; c < json["contexts"].items.size(); ++c) {
      const Json& win = json["contexts"].items[c]["win_probabilities"];
      REQUIRE(win.items.size() == static_cast<std::size_t>(p));
      for (int seat = 0; seat < p; ++seat) {
        if (std::bit_cast<std::uint64_t>(win.items[seat].number) !=
            std::bit_cast<std::uint64_t>(StoredDouble(bytes, 128 + 8 * (c * p + seat)))) {
          FAIL("context ", c, " seat ", seat, " does not round-trip");
        }
      }
    }
    const Json& start = json["contexts"].items.front()["win_probabilities"];
    double sum = 0;
    for (const Json& w : start.items) sum += w.number;
    CHECK(std::fabs(sum - 1) <= 1e-12);
    if (p == 2) CHECK(std::fabs(start.items[0].number - 0.48412297659) <= 1e-10);
  }
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
  CheckUsageError(ExportArgs({"--out", ""}), "--out: give the file to write");  // not stdout
  CheckUsageError(ExportArgs({"--json"}), "--json");
  CheckUsageError(ExportArgs({"--rolls"}), "--rolls");  // roll values are not stored
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
  for (const char* word :
       {"--tables", "--out", "--players", "format_version", "table (the file's name)",
        "win_probabilities", "final_round", "tie_tolerance_e", "context_count"}) {
    CHECK_MESSAGE(help.out.find(word) != std::string::npos, word);
  }
  for (const char* gone : {"--rolls", "state_count", "block"}) {
    CHECK_MESSAGE(help.out.find(gone) == std::string::npos, gone);
  }
}

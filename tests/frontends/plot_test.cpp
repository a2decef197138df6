// `martiandice plot` (tools/plot.*): the palette's grey-scale order, the
// pictures' content against the table and the queries, and the CLI's errors.
// tests/scripts/check_plot_svg.py checks the same SVGs as XML and renders them.
#include "plot.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "martiandice/table.h"
#include "test_util.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

using namespace martiandice;

namespace {

using test_util::ShippedTable;

int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("plot: viridis is ordered in luminance (readable in grey scale)") {
  CHECK(ViridisHex(0) == "#440154");
  CHECK(ViridisHex(1) == "#fde725");
  double previous = -1;
  for (int i = 0; i <= 200; ++i) {
    const double l = ViridisLuminance(i / 200.0);
    CHECK(l > previous);
    previous = l;
  }
  CHECK(ViridisLuminance(1) - ViridisLuminance(0) > 0.7);
  CHECK(ViridisHex(-3) == ViridisHex(0));  // clamped
}

TEST_CASE("plot: heat map cells are the table's win probabilities") {
  const GameTable table = ShippedTable();
  auto svg = HeatmapSvg(table, 0);
  REQUIRE(svg.ok());
  CHECK(Count(*svg, "data-win=") == 625);
  // Seat 0 at 18 against 22: 0.190526 (README); the cell carries 9 decimals.
  CHECK(svg->find("data-own=\"18\" data-opp=\"22\" data-win=\"0.190525637\"") != std::string::npos);
  CHECK(svg->find("data-own=\"0\" data-opp=\"0\" data-win=\"0.484122977\"") != std::string::npos);
  auto seat1 = HeatmapSvg(table, 1);
  REQUIRE(seat1.ok());
  CHECK(Count(*seat1, "data-win=") == 25 * 41);
  CHECK(seat1->find("final round") != std::string::npos);
  CHECK(HeatmapSvg(table, 2).status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("plot: stop chart thresholds follow the queries") {
  const GameTable table = ShippedTable();
  auto svg = StopChartSvg(table);
  REQUIRE(svg.ok());
  CHECK(Count(*svg, "data-thresholds=") == 4);
  // ev, 1 die left, 4T 4R 2H 2C: rolling is worth exactly 4 (a tank costs 4
  // with 1/6, a chicken brings 1 + 3 with 1/6): a tie, drawn as stop at 4.
  CHECK(svg->find("data-series=\"0\" data-thresholds=\"4,") != std::string::npos);
}

TEST_CASE("plot: distribution bars and errors") {
  const GameTable table = ShippedTable();
  auto svg = DistributionSvg(table, GameContext{{25, 21}, 1});
  REQUIRE(svg.ok());
  CHECK(Count(*svg, "data-series=\"ev\"") == 17);
  CHECK(Count(*svg, "data-series=\"win\"") == 17);
  CHECK(svg->find("scores 25\u201321, seat 1 to move") != std::string::npos);
  CHECK(DistributionSvg(table, GameContext{{0, 25}, 0}).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

TEST_CASE("plot: the CLI writes atomically and refuses bad input with exit 2") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "martiandice-plot-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string tables = MARTIANDICE_DATA_DIR;
  {
    std::ostringstream out, err;
    const int code = RunCli({"plot", "stop", "--out", dir.string(), "--tables", tables}, out, err);
    CHECK(code == kCliExitOk);
    CHECK(err.str().empty());
    CHECK(fs::exists(dir / "stop.svg"));
    CHECK(fs::file_size(dir / "stop.svg") > 1000);
  }
  // A file where the pictures' directory, or a folder of the path, would go;
  // a directory where the picture would go.
  { std::ofstream(dir / "one.svg") << "not a directory"; }
  fs::create_directories(dir / "taken" / "heatmap.svg");
  struct Bad {
    std::vector<std::string> args;
    std::string names;  // part of the message
  };
  const std::vector<Bad> bad = {
      {{"plot", "bars", "--out", dir.string()}, "unknown picture 'bars'"},
      {{"plot", "--out", (dir / "one.svg").string()}, "all three pictures need a directory"},
      {{"plot", "all", "--out", (dir / "new" / "all.svg").string()},
       "names a picture; all three go into a directory"},
      {{"plot", "heatmap", "--out", (dir / "one.svg" / "x.svg").string()}, "is not a directory"},
      {{"plot", "heatmap", "--out", (dir / "taken").string()}, "is a directory"},
      {{"plot", "heatmap", "--seat", "-1", "--out", dir.string()}, "--seat: "},
      {{"plot", "distribution", "--scores", "3", "--out", dir.string()}, "--scores: "},
      {{"plot", "stop", "--seat", "1", "--out", dir.string()}, "--seat"},
      {{"plot", "heatmap"}, "--out"},
      {{"plot", "heatmap", "--out", dir.string(), "--tables", (dir / "none.mdt").string()},
       "martiandice solve"},
      // Pictures of the 2-player game only, said plainly.
      {{"plot", "distribution", "--scores", "1,2,3", "--out", dir.string()},
       "--scores: plot draws pictures of the 2-player game: give 2 totals, not 3"},
      {{"plot", "--out", dir.string(), "--tables", tables + "/martiandice-p3-d13-b3-t25.mdt"},
       "plot draws pictures of the official 2-player game, from its table: "},
      {{"plot", "--out", dir.string(), "--tables", tables + "/martiandice-p3-d13-b3-t25.mdt"},
       "the table is for 3 players"},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.args.at(1));
    CAPTURE(b.names);
    std::ostringstream out, err;
    CHECK(RunCli(b.args, out, err) == kCliExitUsage);
    CHECK(out.str().empty());
    CHECK(err.str().rfind("martiandice: error: ", 0) == 0);
    CHECK(Count(err.str(), "\n") == 1);
    CHECK(err.str().find(b.names) != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir / "heatmap.svg"));  // nothing was drawn by the refused runs
  fs::remove_all(dir);
}

TEST_CASE("plot: missing output folders are created") {
  namespace fs = std::filesystem;
  const test_util::TempDir dir;
  const std::string tables = MARTIANDICE_DATA_DIR;
  {
    const fs::path file = dir.path() / "a" / "b" / "heat.svg";
    std::ostringstream out, err;
    CHECK(RunCli({"plot", "heatmap", "--out", file.string(), "--tables", tables}, out, err) ==
          kCliExitOk);
    CHECK(err.str().empty());
    CHECK(fs::file_size(file) > 1000);
    CHECK(out.str().find("Wrote " + file.string()) != std::string::npos);
  }
  {
    const fs::path folder = dir.path() / "c" / "d";
    std::ostringstream out, err;
    CHECK(RunCli({"plot", "--out", folder.string(), "--tables", tables}, out, err) == kCliExitOk);
    CHECK(err.str().empty());
    for (const char* name : {"heatmap.svg", "stop.svg", "distribution.svg"}) {
      CAPTURE(name);
      CHECK(fs::file_size(folder / name) > 1000);
    }
  }
}

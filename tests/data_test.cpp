// Shipped data: the official 2-player table in data/ is what the solver
// produces today, bit for bit, reads back through the public reader, and every
// decision it implies is certified.
#include <doctest/doctest.h>

#include <cmath>
#include <iomanip>

#include "certify.h"
#include "game_solver.h"
#include "martiandice/game.h"
#include "nplayer_table.h"
#include "test_util.h"

using namespace martiandice;

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

namespace {

using test_util::ReadFile;

std::string ShippedPath() {
  return std::string(MARTIANDICE_DATA_DIR) + "/" + TableFileName(Rules{}, 2);
}

}  // namespace

TEST_CASE("data: the shipped 2-player table is regenerated bit for bit") {
  std::string shipped = ReadFile(ShippedPath());
  REQUIRE_MESSAGE(!shipped.empty(), "missing " << ShippedPath());
  solver::GameSolveOptions options;
  solver::GameSolveReport report;
  auto fresh = solver::SolveGameTable(options, &report);
  REQUIRE(fresh.ok());
  CHECK(fresh->size() == shipped.size());
  CHECK_MESSAGE(*fresh == shipped, "data/ is stale: run tools/regenerate-data.sh");
  MESSAGE("solve: " << report.seconds << " s, " << report.turn_solves
                    << " turn solves, seat 0 wins " << report.first_seat_win << ", error bound "
                    << report.error_bound);
  CHECK(report.error_bound <= 1e-13);
}

TEST_CASE("data: the shipped table reads back and is consistent") {
  auto table = GameTable::Open(ShippedPath());
  REQUIRE_MESSAGE(table.ok(), table.status());
  CHECK(table->players() == 2);
  CHECK(table->rules() == Rules{});
  CHECK(table->error_bound() <= 1e-13);
  CHECK(CheckTableMatches(*table, Rules{}, 2).ok());
  CHECK_FALSE(CheckTableMatches(*table, Rules{}, 3).ok());
  // Zero-sum at every open-round context, and the first seat's start value.
  for (int s0 = 0; s0 < 25; ++s0) {
    for (int s1 = 0; s1 < 25; ++s1) {
      for (int seat = 0; seat < 2; ++seat) {
        auto w = table->WinProbabilities(GameContext{{s0, s1}, seat});
        REQUIRE(w.ok());
        CHECK((*w)[0] + (*w)[1] == doctest::Approx(1.0).epsilon(1e-13));
        CHECK((*w)[0] >= 0.0);
        CHECK((*w)[1] >= 0.0);
      }
    }
  }
  auto start = table->WinProbabilities(GameContext{{0, 0}, 0});
  REQUIRE(start.ok());
  MESSAGE("seat 0 wins the official 2-player game with probability " << (*start)[0]);
  CHECK((*start)[0] > 0.4);
  CHECK((*start)[0] < 0.5);  // the last seat's final turn is an advantage
}

TEST_CASE("data: every decision of the shipped table is certified") {
  auto report = solver::CertifyTable(ReadFile(ShippedPath()));
  REQUIRE(report.ok());
  MESSAGE("decisions " << report->decisions << ", smallest margin " << report->smallest_margin
                       << ", ties " << report->ties << " (" << report->symmetric_ties
                       << " symmetric, " << report->exact_ties << " exact, "
                       << report->inexact_ties << " not exact), " << report->seconds << " s");
  CHECK(report->contexts == 1650);
  CHECK(report->inexact_ties == 0);
  CHECK(report->smallest_margin > 2 * report->error_bound);
  CHECK(report->certified);
}

// The 3-player solve's speed-ups must leave every byte as it was (the
// settling passes' stored laws among them: solver/score_law_cache.h).
TEST_CASE("data: the shipped 3-player table is regenerated bit for bit") {
  const std::string path = std::string(MARTIANDICE_DATA_DIR) + "/" + TableFileName(Rules{}, 3);
  const std::string shipped = ReadFile(path);
  REQUIRE_MESSAGE(!shipped.empty(), "missing " << path);
  solver::GameSolveOptions options;
  options.players = 3;
  options.threads = 2;
  solver::GameSolveReport report;
  auto fresh = solver::SolveGameTable(options, &report);
  REQUIRE(fresh.ok());
  CHECK(fresh->size() == shipped.size());
  CHECK_MESSAGE(*fresh == shipped, "data/ is stale: run tools/regenerate-data.sh");
  // About half the settling passes play a policy an earlier one played.
  CHECK(report.settle_passes == 3 * report.cycles);
  CHECK(report.settle_reused > 0);
  CHECK(report.settle_reused < report.settle_passes);
  MESSAGE("3-player solve: " << report.seconds << " s, " << report.turn_solves << " turn solves, "
                             << report.settle_reused << " of " << report.settle_passes
                             << " settling passes reused");
}

// The shipped 3-player table (format version 2, values only), read with the
// reader: its signature (size, contexts, bound, start vector) and a query.
// Regenerate with tools/regenerate-data.sh when the solver's arithmetic changes.
TEST_CASE("data: the shipped 3-player table reads back with its signature") {
  const std::string path = std::string(MARTIANDICE_DATA_DIR) + "/" + TableFileName(Rules{}, 3);
  auto table = GameTable::Open(path);
  REQUIRE_MESSAGE(table.ok(), table.status());
  CHECK(table->format_version() == 2);
  CHECK(table->players() == 3);
  CHECK(table->rules() == Rules{});
  CHECK(table->context_count() == 83275);  // 25^3 + 41 * 25^2 + 41^2 * 25
  CHECK(table->block_count() == 0);
  CHECK(table->error_bound() < 1e-13);
  CHECK(CheckTableMatches(*table, Rules{}, 3).ok());
  CHECK_FALSE(CheckTableMatches(*table, Rules{}, 2).ok());
  auto start = table->WinProbabilities(GameContext{{0, 0, 0}, 0});
  REQUIRE(start.ok());
  MESSAGE("3-player start vector " << std::setprecision(17) << (*start)[0] << ", " << (*start)[1] << ", " << (*start)[2]
                                   << ", error bound " << table->error_bound());
  // The N-player solve's start vector (docs/PLAYERS.md), within a few ulps of
  // rounding; later seats are favoured.
  const double expected[3] = {0.318491846082913, 0.33258283454013, 0.34892531937695653};
  for (int j = 0; j < 3; ++j) CHECK(std::abs((*start)[j] - expected[j]) <= 3e-15);
  CHECK(std::abs((*start)[0] + (*start)[1] + (*start)[2] - 1) <= 3 * table->error_bound());
  // A query solves the first turn: rolling is the only move, worth seat 0's chance.
  auto eval = EvaluateWin(*table, GameContext{{0, 0, 0}, 0}, Dice(0, 1, 0, 0, 0));
  REQUIRE(eval.ok());
  REQUIRE(eval->position.roll.has_value());
  CHECK(eval->position.action == Then::kRoll);
  CHECK(eval->position.roll->approx > (*start)[0] - 0.1);
}

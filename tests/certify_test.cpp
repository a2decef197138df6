// Certification: every decision of a solved table checked against its error
// bound, ties re-verified exactly; a refused table is an error.
#include "certify.h"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "game_solver.h"
#include "martiandice/game.h"
#include "table_writer.h"

using namespace martiandice;

TEST_CASE("certify: a small solved table is certified, ties exact") {
  solver::GameSolveOptions options;
  options.rules = Rules{5, 3, 10};
  auto bytes = solver::SolveGameTable(options, nullptr);
  REQUIRE(bytes.ok());
  auto report = solver::CertifyTable(*bytes);
  REQUIRE(report.ok());
  CHECK(report->contexts == 10 * 10 + 10 * (10 + MaxTurnScore(options.rules)));
  CHECK(report->decisions > 10000);
  CHECK(report->ties > 0);
  CHECK(report->symmetric_ties > 0);
  CHECK(report->ties == report->symmetric_ties + report->exact_ties + report->inexact_ties);
  CHECK(report->inexact_ties == 0);
  CHECK(report->smallest_margin > 2 * report->error_bound);
  CHECK(report->smallest_margin > report->tie_tolerance);
  CHECK(report->certified);
}

TEST_CASE("certify: a refused table is an error, not a report") {
  auto report = solver::CertifyTable("not a table");
  CHECK_FALSE(report.ok());
}

TEST_CASE("certify: a version 2 table (no roll values) is refused, not read out of range") {
  auto bytes = solver::SerializeValuesTable(Rules{3, 3, 5}, 2, 0,
                                            std::vector<double>(2 * (25 + 5 * 11), 0.5));
  REQUIRE(GameTable::FromBytes(bytes).ok());
  auto report = solver::CertifyTable(bytes);
  REQUIRE_FALSE(report.ok());
  CHECK(report.status().code() == absl::StatusCode::kUnimplemented);
}

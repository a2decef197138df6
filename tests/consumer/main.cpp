// The C++ consumer of tools/check-package.sh: the end of the rulebook's
// sample turn solved exactly (rolling on from 3T 3R 4H 1K is worth 281/54,
// worked out by hand in tests/library/sample_turn_test.cpp) and a win query from the
// policy table the library finds by itself (final round, 21 against 25: stop
// wins surely, rolling wins 29/36). Usage: martiandice_consumer [TABLE_DIR]:
// with TABLE_DIR, the table must be found there. Exit 0 if every answer is right.
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "martiandice/dice.h"
#include "martiandice/objective.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"
#include "martiandice/win_query.h"

namespace md = martiandice;

int Fail(const std::string& what) {
  std::fprintf(stderr, "martiandice_consumer: FAILED: %s\n", what.c_str());
  return 1;
}

int main(int argc, char** argv) {
  const md::Rules rules;
  auto solution =
      md::TurnSolution::Solve(rules, md::Objective::ExpectedScore(), md::Precision::kExact);
  if (!solution.ok()) return Fail(std::string(solution.status().message()));
  auto aside = md::ParseDice("3T 3R 4H 1K");
  if (!aside.ok()) return Fail(std::string(aside.status().message()));
  auto eval = md::EvaluatePosition(*solution, *aside);
  if (!eval.ok()) return Fail(std::string(eval.status().message()));
  if (!eval->roll || !eval->roll->exact || *eval->roll->exact != md::Rational(281, 54)) {
    return Fail("ev roll value is not 281/54");
  }
  if (eval->action != md::Then::kRoll) return Fail("ev action is not roll");

  auto path = md::LocateTable(rules, 2, std::nullopt);
  if (!path.ok()) return Fail(std::string(path.status().message()));
  if (argc > 1) {
    const std::string expected = std::string(argv[1]) + "/" + md::TableFileName(rules, 2);
    if (*path != expected) return Fail("table found at " + *path + ", expected " + expected);
  }
  auto table = md::GameTable::Open(*path);
  if (!table.ok()) return Fail(std::string(table.status().message()));
  auto win = md::EvaluateWin(*table, md::GameContext{{25, 21}, 1}, *aside);
  if (!win.ok()) return Fail(std::string(win.status().message()));
  if (!win->position.stop || std::abs(win->position.stop->approx - 1.0) > 1e-12 ||
      !win->position.roll || std::abs(win->position.roll->approx - 29.0 / 36.0) > 1e-12 ||
      win->position.action != md::Then::kStop) {
    return Fail("win query: expected stop 1, roll 29/36, action stop");
  }
  std::printf("martiandice_consumer: ev roll %s, win stop %.6f roll %.6f; table %s: ok\n",
              md::FormatRational(*eval->roll->exact).c_str(), win->position.stop->approx,
              win->position.roll->approx, path->c_str());
  return 0;
}

// The module's table solve (mdw_solve): the game solve of `martiandice solve`
// (solver/game_solver.h) on the module's one thread, for house rules no shipped
// table covers; the table's bytes are the CLI's, byte for byte, and are
// registered at once as mdw_add_table registers a file. Progress goes to
// JavaScript (Module.onSolveProgress, when the package sets it).
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "answers.h"
#include "binding.h"
#include "front_end.h"
#include "game_solver.h"
#include "json.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"

#ifdef __EMSCRIPTEN__
// The solve's progress to the page: fraction done (0..1) and seconds so far;
// true (the package's hook caught its callback's exception) stops the solve.
EM_JS(int, mdw_solve_progress, (double fraction, double seconds),
      { return Module.onSolveProgress && Module.onSolveProgress(fraction, seconds) ? 1 : 0; });
#else
static int mdw_solve_progress(double, double) { return 0; }
#endif

namespace martiandice::web {
namespace {

// Checks the rules and players (InvalidArgument).
absl::Status CheckGame(const Rules& rules, int players) {
  if (absl::Status status = app::CheckRules(rules); !status.ok()) return status;
  return app::CheckPlayers(players, "players");
}

// Checks the game, then the table's size (ResourceExhausted: too large here).
absl::Status CheckSolve(const Rules& rules, int players) {
  if (absl::Status status = CheckGame(rules, players); !status.ok()) return status;
  const std::uint64_t bytes = TableBytes(rules, players);
  if (bytes > kMaxModuleTableBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the table for ", players, " players (", RulesText(rules), ") would take ",
                     bytes >> 20, " MiB; the page solves tables up to ", kMaxModuleTableBytes >> 20,
                     " MiB (`martiandice solve` makes larger ones)"));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace martiandice::web

namespace {
std::string solved;  // the last solve's table, until released
}  // namespace

extern "C" {

// Solves the policy table of `players` at the rules (dice, bonus, target)
// with one thread, as `martiandice solve` does (without certifying; the table
// is the same). The table's bytes are then at mdw_solved_bytes(), size
// mdw_solved_size(), until mdw_solved_release() or the next solve; the
// package copies them and registers them (mdw_add_table). Result:
// {"players":N,"rules":{...},"size":B,"seconds":S,"turn_solves":T}. Errors:
// rules or players out of range (InvalidArgument); a table over 64 MiB
// (ResourceExhausted); the solve's.
EMSCRIPTEN_KEEPALIVE int mdw_solve(int players, int dice, int bonus, int target) {
  using namespace martiandice;  // NOLINT: this function's names
  solved = std::string();
  const Rules rules{dice, bonus, target};
  if (absl::Status status = web::CheckSolve(rules, players); !status.ok()) {
    return web::Fail(status);
  }
  solver::GameSolveOptions options;
  options.rules = rules;
  options.players = players;
  options.threads = 1;  // the module has one thread
  std::atomic<bool> stop{false};
  options.stop = &stop;
  options.progress = [&stop](const solver::GameSolveProgress& p) {
    if (mdw_solve_progress(p.fraction, p.seconds) != 0) stop = true;
  };
  solver::GameSolveReport report;
  absl::StatusOr<std::string> bytes = solver::SolveGameTable(options, &report);
  if (!bytes.ok()) return web::Fail(bytes.status());
  solved = *std::move(bytes);
  return web::Succeed(JsonObject()
                          .Int("players", players)
                          .Raw("rules", app::RulesJson(rules))
                          .Int("size", static_cast<std::int64_t>(solved.size()))
                          .Double("seconds", report.seconds)
                          .Int("turn_solves", report.turn_solves)
                          .Build());
}

// The size of the policy table of `players` at the rules (dice, bonus,
// target), as mdw_solve would write it, and the largest it solves:
// {"players":N,"rules":{...},"size":B,"limit":L}, so that a page decides
// before solving. Errors (InvalidArgument): rules or players out of range.
EMSCRIPTEN_KEEPALIVE int mdw_table_size(int players, int dice, int bonus, int target) {
  using namespace martiandice;  // NOLINT: this function's names
  const Rules rules{dice, bonus, target};
  if (absl::Status status = web::CheckGame(rules, players); !status.ok()) return web::Fail(status);
  return web::Succeed(JsonObject()
                          .Int("players", players)
                          .Raw("rules", app::RulesJson(rules))
                          .Int("size", static_cast<std::int64_t>(TableBytes(rules, players)))
                          .Int("limit", static_cast<std::int64_t>(web::kMaxModuleTableBytes))
                          .Build());
}

EMSCRIPTEN_KEEPALIVE const char* mdw_solved_bytes() { return solved.data(); }
EMSCRIPTEN_KEEPALIVE std::size_t mdw_solved_size() { return solved.size(); }
EMSCRIPTEN_KEEPALIVE void mdw_solved_release() { std::string().swap(solved); }

}  // extern "C"
